package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
)

// TestSummariesHoldNoLongTailInMemory plants logs whose end holds no
// complete line for far longer than a line's limit (round 128: lite-agent
// sessions list read a 3 GiB sparse log, which costs no disk, whole into
// memory, 7.4 GB, and did not finish in a minute). Summaries reads such an
// end backwards a window at a time: it finds the last record as before,
// holding no more than about a line's limit.
func TestSummariesHoldNoLongTailInMemory(t *testing.T) {
	const tail = 64 << 20
	for _, tc := range []struct {
		name    string
		plant   func(t *testing.T, log string)
		records int64
		torn    bool
		err     string
	}{
		{"sparse torn tail", func(t *testing.T, log string) { grow(t, log, tail) }, 2, true, ""},
		{"blank lines", func(t *testing.T, log string) { appendFile(t, log, strings.Repeat("\n", tail)) }, 2, false, ""},
		{"no newline at all", func(t *testing.T, log string) {
			if err := os.Truncate(log, 0); err != nil {
				t.Fatal(err)
			}
			grow(t, log, tail)
		}, 0, true, ""},
		{"last line over the limit", func(t *testing.T, log string) {
			appendFile(t, log, strings.Repeat("x", 8<<10)+"\n")
			grow(t, log, tail)
		}, 0, true, "longer than the line length limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cp := newCP(t, dir, session.FileOptions{})
			appendTexts(t, cp, "s1", "first prompt", "second")
			tc.plant(t, filepath.Join(dir, "s1.jsonl"))
			cp = newCP(t, dir, session.FileOptions{})
			session.SetMaxLine(cp, 4096)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			sums, err := cp.Summaries(t.Context())
			runtime.ReadMemStats(&after)
			if err != nil || len(sums) != 1 {
				t.Fatalf("Summaries = %v, %v", sums, err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
				t.Errorf("Summaries allocated %d bytes for a log with a %d-byte tail", got, tail)
			}
			s := sums[0]
			if tc.err != "" {
				storageError(t, s.Err, tc.err)
				return
			}
			if s.Err != nil || s.Records != tc.records || s.Torn != tc.torn {
				t.Errorf("summary: %d records, torn %v, %v; want %d, %v", s.Records, s.Torn, s.Err, tc.records, tc.torn)
			}
			if tc.records > 0 && s.Title != "first prompt" {
				t.Errorf("title %q", s.Title)
			}
		})
	}
}

// grow makes the file at p n bytes longer without writing them (a sparse
// tail of zeros where the file system allows).
func grow(t *testing.T, p string, n int64) {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, st.Size()+n); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// countingContext is a context whose Err is nil for its first n calls and
// context.Canceled after, counting them all.
type countingContext struct {
	context.Context
	n, calls int
}

func (c *countingContext) Err() error {
	c.calls++
	if c.calls > c.n {
		return context.Canceled
	}
	return nil
}

// TestSummariesStopInALongTail checks that reading a long tail backwards
// (60 windows of 1 MiB with no newline) looks at the context between
// windows: cancelled after its tenth look, Summaries stops there instead
// of reading the rest (a multi-gigabyte tail kept sessions list past an
// interrupt, round 133). Before, the context was looked at only around
// each log, three times in all.
func TestSummariesStopInALongTail(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	appendTexts(t, cp, "s1", "first prompt", "second")
	log := filepath.Join(dir, "s1.jsonl")
	if err := os.Truncate(log, 0); err != nil {
		t.Fatal(err)
	}
	grow(t, log, 60<<20)
	cp = newCP(t, dir, session.FileOptions{})
	session.SetMaxLine(cp, 4096)
	ctx := &countingContext{Context: t.Context(), n: 10}
	_, err := cp.Summaries(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Summaries = %v, want context.Canceled", err)
	}
	if ctx.calls < 10 || ctx.calls > 20 {
		t.Errorf("the context was looked at %d times, want it looked at between windows and the reading stopped", ctx.calls)
	}
}
