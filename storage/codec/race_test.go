//go:build race

package codec_test

// raceEnabled reports a -race build, in which sync.Pool drops some of what
// it is given, so pooled buffers are sometimes allocated anew.
const raceEnabled = true
