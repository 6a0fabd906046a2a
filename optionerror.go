package liteagent

// An OptionError reports a field of [Options] that [New] (or [Query])
// refuses, so that a host can tell its own configuration mistake from a
// failure of the disk, the model or a store with errors.As. Its text is
// the one New has always returned, starting "liteagent: ".
//
// The fields of Storage (and the deprecated Home) are the exception: an
// invalid namespace, home or codec ID is the [*storage.Error] of
// [storage.ResolveProjectPaths] or [storage.FreezeCodec], as it is for the
// command line and the other packages, not an OptionError.
type OptionError struct {
	// Field names the refused field, such as "Model", "Workdir",
	// "TaskListID", "MaxTurns", "Permission" or "Cleanup.MaxAge" (also
	// for an invalid LITE_AGENT_CLEANUP_DAYS, which sets its default).
	Field string
	// Message says what is wrong, in our own words.
	Message string
	// Err is the cause, or nil: the file-system error of a Workdir that
	// cannot be read, the *storage.Error of an invalid TaskListID, the
	// schema error of an invalid OutputSchema.
	Err error
}

// Error returns "liteagent: <message>", followed by ": <cause>" when there
// is one.
func (e *OptionError) Error() string {
	if e.Err != nil {
		return "liteagent: " + e.Message + ": " + e.Err.Error()
	}
	return "liteagent: " + e.Message
}

// Unwrap returns the cause, or nil.
func (e *OptionError) Unwrap() error { return e.Err }
