package filelock

// WithStepHook returns o with at called at each named step of taking,
// parking and releasing the lock (acquire:made, acquire:placed,
// unpark:claimed, unpark:stamped, unpark:placed, unpark:putback,
// release:verified, release:aside, release:parked, move:verified,
// takeover:seen, takeover:aside, takeover:giveback, verify:again), so
// that a test can kill its process there or change the directory under
// it.
func WithStepHook(o Options, at func(step string)) Options {
	o.hook = &stepHook{at: at}
	return o
}
