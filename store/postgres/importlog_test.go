package postgres_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// TestImportReadsALogAsAStream plants session logs that ImportFiles read
// whole (round 128: migrate --to-store took 7.5 GB and 56 s for a 3 GiB
// sparse log, which costs no disk). It now streams them as the file store
// does: a long torn tail is read past without being held, and a complete
// line over session.MaxLineBytes is refused with a *storage.Error.
func TestImportReadsALogAsAStream(t *testing.T) {
	const records = `{"seq":1}` + "\n" + `{"seq":2}` + "\n"
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, log string)
		lines []string
		err   string
	}{
		{"records", func(*testing.T, string) {}, []string{`{"seq":1}`, `{"seq":2}`}, ""},
		{"sparse torn tail of 1 MiB", func(t *testing.T, log string) {
			if err := os.Truncate(log, int64(len(records))+1<<20); err != nil {
				t.Skip("sparse file:", err)
			}
		}, []string{`{"seq":1}`, `{"seq":2}`}, ""},
		// Since round 133 a log mostly of holes is refused unread, as the
		// file store refuses it.
		{"sparse torn tail of 1 GiB", func(t *testing.T, log string) {
			if err := os.Truncate(log, int64(len(records))+1<<30); err != nil {
				t.Skip("sparse file:", err)
			}
			f, err := os.Open(log)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if n, err := safefs.HoleBytes(f, int64(len(records))+1<<30, safefs.MaxHoleBytes); err != nil || n <= safefs.MaxHoleBytes {
				t.Skip("the file system (or build) tells no holes")
			}
		}, nil, "sparse"},
		{"line over the limit", func(t *testing.T, log string) {
			f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(strings.Repeat("x", session.MaxLineBytes+1) + "\n"); err != nil {
				t.Fatal(err)
			}
		}, nil, "exceeds the line length limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "s1.jsonl")
			if err := os.WriteFile(log, []byte(records), 0o600); err != nil {
				t.Fatal(err)
			}
			tc.plant(t, log)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			lines, err := postgres.ReadLogLines(log)
			runtime.ReadMemStats(&after)
			if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
				t.Errorf("reading the log allocated %d bytes", got)
			}
			if tc.err != "" {
				var se *storage.Error
				if !errors.As(err, &se) || !strings.Contains(se.Message, tc.err) || se.File != log {
					t.Fatalf("ReadLogLines = %v, want a *storage.Error naming the log: %s", err, tc.err)
				}
				return
			}
			if err != nil || len(lines) != len(tc.lines) {
				t.Fatalf("ReadLogLines = %d lines, %v", len(lines), err)
			}
			for i, l := range lines {
				if string(l) != tc.lines[i] {
					t.Errorf("line %d: %q, want %q", i, l, tc.lines[i])
				}
			}
		})
	}
}
