// Package jsonstr writes Go strings as JSON strings byte for byte as
// JavaScript's JSON.stringify writes them, for files that must read the
// same whichever implementation wrote them.
package jsonstr

import (
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
		i = plainRun(s, i)
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

// plainRun returns the index of the first byte at or after i that is not
// printable ASCII other than '"' and '\\', or len(s), looking at eight bytes
// at a time.
func plainRun(s string, i int) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		q := x ^ (ones * '"')
		bs := x ^ (ones * '\\')
		// Each term flags at least the first byte that needs attention, and
		// only ever extra bytes after it, so the lowest flag is exact.
		if m := x&highs | (x-ones*0x20)&^x&highs | (q-ones)&^q&highs | (bs-ones)&^bs&highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return i
		}
	}
	return i
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
