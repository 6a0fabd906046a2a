package spill

import "strings"

// FileSuffix ends the name of every spill file: <ref>.txt in the spill
// directory. Tools that walk a data home, such as a migration, match
// entries against it (or use [FileRef]) instead of spelling it.
const FileSuffix = ".txt"

// FileRef returns the ref of the spill file named name (<ref>.txt with a
// well-formed ref, see [ValidRef]) and whether name is a spill file's name.
func FileRef(name string) (ref string, ok bool) {
	ref, ok = strings.CutSuffix(name, FileSuffix)
	if !ok || !ValidRef(ref) {
		return "", false
	}
	return ref, true
}
