package session

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

// reader is a strict single-pass JSON reader over one value held in memory.
// Reading a session log is dominated by JSON decoding, and encoding/json
// scans every nested value twice or more; this reader validates and decodes
// in one pass and can check a value without allocating, so records that a
// read does not return cost no garbage.
//
// It follows RFC 8259 and decodes strings exactly as encoding/json does
// (invalid UTF-8 and lone surrogates become U+FFFD), so values read here
// equal values read by the types' UnmarshalJSON methods. Object keys match
// case-sensitively; of duplicate keys the last wins.
//
// Methods record the first error in err and become no-ops after it.
type reader struct {
	b       []byte
	i       int
	err     error
	scratch []byte // unescaped key bytes
	depth   int
	plain   []byte // a decoded record, reused by the next (see checkLine)
	// lossy is set when a value read holds less than its input: a member
	// the typed value has no place for, or a lone UTF-16 surrogate
	// decoded as U+FFFD. Readers that must give the input back (see
	// StoredEvent.Raw) check it.
	lossy bool
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 10000

var errSyntax = errors.New("invalid JSON")

func newReader(b []byte) *reader { return &reader{b: b} }

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the first byte of the next value, or 0 at the end.
func (r *reader) peek() byte {
	r.ws()
	if r.err != nil || r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

// end checks that nothing but whitespace follows the value just read.
func (r *reader) end() error {
	r.ws()
	if r.err == nil && r.i != len(r.b) {
		r.fail(errSyntax)
	}
	return r.err
}

// isNull consumes a null literal if one is next.
func (r *reader) isNull() bool {
	if r.peek() != 'n' {
		return false
	}
	r.literal("null")
	return r.err == nil
}

func (r *reader) literal(lit string) {
	if len(r.b)-r.i < len(lit) || string(r.b[r.i:r.i+len(lit)]) != lit {
		r.fail(errSyntax)
		return
	}
	r.i += len(lit)
}

// beginObject consumes the '{' of an object. Then call nextKey with
// first=true, and with first=false while it returns a key, reading each
// member's value in between.
func (r *reader) beginObject() bool {
	if r.peek() != '{' {
		r.fail(errSyntax)
		return false
	}
	r.i++
	r.depth++
	if r.depth > maxDepth {
		r.fail(errSyntax)
		return false
	}
	return true
}

// nextKey returns the next member's key, having consumed the ':' after it,
// or ok=false at the closing '}'.
func (r *reader) nextKey(first bool) (key []byte, ok bool) {
	if r.err != nil {
		return nil, false
	}
	c := r.peek()
	if c == '}' { // closes the object; a '}' right after ',' fails below
		r.i++
		r.depth--
		return nil, false
	}
	if !first {
		if c != ',' {
			r.fail(errSyntax)
			return nil, false
		}
		r.i++
		c = r.peek()
	}
	if c != '"' {
		r.fail(errSyntax)
		return nil, false
	}
	key = r.strBytes()
	if r.peek() != ':' {
		r.fail(errSyntax)
		return nil, false
	}
	r.i++
	return key, r.err == nil
}

// beginArray and nextElem iterate over an array like beginObject/nextKey.
func (r *reader) beginArray() bool {
	if r.peek() != '[' {
		r.fail(errSyntax)
		return false
	}
	r.i++
	r.depth++
	if r.depth > maxDepth {
		r.fail(errSyntax)
		return false
	}
	return true
}

func (r *reader) nextElem(first bool) bool {
	if r.err != nil {
		return false
	}
	c := r.peek()
	if c == ']' && first {
		r.i++
		r.depth--
		return false
	}
	if !first {
		switch c {
		case ']':
			r.i++
			r.depth--
			return false
		case ',':
			r.i++
		default:
			r.fail(errSyntax)
			return false
		}
	}
	if r.peek() == 0 {
		r.fail(errSyntax)
		return false
	}
	return true
}

// scanString consumes a string. With decode, it returns its value: a
// subslice of the input when the string has no escapes and is valid UTF-8
// (plain), else r.scratch, valid until the next call. Without decode, it
// only validates and returns the bytes between the quotes. Escapes are
// decoded and invalid UTF-8 and lone surrogates become U+FFFD, exactly as
// encoding/json does.
func (r *reader) scanString(decode bool) (val []byte, plain bool) {
	if r.peek() != '"' {
		r.fail(errSyntax)
		return nil, false
	}
	b := r.b
	start := r.i + 1
	i := start
	for {
		i = jsonstr.PlainRunBytes(b, i)
		if i >= len(b) {
			r.fail(errSyntax)
			return nil, false
		}
		c := b[i]
		if c == '"' {
			r.i = i + 1
			return b[start:i], true
		}
		if c >= utf8.RuneSelf {
			if rn, size := utf8.DecodeRune(b[i:]); rn != utf8.RuneError || size != 1 {
				i += size
				continue
			}
		}
		if c < 0x20 {
			r.fail(errSyntax)
			return nil, false
		}
		break // an escape or invalid UTF-8: the value differs from the input
	}
	var out []byte
	if decode {
		out = append(r.scratch[:0], b[start:i]...)
	}
	for {
		j := jsonstr.PlainRunBytes(b, i)
		if decode {
			out = append(out, b[i:j]...)
		}
		i = j
		if i >= len(b) {
			r.fail(errSyntax)
			return nil, false
		}
		switch c := b[i]; {
		case c == '"':
			r.i = i + 1
			if !decode {
				return b[start:i], false
			}
			r.scratch = out
			return out, false
		case c == '\\':
			if i+1 >= len(b) {
				r.fail(errSyntax)
				return nil, false
			}
			var e byte
			switch b[i+1] {
			case '"', '\\', '/':
				e = b[i+1]
			case 'b':
				e = '\b'
			case 'f':
				e = '\f'
			case 'n':
				e = '\n'
			case 'r':
				e = '\r'
			case 't':
				e = '\t'
			case 'u':
				if len(b)-i < 6 || !isHex4(b[i+2:i+6]) {
					r.fail(errSyntax)
					return nil, false
				}
				rr := hex4(b[i+2 : i+6])
				i += 6
				if utf16.IsSurrogate(rr) {
					if len(b)-i >= 6 && b[i] == '\\' && b[i+1] == 'u' && isHex4(b[i+2:i+6]) {
						if dec := utf16.DecodeRune(rr, hex4(b[i+2:i+6])); dec != utf8.RuneError {
							rr = dec
							i += 6
						} else {
							rr = utf8.RuneError
						}
					} else {
						rr = utf8.RuneError
					}
					if rr == utf8.RuneError && decode {
						r.lossy = true
					}
				}
				if decode {
					out = utf8.AppendRune(out, rr)
				}
				continue
			default:
				r.fail(errSyntax)
				return nil, false
			}
			if decode {
				out = append(out, e)
			}
			i += 2
		case c < 0x20:
			r.fail(errSyntax)
			return nil, false
		default: // non-ASCII
			rn, size := utf8.DecodeRune(b[i:])
			if decode {
				if rn == utf8.RuneError && size == 1 {
					out = append(out, "\ufffd"...)
				} else {
					out = append(out, b[i:i+size]...)
				}
			}
			i += size
		}
	}
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// str consumes a string and returns its value.
func (r *reader) str() string {
	val, _ := r.scanString(true)
	if r.err != nil {
		return ""
	}
	return string(val)
}

// strBytes consumes a string and returns its value as bytes that stay valid
// until the next call; it allocates nothing.
func (r *reader) strBytes() []byte {
	val, _ := r.scanString(true)
	return val
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// number consumes a number and returns its text.
func (r *reader) number() []byte {
	r.ws()
	b, start, i := r.b, r.i, r.i
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
		r.fail(errSyntax)
		return nil
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			r.fail(errSyntax)
			return nil
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
			r.fail(errSyntax)
			return nil
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	r.i = i
	return b[start:i]
}

// integer reads a number and returns it if its value is a whole number
// within ±2^53 (so that 3, 3.0 and 3e0 are all 3, as in JavaScript).
func (r *reader) integer() (int64, bool) {
	text := r.number()
	if r.err != nil {
		return 0, false
	}
	if n, ok := smallInt(text); ok {
		return n, true
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// skip consumes any value, validating it.
func (r *reader) skip() {
	switch c := r.peek(); {
	case c == '{':
		if !r.beginObject() {
			return
		}
		for first := true; ; first = false {
			if _, ok := r.nextKey(first); !ok {
				return
			}
			r.skip()
		}
	case c == '[':
		if !r.beginArray() {
			return
		}
		for first := true; r.nextElem(first); first = false {
			r.skip()
		}
	case c == '"':
		r.scanString(false)
	case c == 't':
		r.literal("true")
	case c == 'f':
		r.literal("false")
	case c == 'n':
		r.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		r.number()
	default:
		r.fail(errSyntax)
	}
}

// raw consumes any value and returns a copy of its bytes.
func (r *reader) raw() json.RawMessage {
	r.ws()
	start := r.i
	r.skip()
	if r.err != nil {
		return nil
	}
	return append(json.RawMessage(nil), r.b[start:r.i]...)
}

// smallInt parses an optionally negative run of at most 15 digits, the
// common case, without allocating.
func smallInt(text []byte) (int64, bool) {
	neg := len(text) > 0 && text[0] == '-'
	if neg {
		text = text[1:]
	}
	if len(text) == 0 || len(text) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range text {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
