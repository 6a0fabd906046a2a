package safefs

// syncDir does nothing on Windows: a directory cannot be opened for
// flushing there, and NTFS journals its names itself.
func syncDir(string) error { return nil }
