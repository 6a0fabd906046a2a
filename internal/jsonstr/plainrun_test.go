package jsonstr_test

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

// slowPlainRun is PlainRun a byte at a time.
func slowPlainRun(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return i
		}
	}
	return i
}

// TestPlainRunFindsTheFirstByteThatNeedsAttention checks the
// eight-bytes-at-a-time test of PlainRun and PlainRunBytes against a byte
// at a time: every byte value at every position of a run of plain bytes,
// every pair of neighbouring bytes (where one flag's borrow could spill
// into the next byte), from every start, and random runs.
func TestPlainRunFindsTheFirstByteThatNeedsAttention(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		for start := 0; start <= len(b); start++ {
			want := slowPlainRun(b, start)
			if got := jsonstr.PlainRunBytes(b, start); got != want {
				t.Fatalf("PlainRunBytes(%q, %d) = %d, want %d", b, start, got, want)
			}
			if got := jsonstr.PlainRun(string(b), start); got != want {
				t.Fatalf("PlainRun(%q, %d) = %d, want %d", b, start, got, want)
			}
		}
	}
	base := []byte("abcdefghijklmnopqrstuvwx")
	b := make([]byte, len(base))
	for p := range 17 {
		for v := range 256 {
			copy(b, base)
			b[p] = byte(v)
			check(b)
		}
	}
	special := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '#', '[', '\\', ']', 0x7f, 0x80, 0x9f, 0xa0, 0xc3, 0xff}
	for p := range 15 {
		for _, v := range special {
			for w := range 256 {
				copy(b, base)
				b[p], b[p+1] = v, byte(w)
				check(b)
				b[p], b[p+1] = byte(w), v
				check(b)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			if r.IntN(8) == 0 {
				b[i] = special[r.IntN(len(special))]
			} else {
				b[i] = byte(0x20 + r.IntN(0x60))
			}
		}
		check(b)
	}
}

// slowStringRun is StringRun a byte at a time.
func slowStringRun(b []byte, i int) (int, bool) {
	ascii := true
	for ; i < len(b); i++ {
		c := b[i]
		if c < 0x20 || c == '"' || c == '\\' {
			break
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return i, ascii
}

// TestStringRunFindsTheFirstByteThatEndsARun checks the sixteen-bytes-at-a-
// time test of StringRun against a byte at a time, as
// TestPlainRunFindsTheFirstByteThatNeedsAttention does for PlainRun, over
// runs long enough for both words of a sixteen-byte step, a lone word and
// the byte-at-a-time tail, with non-ASCII bytes (which it passes) before,
// at and after the byte that stops it.
func TestStringRunFindsTheFirstByteThatEndsARun(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		for start := 0; start <= len(b); start++ {
			wantEnd, wantASCII := slowStringRun(b, start)
			if end, ascii := jsonstr.StringRun(b, start); end != wantEnd || ascii != wantASCII {
				t.Fatalf("StringRun(%q, %d) = %d, %v, want %d, %v", b, start, end, ascii, wantEnd, wantASCII)
			}
		}
	}
	base := []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN") // 40 bytes: 16 + 16 + 8
	b := make([]byte, len(base))
	for p := range 33 {
		for v := range 256 {
			copy(b, base)
			b[p] = byte(v)
			check(b)
		}
	}
	special := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '#', '[', '\\', ']', 0x7f, 0x80, 0x9f, 0xa0, 0xa2, 0xdc, 0xc3, 0xff}
	for p := range 31 {
		for _, v := range special {
			for w := range 256 {
				copy(b, base)
				b[p], b[p+1] = v, byte(w)
				check(b)
				b[p], b[p+1] = byte(w), v
				check(b)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := make([]byte, r.IntN(60))
		for i := range b {
			switch r.IntN(12) {
			case 0:
				b[i] = special[r.IntN(len(special))]
			case 1:
				b[i] = byte(0x80 + r.IntN(0x80))
			default:
				b[i] = byte(0x20 + r.IntN(0x60))
			}
		}
		check(b)
	}
}
