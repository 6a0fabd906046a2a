package filelock

// WithStepHook returns o with at called at each named step of taking,
// refreshing, parking and releasing the lock (acquire:made,
// acquire:placed, unpark:claimed, unpark:stamped, unpark:placed,
// unpark:putback, release:verified, release:aside, release:parked,
// move:verified, takeover:seen, takeover:aside, takeover:giveback,
// touch:due, verify:again), so that a test can kill its process there or
// change the directory under it.
func WithStepHook(o Options, at func(step string)) Options {
	o.hook = &stepHook{at: at}
	return o
}

// ThenAtStep returns o with after called at each step, after the hook o
// already has (if any).
func ThenAtStep(o Options, after func(step string)) Options {
	first := o.hook
	o.hook = &stepHook{at: func(step string) {
		first.step(step)
		after(step)
	}}
	return o
}
