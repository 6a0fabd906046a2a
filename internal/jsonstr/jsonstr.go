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

// attention flags, in the high bit of each byte of the little-endian word
// x, at least the first byte that needs attention and never one before it.
func attention(x uint64) uint64 {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
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
