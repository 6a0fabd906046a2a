package session_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestCheckUTF8FindsInvalidPlaintextRecords(t *testing.T) {
	rec := func(seq int, text string) string {
		parent := "null"
		if seq > 1 {
			parent = strconv.Itoa(seq - 1)
		}
		return `{"seq":` + strconv.Itoa(seq) + `,"sessionId":"s","parentSeq":` + parent +
			`,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"` + text + `"}}}` + "\n"
	}
	// A character of three bytes placed across the reader's 64 KiB chunks.
	long := strings.Repeat("a", 64<<10-100) + strings.Repeat("€", 100)
	tests := []struct {
		name string
		log  string
		want []int64 // records reported
	}{
		{"valid", rec(1, "héllo") + rec(2, "😀"), nil},
		{"invalid byte", rec(1, "ok") + rec(2, "bad \xff byte") + rec(3, "ok"), []int64{2}},
		{"lone surrogate in UTF-8 form", rec(1, "\xed\xa0\x80"), []int64{1}},
		{"blank lines do not count", rec(1, "ok") + "\n  \n" + rec(2, "\xc3"), []int64{2}},
		{"long valid record", rec(1, long) + rec(2, long), nil},
		{"long invalid record", rec(1, long+"\xff") + rec(2, "ok"), []int64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "s.jsonl"), []byte(tt.log), 0o600); err != nil {
				t.Fatal(err)
			}
			cp := newCP(t, dir, session.FileOptions{})
			probs, err := cp.CheckUTF8(t.Context(), "s")
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, p := range probs {
				n, _ := strconv.ParseInt(p.Record, 10, 64)
				got = append(got, n)
				var se *storage.Error
				if p.Kind != storage.ProblemUTF8 || !errors.As(p.Err, &se) || bytes.Contains([]byte(p.Err.Error()), []byte("bad")) {
					t.Errorf("problem %+v", p)
				}
			}
			if len(got) != len(tt.want) || len(got) > 0 && got[0] != tt.want[0] {
				t.Errorf("records %v, want %v", got, tt.want)
			}
			// Reads stay lenient.
			if _, err := cp.Read(t.Context(), "s", 0); err != nil {
				t.Errorf("Read: %v", err)
			}
		})
	}
}
