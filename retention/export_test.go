package retention

import "context"

// SweepStoppingBeforeRelease sweeps home and calls at with the path of
// every entry it removed, after the removal and before the entry's lock is
// released, so that a test can kill the process there.
func SweepStoppingBeforeRelease(ctx context.Context, home string, at func(path string)) (Report, error) {
	return Sweep(ctx, Options{Home: home, beforeRelease: at})
}

// MigrationMarker is the name of a migration's marker, as the sweep looks
// for it.
const MigrationMarker = migrationMarker

// SweepCallingBeforeRemove sweeps as opts say and calls at with the path of
// every entry it is about to remove, between its scan and its removal.
func SweepCallingBeforeRemove(ctx context.Context, opts Options, at func(path string)) (Report, error) {
	opts.beforeRemove = at
	return Sweep(ctx, opts)
}

const ForkMarker = forkMarker

// SweepWithoutProc sweeps as opts say, as where /proc is missing: the
// directory of the process's descriptors, where the portable build looks
// for a path naming the directory it locks in, is one that does not exist.
func SweepWithoutProc(ctx context.Context, opts Options) (Report, error) {
	opts.fds = "/nonexistent-proc/self/fd/"
	return Sweep(ctx, opts)
}
