package sandbox

import "os"

// The flags the repository check opens with; elsewhere than Linux it
// never runs (bubblewrap is Linux's), they only keep the package building.
const (
	checkDirFlags  = os.O_RDONLY
	checkFileFlags = os.O_RDONLY
)
