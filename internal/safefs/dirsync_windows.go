package safefs

import "os"

// syncDir does nothing on Windows: a directory cannot be opened for
// flushing there, and NTFS journals its names itself.
func syncDir(string) error { return nil }

// syncRoot does nothing on Windows, as syncDir does nothing.
func syncRoot(*os.Root, string) error { return nil }

// syncIn does nothing on Windows, as syncDir does nothing.
func syncIn(*os.Root, string, string) error { return nil }
