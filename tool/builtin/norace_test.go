//go:build !race

package builtin_test

// raceEnabled reports a -race build.
const raceEnabled = false
