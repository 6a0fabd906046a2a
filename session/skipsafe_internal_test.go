package session

import (
	"math/rand/v2"
	"testing"
)

// slowSkipSafe is skipSafe a byte at a time, from the table.
func slowSkipSafe(b []byte, i int) int {
	for i < len(b) && safe[b[i]] {
		i++
	}
	return i
}

// TestSkipSafeFindsTheFirstUnsafeByte checks skipSafe's eight-bytes-at-a-
// time test against the table: every byte value at every position of a
// run of safe bytes, every pair of such bytes (where one flag's borrow
// could spill into the next byte), from every start, and random runs.
func TestSkipSafeFindsTheFirstUnsafeByte(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		for start := 0; start <= len(b); start++ {
			if got, want := skipSafe(b, start), slowSkipSafe(b, start); got != want {
				t.Fatalf("skipSafe(%q, %d) = %d, want %d", b, start, got, want)
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
	// Two chosen bytes, one unsafe or borrowing (0x00, 0x1f, '"', '\\',
	// 0x80, 0xff) and one anything, next to each other in one word.
	special := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '#', '[', '\\', ']', 0x7f, 0x80, 0xc3, 0xff}
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
		n := r.IntN(40)
		b := make([]byte, n)
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
