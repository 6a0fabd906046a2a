//go:build !windows && (!linux || safefs_portable)

package safefs

import "os"

// renameNoReplace puts the file old in place under new, failing with an
// error matching fs.ErrExist if new exists: a link (see linkNoReplace),
// which every unix file system with hard links offers; old remains for
// the caller to remove. A file system without hard links gives
// errNoExclusiveMove.
func renameNoReplace(old, new string) error { return linkNoReplace(old, new) }

// renameNoReplaceIn is renameNoReplace for old and new below r: a link
// through r (see linkNoReplaceIn).
func renameNoReplaceIn(r *os.Root, _, old, new string) error { return linkNoReplaceIn(r, old, new) }
