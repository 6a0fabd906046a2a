// Package jsonstr writes Go strings as JSON strings byte for byte as
// JavaScript's JSON.stringify writes them, for files that must read the
// same whichever implementation wrote them.
package jsonstr

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Append appends s to dst as a quoted JSON string, exactly as
// JSON.stringify writes it, and returns the extended slice.
//
// Only '"', '\\' and control characters (below U+0020) are escaped: '\b',
// '\f', '\n', '\r' and '\t' in their short forms, the others as \u00XX
// with lowercase hex digits. Everything else is written as it is,
// including U+2028, U+2029, '<', '>' and '&', which encoding/json would
// escape. Each byte of s that is not part of valid UTF-8 is written as
// U+FFFD, as encoding/json decodes it.
func Append(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		i = PlainRun(s, i)
		if i >= len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i++
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// PlainRun returns the index of the first byte of s at or after i that
// needs attention in a JSON string (a control character, '"', '\\' or a
// byte outside ASCII), or len(s), looking at eight bytes at a time.
func PlainRun(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		// The compiler turns these eight loads into one.
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if m := attention(x); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s) && plain(s[i]); i++ {
	}
	return i
}

// PlainRunBytes is [PlainRun] for a byte slice. Strings make up most of a
// session log, so this loop is most of the work of reading one.
func PlainRunBytes(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := attention(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b) && plain(b[i]); i++ {
	}
	return i
}

// StringRun returns the index of the first '"', '\\' or control character
// (below U+0020) of b at or after i, or len(b), and whether the bytes it
// passed over are all ASCII. These are the only bytes that end a run of a
// JSON string's body or make it invalid: a reader that validates a string
// passes over every other byte, whether or not it is valid UTF-8, since
// invalid UTF-8 is read as U+FFFD rather than refused. It looks at sixteen
// bytes at a time.
func StringRun(b []byte, i int) (end int, ascii bool) {
	// rest is what is left to read: slicing it as it shrinks lets the
	// compiler drop the bounds checks of the loads. One word first, since
	// most strings of a log (keys, ids, types) are shorter than that.
	rest := b[i:]
	var high uint64
	if len(rest) >= 8 {
		x := binary.LittleEndian.Uint64(rest)
		if m := RunEnds(x); m != 0 {
			return i + bits.TrailingZeros64(m)/8, x&below(m)&highs == 0
		}
		high, rest = x, rest[8:]
	}
	for len(rest) >= 16 {
		x, y := binary.LittleEndian.Uint64(rest), binary.LittleEndian.Uint64(rest[8:])
		mx, my := RunEnds(x), RunEnds(y)
		if mx|my != 0 {
			k := 0
			if mx == 0 {
				high |= x
				k, x, mx = 8, y, my
			}
			high |= x & below(mx)
			return len(b) - len(rest) + k + bits.TrailingZeros64(mx)/8, high&highs == 0
		}
		high |= x | y
		rest = rest[16:]
	}
	if len(rest) >= 8 {
		x := binary.LittleEndian.Uint64(rest)
		if m := RunEnds(x); m != 0 {
			high |= x & below(m)
			return len(b) - len(rest) + bits.TrailingZeros64(m)/8, high&highs == 0
		}
		high |= x
		rest = rest[8:]
	}
	ascii = high&highs == 0
	for k, c := range rest {
		if c < 0x20 || c == '"' || c == '\\' {
			return len(b) - len(rest) + k, ascii
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return len(b), ascii
}

// below returns the mask of the bytes below the lowest flagged one of m, a
// non-zero mask of high bits.
func below(m uint64) uint64 { return (m&-m)>>7 - 1 }

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// RunEnds flags, in the high bit of each byte of the little-endian word x, the
// first '"', '\\' or control character and never a byte before it. Each
// term is the classic test for a zero byte, (v-1) &^ v, applied to x^'"',
// x^'\\' and (for bytes below 0x20) x-0x20; the three share the high bits
// of x, so one &^ x serves them all. A byte with its high bit set is never
// flagged by its own value, and since a borrow starts only at a flagged
// byte, no byte below the first flagged one is flagged.
func RunEnds(x uint64) uint64 {
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return ((x - ones*0x20) | (q - ones) | (bs - ones)) &^ x & highs
}

// attention flags, in the high bit of each byte of the little-endian word
// x, at least the first byte that needs attention and never one before it.
func attention(x uint64) uint64 {
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	// A byte's high bit ends up set if it is non-ASCII (x), a control
	// character (x-0x20 borrows), '"' (q-1 borrows) or '\\' (bs-1
	// borrows). Below the first such byte nothing borrows and every
	// difference stays under 0x80, so the lowest flag is exact; a borrow
	// only flags extra bytes above it.
	return (x | (x - ones*0x20) | (q - ones) | (bs - ones)) & highs
}

// plain reports whether c needs no attention in a JSON string.
func plain(c byte) bool {
	return c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\'
}

// AppendUnescaped appends the JSON text js, written by encoding/json, to
// dst with the escapes that encoding/json adds and JSON.stringify does not
// (\u2028, \u2029 and the \ufffd that stands for invalid UTF-8) turned
// back into the characters themselves, so that JSON text encoding/json
// writes reads as JSON.stringify would write it. Other escapes are copied
// unchanged.
func AppendUnescaped(dst, js []byte) []byte {
	for i := 0; i < len(js); i++ {
		c := js[i]
		if c != '\\' || i+1 >= len(js) {
			dst = append(dst, c)
			continue
		}
		if js[i+1] == 'u' && i+6 <= len(js) {
			var r rune
			switch string(js[i+2 : i+6]) {
			case "2028":
				r = '\u2028'
			case "2029":
				r = '\u2029'
			case "fffd":
				r = utf8.RuneError
			}
			if r != 0 {
				dst = utf8.AppendRune(dst, r)
				i += 5
				continue
			}
		}
		dst = append(dst, c, js[i+1]) // an escape pair: never a start of another
		i++
	}
	return dst
}
