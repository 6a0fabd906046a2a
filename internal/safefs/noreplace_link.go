//go:build !windows && (!linux || safefs_portable)

package safefs

import "os"

// renameNoReplaceIn puts the file old in place under new, both below r,
// failing with an error matching fs.ErrExist if new exists: a link through
// r (see linkNoReplaceIn), which every unix file system with hard links
// offers; old remains for the caller to remove.
func renameNoReplaceIn(r *os.Root, _, old, new string) error { return linkNoReplaceIn(r, old, new) }
