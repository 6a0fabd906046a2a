package jsonl

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"testing"
)

// forward returns the complete lines of b, their starts, and the number
// of non-blank ones, with the forward Reader.
func forward(t *testing.T, b []byte) (lines [][]byte, starts []int64, nonBlank int64, end int64) {
	var lr Reader
	lr.Reset(bytes.NewReader(b), len(b)+1)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, slices.Clone(l.Text))
		starts = append(starts, l.Start)
		if len(TrimSpace(l.Text)) > 0 {
			nonBlank++
		}
	}
	end = lr.Offset()
	if lr.Torn {
		end = lr.TornAt
	}
	return lines, starts, nonBlank, end
}

// checkBack checks BackReader, End and CountLines against the forward
// Reader on b, with read blocks of block bytes.
func checkBack(t *testing.T, b []byte, block int) {
	lines, starts, nonBlank, end := forward(t, b)
	r := bytes.NewReader(b)
	gotEnd, err := End(r, int64(len(b)))
	if err != nil || gotEnd != end {
		t.Fatalf("End = %d, %v; want %d", gotEnd, err, end)
	}
	if n, err := CountLines(context.Background(), r, end); err != nil || n != nonBlank {
		t.Fatalf("CountLines = %d, %v; want %d", n, err, nonBlank)
	}
	br := NewBackReader(r, end, len(b)+1)
	br.block = block
	for i := len(lines) - 1; i >= 0; i-- {
		text, start, err := br.Prev()
		if err != nil || !bytes.Equal(text, lines[i]) || start != starts[i] {
			t.Fatalf("line %d: Prev = %q at %d, %v; want %q at %d", i, text, start, err, lines[i], starts[i])
		}
	}
	if _, _, err := br.Prev(); err != io.EOF {
		t.Fatalf("Prev after the first line: %v, want EOF", err)
	}
}

func TestBackReader(t *testing.T) {
	tests := []string{
		"",
		"\n",
		"a\n",
		"a\nbb\nccc\n",
		"a\n\n  \nb\n",
		"a\nb\ntorn",
		"only torn",
		"\n\nlong line " + string(bytes.Repeat([]byte("x"), 300)) + "\nz\n",
	}
	for _, s := range tests {
		for _, block := range []int{1, 2, 7, 64 << 10} {
			checkBack(t, []byte(s), block)
		}
	}
}

func TestBackReaderTooLong(t *testing.T) {
	b := []byte("short\n" + string(bytes.Repeat([]byte("x"), 100)) + "\nlast\n")
	br := NewBackReader(bytes.NewReader(b), int64(len(b)), 50)
	br.block = 8
	if text, _, err := br.Prev(); err != nil || string(text) != "last" {
		t.Fatalf("Prev = %q, %v", text, err)
	}
	if _, _, err := br.Prev(); !errors.Is(err, ErrTooLong) {
		t.Fatalf("Prev of a 100-byte line with limit 50: %v, want ErrTooLong", err)
	}
}

func FuzzBackReader(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc\ntorn"), uint8(3))
	f.Add([]byte("{\"seq\":1}\n \n{\"seq\":2}\n"), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, block uint8) {
		checkBack(t, b, int(block)+1)
	})
}
