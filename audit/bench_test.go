package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// BenchmarkAppend measures Log.Append (lock, chain, redaction, one write,
// fsync unless nosync) for events of about 100 bytes and 4 KiB, beside
// the raw operation: writing the same record to an open file with one
// write call (and fdatasync). Compare the two lines of each pair.
func BenchmarkAppend(b *testing.B) {
	for _, sync := range []bool{false, true} {
		for _, size := range []int{100, 4 << 10} {
			name := map[bool]string{false: "nosync", true: "sync"}[sync] + "/" + map[int]string{100: "100B", 4 << 10: "4KiB"}[size]
			ev := engine.Event{Type: engine.EventTextDelta, SessionID: "s1", Turn: 1, Text: strings.Repeat("x", size)}
			b.Run(name+"/raw", func(b *testing.B) {
				f, err := os.OpenFile(filepath.Join(b.TempDir(), "raw.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				raw, _ := encodeEvent(ev)
				line, _ := encodeRecord(nil, "2026-01-02T03:04:05.000Z", "s1", 1, "", raw)
				b.SetBytes(int64(len(line)))
				for b.Loop() {
					if _, err := f.Write(line); err != nil {
						b.Fatal(err)
					}
					if sync {
						if err := safefs.SyncData(f); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
			b.Run(name+"/append", func(b *testing.B) {
				l, err := NewLog(filepath.Join(b.TempDir(), "audit.jsonl"), Options{NoSync: !sync, MaxBytes: -1})
				if err != nil {
					b.Fatal(err)
				}
				defer l.Close()
				for b.Loop() {
					if err := l.Append(b.Context(), ev); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
