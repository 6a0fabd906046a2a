// Package msgjson reads JSON in one strict pass, and holds the decoding
// rules of model's messages and content blocks, which the model package
// and the session log reader both use.
//
// A session log is read with [Reader] rather than encoding/json because
// reading it is dominated by JSON decoding: Reader validates and decodes
// in one pass and can check a value without allocating. [ReadMessage] and
// [ReadBlock] decode a message and a block by the rules documented on
// model.Message and model.Block; model's UnmarshalJSON methods call them,
// so there is one definition of those rules.
package msgjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

// A Reader is a strict single-pass JSON reader over one value held in
// memory. encoding/json scans every nested value twice or more; a Reader
// validates and decodes in one pass and can check a value without
// allocating, so values a caller does not keep cost no garbage.
//
// It follows RFC 8259 and decodes strings exactly as encoding/json does
// (invalid UTF-8 and lone surrogates become U+FFFD). Object keys match
// case-sensitively; of duplicate keys the last wins.
//
// Methods record the first error in Err and become no-ops after it.
type Reader struct {
	// Buf is the input.
	Buf []byte
	// Pos is the offset of the next byte to read.
	Pos int
	// Err is the first error; methods do nothing once it is set.
	Err error
	// Scratch holds unescaped string bytes; it is kept across values so
	// that a reused Reader allocates nothing for them.
	Scratch []byte
	// Depth is the nesting depth at Pos.
	Depth int
	// Lossy is set when a value read holds less than its input: a member
	// the typed value has no place for, or a lone UTF-16 surrogate
	// decoded as U+FFFD. Readers that must give the input back (such as
	// a session's StoredEvent.Raw) check it.
	Lossy bool
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 10000

// ErrSyntax is the error of input that is not JSON.
var ErrSyntax = errors.New("invalid JSON")

// NewReader returns a Reader over b.
func NewReader(b []byte) *Reader { return &Reader{Buf: b} }

// Valid reports whether b is one JSON value, as json.Valid does.
func Valid(b []byte) bool {
	r := Reader{Buf: b}
	r.Skip()
	return r.End() == nil
}

// Reset makes r read b from its start, keeping its scratch buffer.
func (r *Reader) Reset(b []byte) { *r = Reader{Buf: b, Scratch: r.Scratch[:0]} }

// Fail records err unless an error is recorded already.
func (r *Reader) Fail(err error) {
	if r.Err == nil {
		r.Err = err
	}
}

// SkipSpace consumes white space.
func (r *Reader) SkipSpace() {
	for r.Pos < len(r.Buf) {
		switch r.Buf[r.Pos] {
		case ' ', '\t', '\n', '\r':
			r.Pos++
		default:
			return
		}
	}
}

// Peek returns the first byte of the next value, or 0 at the end.
func (r *Reader) Peek() byte {
	if r.Err == nil && r.Pos < len(r.Buf) {
		if c := r.Buf[r.Pos]; c > ' ' {
			return c
		}
	}
	r.SkipSpace()
	if r.Err != nil || r.Pos >= len(r.Buf) {
		return 0
	}
	return r.Buf[r.Pos]
}

// End checks that nothing but whitespace follows the value just read.
func (r *Reader) End() error {
	r.SkipSpace()
	if r.Err == nil && r.Pos != len(r.Buf) {
		r.Fail(ErrSyntax)
	}
	return r.Err
}

// IsNull consumes a null literal if one is next.
func (r *Reader) IsNull() bool {
	if r.Peek() != 'n' {
		return false
	}
	r.Literal("null")
	return r.Err == nil
}

// Literal consumes lit (true, false or null), failing if it is not next.
func (r *Reader) Literal(lit string) {
	if len(r.Buf)-r.Pos < len(lit) || string(r.Buf[r.Pos:r.Pos+len(lit)]) != lit {
		r.Fail(ErrSyntax)
		return
	}
	r.Pos += len(lit)
}

// BeginObject consumes the '{' of an object. Then call NextKey with
// first=true, and with first=false while it returns a key, reading each
// member's value in between.
func (r *Reader) BeginObject() bool {
	if r.Peek() != '{' {
		r.Fail(ErrSyntax)
		return false
	}
	r.Pos++
	r.Depth++
	if r.Depth > maxDepth {
		r.Fail(ErrSyntax)
		return false
	}
	return true
}

// NextKey returns the next member's key, having consumed the ':' after it,
// or ok=false at the closing '}'.
func (r *Reader) NextKey(first bool) (key []byte, ok bool) {
	if r.Err != nil {
		return nil, false
	}
	c := r.Peek()
	if c == '}' { // closes the object; a '}' right after ',' fails below
		r.Pos++
		r.Depth--
		return nil, false
	}
	if !first {
		if c != ',' {
			r.Fail(ErrSyntax)
			return nil, false
		}
		r.Pos++
		c = r.Peek()
	}
	if c != '"' {
		r.Fail(ErrSyntax)
		return nil, false
	}
	key = r.StrBytes()
	if r.Peek() != ':' {
		r.Fail(ErrSyntax)
		return nil, false
	}
	r.Pos++
	return key, r.Err == nil
}

// BeginArray consumes the '[' of an array; then call NextElem with
// first=true, and with first=false while it returns true, reading each
// element in between, as with BeginObject and NextKey.
func (r *Reader) BeginArray() bool {
	if r.Peek() != '[' {
		r.Fail(ErrSyntax)
		return false
	}
	r.Pos++
	r.Depth++
	if r.Depth > maxDepth {
		r.Fail(ErrSyntax)
		return false
	}
	return true
}

// NextElem reports whether another element follows, having consumed the
// ',' before it, or consumes the closing ']'.
func (r *Reader) NextElem(first bool) bool {
	if r.Err != nil {
		return false
	}
	c := r.Peek()
	if c == ']' && first {
		r.Pos++
		r.Depth--
		return false
	}
	if !first {
		switch c {
		case ']':
			r.Pos++
			r.Depth--
			return false
		case ',':
			r.Pos++
		default:
			r.Fail(ErrSyntax)
			return false
		}
	}
	if r.Peek() == 0 {
		r.Fail(ErrSyntax)
		return false
	}
	return true
}

// ScanString consumes a string. With decode, it returns its value: a
// subslice of the input when the string has no escapes and is valid UTF-8
// (plain), else r.Scratch, valid until the next call. Without decode, it
// only validates and returns the bytes between the quotes. Escapes are
// decoded and invalid UTF-8 and lone surrogates become U+FFFD, exactly as
// encoding/json does.
func (r *Reader) ScanString(decode bool) (val []byte, plain bool) {
	if r.Peek() != '"' {
		r.Fail(ErrSyntax)
		return nil, false
	}
	b := r.Buf
	start := r.Pos + 1
	// Most strings hold neither an escape nor invalid UTF-8: find the end
	// first, then check the UTF-8 of a string that is not all ASCII.
	i, ascii := jsonstr.StringRun(b, start)
	if i < len(b) && b[i] == '"' && (ascii || utf8.Valid(b[start:i])) {
		r.Pos = i + 1
		return b[start:i], true
	}
	if !ascii {
		i = start // b[start:i] may hold invalid UTF-8: read it again
	}
	for {
		i = jsonstr.PlainRunBytes(b, i)
		if i >= len(b) {
			r.Fail(ErrSyntax)
			return nil, false
		}
		c := b[i]
		if c == '"' {
			r.Pos = i + 1
			return b[start:i], true
		}
		if c >= utf8.RuneSelf {
			if rn, size := utf8.DecodeRune(b[i:]); rn != utf8.RuneError || size != 1 {
				i += size
				continue
			}
		}
		if c < 0x20 {
			r.Fail(ErrSyntax)
			return nil, false
		}
		break // an escape or invalid UTF-8: the value differs from the input
	}
	var out []byte
	if decode {
		out = append(r.Scratch[:0], b[start:i]...)
	}
	for {
		j := jsonstr.PlainRunBytes(b, i)
		if decode {
			out = append(out, b[i:j]...)
		}
		i = j
		if i >= len(b) {
			r.Fail(ErrSyntax)
			return nil, false
		}
		switch c := b[i]; {
		case c == '"':
			r.Pos = i + 1
			if !decode {
				return b[start:i], false
			}
			r.Scratch = out
			return out, false
		case c == '\\':
			if i+1 >= len(b) {
				r.Fail(ErrSyntax)
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
					r.Fail(ErrSyntax)
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
						r.Lossy = true
					}
				}
				if decode {
					out = utf8.AppendRune(out, rr)
				}
				continue
			default:
				r.Fail(ErrSyntax)
				return nil, false
			}
			if decode {
				out = append(out, e)
			}
			i += 2
		case c < 0x20:
			r.Fail(ErrSyntax)
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

// Str consumes a string and returns its value.
func (r *Reader) Str() string {
	val, _ := r.ScanString(true)
	if r.Err != nil {
		return ""
	}
	return string(val)
}

// StrBytes consumes a string and returns its value as bytes that stay valid
// until the next call; it allocates nothing.
func (r *Reader) StrBytes() []byte {
	val, _ := r.ScanString(true)
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

// Number consumes a number and returns its text.
func (r *Reader) Number() []byte {
	r.SkipSpace()
	end := numberEnd(r.Buf, r.Pos)
	if end < 0 {
		r.Fail(ErrSyntax)
		return nil
	}
	start := r.Pos
	r.Pos = end
	return r.Buf[start:end]
}

// Integer reads a number and returns it if its value is a whole number
// within ±2^53 (so that 3, 3.0 and 3e0 are all 3, as in JavaScript).
func (r *Reader) Integer() (int64, bool) {
	text := r.Number()
	if r.Err != nil {
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

// Skip consumes any value, validating it.
func (r *Reader) Skip() {
	if r.Err == nil {
		if end, ok := skipValue(r.Buf, r.Pos, maxDepth-r.Depth); ok {
			r.Pos = end
			return
		}
	}
	r.skip()
}

// skip is Skip one call at a time, for any input: it gives the verdict on
// what the fast scan gives up on.
func (r *Reader) skip() {
	switch c := r.Peek(); {
	case c == '{':
		if !r.BeginObject() {
			return
		}
		for first := true; ; first = false {
			if _, ok := r.NextKey(first); !ok {
				return
			}
			r.skip()
		}
	case c == '[':
		if !r.BeginArray() {
			return
		}
		for first := true; r.NextElem(first); first = false {
			r.skip()
		}
	case c == '"':
		r.ScanString(false)
	case c == 't':
		r.Literal("true")
	case c == 'f':
		r.Literal("false")
	case c == 'n':
		r.Literal("null")
	case c == '-' || '0' <= c && c <= '9':
		r.Number()
	default:
		r.Fail(ErrSyntax)
	}
}

// Raw consumes any value and returns a copy of its bytes.
func (r *Reader) Raw() json.RawMessage {
	r.SkipSpace()
	start := r.Pos
	r.Skip()
	if r.Err != nil {
		return nil
	}
	return append(json.RawMessage(nil), r.Buf[start:r.Pos]...)
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

// FieldError reports a member with the wrong JSON type. It is a value so
// that passing one costs nothing until it is needed.
type FieldError struct {
	// In names the value holding the member, such as "text block".
	In string
	// Field is the member's key.
	Field string
	// Want names the JSON type the member must have, such as "a string".
	Want string
}

// Error returns `<in> "<field>" must be <want>`.
func (e FieldError) Error() string {
	return fmt.Sprintf("%s %q must be %s", e.In, e.Field, e.Want)
}

// SkipUnknown consumes the value of a member that the value being read
// does not hold, noting that the value read is not the whole input (see
// Reader.Lossy).
func (r *Reader) SkipUnknown() {
	r.Lossy = true
	r.Skip()
}

// FailShape records a shape error for the value at the current position,
// after validating that value, so that a syntax error later in it still
// counts as a syntax error.
func (r *Reader) FailShape(err error) {
	r.Skip()
	r.Fail(err)
}

// StrField reads a string member, or null as "".
func (r *Reader) StrField(in, field string) string {
	switch r.Peek() {
	case '"':
		return r.Str()
	case 'n':
		r.Literal("null")
		return ""
	}
	r.FailShape(FieldError{in, field, "a string"})
	return ""
}

// IntField reads an integer member (see Integer), or null as 0.
func (r *Reader) IntField(in, field string) int64 {
	if r.IsNull() {
		return 0
	}
	c := r.Peek()
	if c != '-' && (c < '0' || c > '9') {
		r.FailShape(FieldError{in, field, "an integer"})
		return 0
	}
	n, ok := r.Integer()
	if !ok {
		r.Fail(FieldError{in, field, "an integer"})
	}
	return n
}

// BoolField reads a boolean member, or null as false.
func (r *Reader) BoolField(in, field string) bool {
	switch r.Peek() {
	case 't':
		r.Literal("true")
		return true
	case 'f':
		r.Literal("false")
	case 'n':
		r.Literal("null")
	default:
		r.FailShape(FieldError{in, field, "a boolean"})
	}
	return false
}

// SkimType reads an object, validating it, and returns the value of its
// last "type" member; every "type" member must be a string.
func SkimType(r *Reader, errType error) (typ []byte, ok bool) {
	if r.Err == nil {
		if end, start, typEnd, ok := skimTyped(r.Buf, r.Pos, maxDepth-r.Depth); ok {
			r.Pos = end
			sub := Reader{Buf: r.Buf[start:typEnd]}
			return sub.StrBytes(), true
		}
	}
	return skimType(r, errType)
}

// skimType is SkimType one call at a time, for any input.
func skimType(r *Reader, errType error) (typ []byte, ok bool) {
	if r.Peek() != '{' {
		r.FailShape(errType)
		return nil, false
	}
	r.BeginObject()
	var start, end int
	for first := true; ; first = false {
		key, more := r.NextKey(first)
		if !more {
			break
		}
		if string(key) != "type" {
			r.Skip()
			continue
		}
		if r.Peek() != '"' {
			r.FailShape(errType)
			return nil, false
		}
		r.SkipSpace()
		start = r.Pos
		r.ScanString(false)
		end = r.Pos
		ok = true
	}
	if r.Err != nil {
		return nil, false
	}
	if !ok {
		r.Fail(errType)
		return nil, false
	}
	// Re-read the string body from the input (the scratch buffer may have
	// been reused by a later key).
	sub := Reader{Buf: r.Buf[start:end]}
	return sub.StrBytes(), true
}
