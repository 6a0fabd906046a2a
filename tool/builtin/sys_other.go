//go:build !unix

package builtin

import (
	"os"
)

// Open flags with no equivalent on this platform.
const (
	oNonblock = 0
	oNoFollow = 0
)

// keepOwner does nothing on platforms without Unix ownership.
func keepOwner(f *os.File, old *fileStat) {}

// isLinkErr reports false: the open follows links that stay inside the
// directory it is opened under on this platform.
func isLinkErr(err error) bool { return false }
