package safefs

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// renameNoReplace moves the file old to new, failing with an error
// matching fs.ErrExist if new exists: MoveFileEx without
// MOVEFILE_REPLACE_EXISTING, written through to the disk.
func renameNoReplace(old, new string) error {
	from, err := windows.UTF16PtrFromString(old)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: err}
	}
	to, err := windows.UTF16PtrFromString(new)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: err}
	}
	if err := windows.MoveFileEx(from, to, windows.MOVEFILE_WRITE_THROUGH); err != nil {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: err}
	}
	return nil
}

// renameNoReplaceIn is renameNoReplace for old and new below r, whose
// path is base: MoveFileEx takes paths, so on Windows this move looks the
// path above r up again (the one operation of a Dir that does).
func renameNoReplaceIn(_ *os.Root, base, old, new string) error {
	return renameNoReplace(filepath.Join(base, old), filepath.Join(base, new))
}
