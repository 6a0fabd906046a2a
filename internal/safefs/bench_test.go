package safefs_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// BenchmarkDirAppend measures one unsynced Dir.Append of a 100-byte line,
// the store's hot path without the codec and the lock: what the checks
// around the write cost.
func BenchmarkDirAppend(b *testing.B) {
	d, err := safefs.Anchor(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	line := make([]byte, 100)
	line[99] = '\n'
	for b.Loop() {
		if err := d.Append("s.jsonl", line, false); err != nil {
			b.Fatal(err)
		}
	}
}
