package msgjson

import (
	"encoding/binary"
	"math/bits"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

// The fast scan: what Skip and SkimType do for a value they accept, in one
// loop over local variables rather than calls that keep the position in
// the Reader. It only ever accepts what the Reader's recursive path
// accepts, ending at the same offset; for anything else (a syntax error,
// nesting deeper than fastDepth, an object key with an escape, whose
// decoding the Reader records in Lossy and Scratch) it gives up, and the
// recursive path reads the value from its start and gives the verdict. A
// value is read twice only when it is refused or unusual.

// fastDepth is the deepest nesting the fast scan follows, the width of its
// stack of container kinds.
const fastDepth = 64

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// spaceEnd returns the offset of the first byte of b at or after i that is
// not white space, or len(b). Values in a log rarely have white space
// around them, so the first test usually ends it.
func spaceEnd(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && isSpace(b[i]) {
		i++
	}
	return i
}

// shortEnd returns the offset after the closing quote of the string whose
// body starts at b[i], if the string ends within the eight bytes from i
// with no escape, or else -1. Most strings of a log (keys, types, ids) do:
// it reads them with one word, and is small enough to inline.
func shortEnd(b []byte, i int) int {
	if i < 0 || len(b)-i < 8 {
		return -1
	}
	x := binary.LittleEndian.Uint64(b[i:])
	// The byte that ends the run, taken from x rather than b; if none
	// does, n is 64 and x>>n is 0.
	n := bits.TrailingZeros64(jsonstr.RunEnds(x)) &^ 7
	if byte(x>>n) != '"' {
		return -1
	}
	return i + n/8 + 1
}

// stringEnd returns the offset after the closing quote of the string whose
// body starts at b[i], if it is valid.
func stringEnd(b []byte, i int) (int, bool) {
	if end := shortEnd(b, i); end >= 0 {
		return end, true
	}
	return skipString(b, i)
}

// skipValue returns the offset just after the JSON value at b[i:], after
// optional white space, and true, if the value is valid and nests at most
// room levels (and fastDepth); see the fast scan above for false.
func skipValue(b []byte, i, room int) (int, bool) {
	var (
		stack uint64 // the open containers, innermost in bit 0: 1 for an object, 0 for an array
		depth int
		ok    bool
	)
	room = min(room, fastDepth)
value:
	if i = spaceEnd(b, i); i >= len(b) {
		return 0, false
	}
	switch c := b[i]; c {
	case '{', '[':
		if depth >= room {
			return 0, false
		}
		depth++
		stack <<= 1
		if i = spaceEnd(b, i+1); i >= len(b) {
			return 0, false
		}
		if c == '[' {
			if b[i] == ']' {
				i++
				goto closed
			}
			goto value
		}
		stack |= 1
		if b[i] == '}' {
			i++
			goto closed
		}
		goto key
	case '"':
		if end := shortEnd(b, i+1); end >= 0 {
			i = end
		} else if i, ok = skipString(b, i+1); !ok {
			return 0, false
		}
	case 't':
		if i, ok = skipLiteral(b, i, "true"); !ok {
			return 0, false
		}
	case 'f':
		if i, ok = skipLiteral(b, i, "false"); !ok {
			return 0, false
		}
	case 'n':
		if i, ok = skipLiteral(b, i, "null"); !ok {
			return 0, false
		}
	default:
		if i = numberEnd(b, i); i < 0 {
			return 0, false
		}
	}
next: // after a value
	if depth == 0 {
		return i, true
	}
	if i = spaceEnd(b, i); i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case ',':
		i++
		if stack&1 == 0 {
			goto value
		}
		goto key
	case '}':
		if stack&1 == 0 {
			return 0, false
		}
	case ']':
		if stack&1 != 0 {
			return 0, false
		}
	default:
		return 0, false
	}
	i++
closed:
	depth--
	stack >>= 1
	goto next
key:
	// A short key and its ':' with nothing between, inline; any other
	// through skipKey.
	if i = spaceEnd(b, i); i < len(b) && b[i] == '"' {
		if end := shortEnd(b, i+1); end >= 0 && end < len(b) && b[end] == ':' {
			i = end + 1
			goto value
		}
	}
	if i, ok = skipKey(b, i); !ok {
		return 0, false
	}
	goto value
}

