package jsonl

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestNextSplitsLinesAndSetsTheTornTailAside(t *testing.T) {
	long := strings.Repeat("x", bufSize+10) // spans the read buffer
	tests := []struct {
		name   string
		in     string
		max    int
		want   []string // "!" marks a line too long
		torn   bool
		tornAt int64
	}{
		{"complete", "a\nbb\n", 10, []string{"a", "bb"}, false, 0},
		{"torn tail", "a\nbb", 10, []string{"a"}, true, 2},
		{"empty", "", 10, nil, false, 0},
		{"blank lines", "\n\n", 10, []string{"", ""}, false, 0},
		{"too long", "abcdef\nok\n", 3, []string{"!", "ok"}, false, 0},
		{"long line kept", long + "\nz\n", len(long), []string{long, "z"}, false, 0},
		{"long line too long", long + "\nz\n", bufSize, []string{"!", "z"}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lr Reader
			lr.Reset(strings.NewReader(tt.in), tt.max)
			var got []string
			var off int64
			for {
				l, err := lr.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if l.Start != off || l.End <= l.Start {
					t.Fatalf("line at %d..%d, want it to start at %d", l.Start, l.End, off)
				}
				off = l.End
				if l.TooLong {
					got = append(got, "!")
				} else {
					got = append(got, string(l.Text))
				}
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("lines = %q, want %q", got, tt.want)
			}
			if lr.Torn != tt.torn || lr.TornAt != tt.tornAt {
				t.Errorf("torn = %v at %d, want %v at %d", lr.Torn, lr.TornAt, tt.torn, tt.tornAt)
			}
			lr.Release()
		})
	}
}

func TestLastLine(t *testing.T) {
	tests := []struct {
		in, want string
		known    bool
	}{
		{"a\nb", "b", true},
		{"a\nb\n  \n", "b", true},
		{"only", "only", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, known := LastLine([]byte(tt.in))
		if string(got) != tt.want || known != tt.known {
			t.Errorf("LastLine(%q) = %q, %v; want %q, %v", tt.in, got, known, tt.want, tt.known)
		}
	}
	if got := TrimSpace([]byte(" \t{}\r\n")); string(got) != "{}" {
		t.Errorf("TrimSpace = %q", got)
	}
}
