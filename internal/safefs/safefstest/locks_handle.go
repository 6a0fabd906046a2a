//go:build !safefs_portable

package safefstest

// LocksByPath reports whether this build's safefs takes lock directories
// by path, as its portable code (the safefs_portable build, Windows'
// code) does: a swap race may then make, rename or remove lock
// directories where a swapped link leads, and a test of the race leaves
// them out of TreeHash. Here Dir.Lock goes through the proven handle.
const LocksByPath = false