// skipKey returns the offset after the ':' that follows the object key at
// b[i:] (after optional white space), if the key has no escape.
func skipKey(b []byte, i int) (int, bool) {
	if i = spaceEnd(b, i); i >= len(b) || b[i] != '"' {
		return 0, false
	}
	end := shortEnd(b, i+1)
	if end < 0 {
		if end, _ = jsonstr.StringRun(b, i+1); end >= len(b) || b[end] != '"' {
			return 0, false // an escape: see the fast scan
		}
		end++
	}
	if i = spaceEnd(b, end); i >= len(b) || b[i] != ':' {
		return 0, false
	}
	return i + 1, true
}

// skipString returns the offset after the closing quote of the string
// whose body starts at b[i], if it is valid: no control character, and
// only JSON's escapes. Invalid UTF-8 is valid here, as in ScanString,
// which reads it as U+FFFD. It looks for the end of each run a word at a
// time in its own loop rather than calling jsonstr.StringRun, as text
// such as code in a tool's output has an escape every few bytes.
func skipString(b []byte, i int) (int, bool) {
	for {
		if i >= 0 && len(b)-i >= 8 {
			m := jsonstr.RunEnds(binary.LittleEndian.Uint64(b[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) / 8
		} else {
			for i < len(b) && b[i] >= 0x20 && b[i] != '"' && b[i] != '\\' {
				i++
			}
			if i >= len(b) {
				return 0, false
			}
		}
		switch b[i] {
		case '"':
			return i + 1, true
		case '\\':
			if i+1 >= len(b) {
				return 0, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(b)-i < 6 || !isHex4(b[i+2:i+6]) {
					return 0, false
				}
				i += 6
			default:
				return 0, false
			}
		default: // a control character
			return 0, false
		}
	}
}

// skipLiteral returns the offset after lit, if b[i:] starts with it.
func skipLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// numberEnd returns the offset after the JSON number at b[i], or -1 if
// there is none.
func numberEnd(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return -1
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return -1
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	return i
}

// skimTyped is SkimType's fast scan: for the object at b[i:] (after
// optional white space) whose members nest at most room levels, it
// returns the offset after it and the offsets of the last "type" member's
// string (its quotes included), and true, if the object is valid and
// every "type" member, of which there is at least one, is a string.
func skimTyped(b []byte, i, room int) (end, typStart, typEnd int, ok bool) {
	if i = spaceEnd(b, i); i >= len(b) || b[i] != '{' || room < 1 {
		return 0, 0, 0, false
	}
	if i = spaceEnd(b, i+1); i < len(b) && b[i] == '}' {
		return 0, 0, 0, false // no "type"
	}
	for {
		k := spaceEnd(b, i)
		if i, ok = skipKey(b, k); !ok {
			return 0, 0, 0, false
		}
		// A key with no escape is its own value: its bytes from k+1 to
		// the closing quote.
		if i-k >= 7 && string(b[k:k+6]) == `"type"` {
			if i = spaceEnd(b, i); i >= len(b) || b[i] != '"' {
				return 0, 0, 0, false
			}
			typStart = i
			if i, ok = stringEnd(b, i+1); !ok {
				return 0, 0, 0, false
			}
			typEnd = i
		} else if i, ok = skipValue(b, i, room-1); !ok {
			return 0, 0, 0, false
		}
		if i = spaceEnd(b, i); i >= len(b) {
			return 0, 0, 0, false
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			if typEnd == 0 {
				return 0, 0, 0, false
			}
			return i + 1, typStart, typEnd, true
		default:
			return 0, 0, 0, false
		}
	}
}

// SkipTyped reports whether the object at b[i:] (after optional white
// space), read at nesting depth depth, is one [SkimType] accepts, and if
// so returns the offset just after it. False says only that SkimType must
// read the object to give the verdict. It allocates nothing.
func SkipTyped(b []byte, i, depth int) (end int, ok bool) {
	end, _, _, ok = skimTyped(b, i, maxDepth-depth)
	return end, ok
}
