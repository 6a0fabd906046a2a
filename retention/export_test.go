package retention

import "context"

// SweepStoppingBeforeRelease sweeps home and calls at with the path of
// every entry it removed, after the removal and before the entry's lock is
// released, so that a test can kill the process there.
func SweepStoppingBeforeRelease(ctx context.Context, home string, at func(path string)) (Report, error) {
	return Sweep(ctx, Options{Home: home, beforeRelease: at})
}
