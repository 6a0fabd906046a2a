package session_test

import (
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// TestAnEncodedLogDecodingFarBeyondItsSizeIsRefused plants, with a
// compressing codec (which needs no key, so a data home copied in can hold
// such a log), a log whose records decode to far more than the log's size
// (round 133: 40 zstd records of 200 MiB each in a 355 KB log; run -r ran
// out of memory past 6 GB, sessions show took 43 s and 3.4 GB, verify
// 13 s). Here the budget's floor is lowered to 1 MiB and eight records of
// 512 KiB of one letter compress to a few kilobytes. Read, Scan, Head,
// Verify and ReadFromView refuse the log with a *storage.Error naming it;
// a log of the same records that decode to less than the budget, and an
// ordinary log, are read as before.
func TestAnEncodedLogDecodingFarBeyondItsSizeIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name    string
		texts   int // records of 512 KiB of one letter
		refused bool
	}{
		{"ordinary", 0, false},
		{"under the budget", 1, false},
		{"far over its size", 8, true},
	} {
		for _, workers := range []int64{0, 1} {
			name := tc.name
			if workers == 1 {
				name += " on several cores"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				enc := session.FileOptions{Encoding: storage.Encoding{Codec: codec.Zstd()}}
				cp := newCP(t, dir, enc)
				appendTexts(t, cp, "s1", "hello")
				for range tc.texts {
					appendTexts(t, cp, "s1", strings.Repeat("A", 512<<10))
				}
				appendTexts(t, cp, "s1", "bye")
				want := int64(tc.texts + 2)
				cp = newCP(t, dir, enc)
				session.SetDecodeFloor(cp, 1<<20)
				if workers == 1 {
					session.SetParallelMin(cp, 1)
				}
				evs, readErr := cp.Read(t.Context(), "s1", 0)
				var scanErr error
				for _, err := range cp.Scan(t.Context(), "s1", 0) {
					if err != nil {
						scanErr = err
					}
				}
				probs, verifyErr := cp.Verify(t.Context(), "s1")
				_, _, viewErr := cp.ReadFromView(t.Context(), "s1")
				if !tc.refused {
					if readErr != nil || int64(len(evs)) != want || scanErr != nil || verifyErr != nil || len(probs) != 0 || viewErr != nil {
						t.Fatalf("Read %d events, %v; Scan %v; Verify %v, %v; ReadFromView %v", len(evs), readErr, scanErr, probs, verifyErr, viewErr)
					}
					return
				}
				for name, err := range map[string]error{"Read": readErr, "Scan": scanErr, "ReadFromView": viewErr} {
					se := storageError(t, err, "decodes to more than")
					if se.File == "" || !strings.HasSuffix(se.File, "s1.jsonl") {
						t.Errorf("%s: the error names %q", name, se.File)
					}
				}
				if verifyErr == nil {
					t.Errorf("Verify = %v, nil; want the refusal", probs)
				}
			})
		}
	}
}
