package migrate_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
)

// naiveRecords counts the non-blank lines of b byte by byte: the rule the
// progress totals follow, as the session reader skips blank lines.
func naiveRecords(b []byte) int64 {
	var n int64
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.Trim(line, " \t\r")) > 0 {
			n++
		}
	}
	return n
}

func TestCountRecordsCountsNonBlankLines(t *testing.T) {
	long := strings.Repeat("x", 600<<10) // longer than the read buffer
	cases := []struct {
		name string
		data string
		want int64
	}{
		{"empty", "", 0},
		{"one line", "{}\n", 1},
		{"no final newline", "{}\n{}", 2},
		{"blank lines", "\n\n{}\n\n{}\n\n", 2},
		{"whitespace lines", " \t\r\n{}\r\n  \n\t{}\n", 2},
		{"only whitespace", " \n\t\n\r\n   ", 0},
		{"content after leading blanks", "   {}\n", 1},
		{"long lines", long + "\n" + long + "\n\n" + long, 3},
		{"long blank line", strings.Repeat(" ", 600<<10) + "\n{}\n", 1},
		{"long line ending in content", strings.Repeat(" ", 300<<10) + "x\n", 1},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
			n, size, err := migrate.CountRecords(path)
			if err != nil || n != tc.want || size != int64(len(tc.data)) {
				t.Errorf("CountRecords = %d lines, %d bytes, %v; want %d, %d", n, size, err, tc.want, len(tc.data))
			}
		})
	}
}

// TestCountRecordsAgreesWithTheNaiveCount compares the two on random text
// of lines, blank lines and whitespace, large enough to cross read buffers.
func TestCountRecordsAgreesWithTheNaiveCount(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte(" \t\r\n\n{}ab")
	dir := t.TempDir()
	for i := range 20 {
		data := make([]byte, r.IntN(700<<10))
		for j := range data {
			data[j] = alphabet[r.IntN(len(alphabet))]
		}
		path := filepath.Join(dir, "log")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		n, _, err := migrate.CountRecords(path)
		if want := naiveRecords(data); err != nil || n != want {
			t.Fatalf("case %d: CountRecords = %d, %v; want %d", i, n, err, want)
		}
	}
}
