//go:build race

package builtin_test

// raceEnabled reports a -race build, in which the searches' pattern
// matching runs several times slower.
const raceEnabled = true
