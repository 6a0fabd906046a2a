// Package strictjson decodes a JSON document strictly, for configuration
// files whose problems must be reported without echoing their values.
//
// [Decode] accepts exactly one JSON value in valid UTF-8, without
// duplicate object keys and without nesting deeper than a limit, and keeps
// the order of object keys so that callers can report problems in file
// order. A failure is an *[Error] that says what went wrong and where (a
// byte offset and the path of the value, such as servers.a.args[2]), but
// never quotes a value of the document. Every configuration file of the
// module is read through it, so their syntax errors read alike.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// An Object is a decoded JSON object that remembers the order of its keys.
type Object struct {
	// Keys are the object's keys in document order, each once.
	Keys []string
	// Vals maps each key to its decoded value.
	Vals map[string]any
}

// A Reason says why [Decode] refused a document.
type Reason int

// The reasons for an [Error].
const (
	// InvalidUTF8: the document is not valid UTF-8; Offset is the first
	// byte that is not.
	InvalidUTF8 Reason = iota + 1
	// Syntax: the tokenizer failed; Offset is where, and OffsetKnown
	// says whether the tokenizer itself reported it (otherwise Offset is
	// the decoder's input offset after the failure).
	Syntax
	// UnexpectedEOF: the document ends inside a value.
	UnexpectedEOF
	// NonStringKey: an object key is not a string.
	NonStringKey
	// UnexpectedDelimiter: a closing delimiter where a value belongs.
	UnexpectedDelimiter
	// TooDeep: nesting deeper than the limit; Offset is the input offset
	// after the opening delimiter.
	TooDeep
	// DuplicateKey: Key appears twice in one object; Offset is the input
	// offset before its second occurrence.
	DuplicateKey
	// TrailingData: something follows the top-level value; Offset is the
	// input offset after reading it.
	TrailingData
	// Empty: the document holds nothing but white space.
	Empty
)

// An Error reports why [Decode] refused a document. It holds positions
// and key names only, never values.
type Error struct {
	// Reason says what is wrong.
	Reason Reason
	// Offset is a byte offset into the document, where it applies.
	Offset int64
	// OffsetKnown is true for a Syntax error whose Offset the tokenizer
	// reported.
	OffsetKnown bool
	// Path locates the value being read when the problem was found, in
	// the form of [ChildPath] and [IndexPath] ("" for the top level); for
	// DuplicateKey it is the object that repeats the key.
	Path string
	// Key is the duplicated key, for DuplicateKey.
	Key string
	// MaxDepth is the nesting limit, for TooDeep.
	MaxDepth int
}

// Error returns Path, a colon and [Error.Detail], or only the detail at
// the top level.
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Detail()
	}
	return e.Path + ": " + e.Detail()
}

// Detail describes the problem without its path, for callers that report
// the path on their own, such as "duplicate key \"a\" (at byte 12)".
func (e *Error) Detail() string {
	var msg string
	at := true
	switch e.Reason {
	case InvalidUTF8:
		msg = "not valid UTF-8"
	case UnexpectedEOF:
		msg, at = "invalid JSON: unexpected end of input", false
	case NonStringKey:
		msg = "invalid JSON: object key is not a string"
	case UnexpectedDelimiter:
		msg = "invalid JSON: unexpected delimiter"
	case TooDeep:
		msg = fmt.Sprintf("nesting deeper than %d levels", e.MaxDepth)
	case DuplicateKey:
		msg = "duplicate key " + QuoteKey(e.Key)
	case TrailingData:
		msg = "unexpected data after the top-level value"
	case Empty:
		msg, at = "the document is empty", false
	default:
		msg = "invalid JSON"
	}
	if !at {
		return msg
	}
	return fmt.Sprintf("%s (at byte %d)", msg, e.Offset)
}

// Decode parses data as exactly one JSON value. Objects become *[Object],
// arrays []any, numbers json.Number, strings string, literals bool or nil.
// It rejects invalid UTF-8, an empty document, duplicate keys at any depth,
// nesting deeper than maxDepth levels and anything after the value. Errors
// are *[Error].
func Decode(data []byte, maxDepth int) (any, error) {
	if !utf8.Valid(data) {
		return nil, &Error{Reason: InvalidUTF8, Offset: int64(firstInvalid(data))}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{Reason: Empty}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0, maxDepth)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &Error{Reason: TrailingData, Offset: dec.InputOffset()}
	}
	return v, nil
}

// firstInvalid returns the offset of the first byte of data that does not
// start a valid UTF-8 sequence.
func firstInvalid(data []byte) int {
	off := 0
	for off < len(data) {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	return off
}

// decodeValue reads one value from dec at nesting depth depth. An *Error
// from a member or element gets its path prefixed on the way out, so that
// decoding builds no paths unless it fails.
func decodeValue(dec *json.Decoder, depth, maxDepth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(dec, err)
	}
	t, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth >= maxDepth {
		return nil, &Error{Reason: TooDeep, Offset: dec.InputOffset(), MaxDepth: maxDepth}
	}
	switch t {
	case '{':
		obj := &Object{Vals: map[string]any{}}
		for dec.More() {
			off := dec.InputOffset()
			kt, err := dec.Token()
			if err != nil {
				return nil, syntaxError(dec, err)
			}
			key, ok := kt.(string)
			if !ok {
				return nil, &Error{Reason: NonStringKey, Offset: off}
			}
			if _, dup := obj.Vals[key]; dup {
				return nil, &Error{Reason: DuplicateKey, Offset: off, Key: key}
			}
			v, err := decodeValue(dec, depth+1, maxDepth)
			if err != nil {
				return nil, within(err, func(p string) string { return ChildPath(p, key) })
			}
			obj.Keys = append(obj.Keys, key)
			obj.Vals[key] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, syntaxError(dec, err)
		}
		return obj, nil
	case '[':
		arr := []any{}
		for i := 0; dec.More(); i++ {
			v, err := decodeValue(dec, depth+1, maxDepth)
			if err != nil {
				return nil, within(err, func(p string) string { return IndexPath(p, i) })
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, syntaxError(dec, err)
		}
		return arr, nil
	}
	return nil, &Error{Reason: UnexpectedDelimiter, Offset: dec.InputOffset()}
}

// within puts the path of a child value in front of err's path: child
// returns that path given its parent's. The chain of calls on the way out
// turns "" into, say, servers.a.args[2].
func within(err error, child func(parent string) string) error {
	var e *Error
	if errors.As(err, &e) {
		e.Path = prefixPath(child(""), e.Path)
	}
	return err
}

// prefixPath joins a parent path and a path relative to it.
func prefixPath(parent, rel string) string {
	switch {
	case rel == "":
		return parent
	case parent == "" || rel[0] == '[':
		return parent + rel
	}
	return parent + "." + rel
}

// syntaxError describes a tokenizer failure by its position only: the
// messages of encoding/json quote characters of the input.
func syntaxError(dec *json.Decoder, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Reason: UnexpectedEOF, Offset: dec.InputOffset()}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &Error{Reason: Syntax, Offset: se.Offset, OffsetKnown: true}
	}
	return &Error{Reason: Syntax, Offset: dec.InputOffset()}
}

// ChildPath returns the path of member key of the object at path: path.key
// when key is a plain name (letters, digits and '_', not starting with a
// digit), else path["key"] with the key cut as [QuoteKey] cuts it. The top
// level's path is "".
func ChildPath(path, key string) string {
	plain := key != ""
	for i, r := range key {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	switch {
	case !plain || len(key) > MaxKeyEcho:
		return path + "[" + QuoteKey(key) + "]"
	case path == "":
		return key
	}
	return path + "." + key
}

// IndexPath returns the path of element i of the array at path: path[i].
func IndexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// MaxKeyEcho caps how much of a key [QuoteKey] repeats.
const MaxKeyEcho = 64

// QuoteKey quotes a key (a name, never a value) for an error message, cut
// to MaxKeyEcho bytes at a rune boundary and marked "…" when cut, so that
// a hostile file cannot flood the message.
func QuoteKey(k string) string {
	if len(k) > MaxKeyEcho {
		cut := MaxKeyEcho
		for cut > 0 && !utf8.RuneStart(k[cut]) {
			cut--
		}
		return strconv.Quote(k[:cut]) + "…"
	}
	return strconv.Quote(k)
}

// TypeName names the JSON type of a decoded value for error messages:
// "null", "a boolean", "a number", "a string", "an array" or "an object";
// a value Decode does not produce is "an unknown value".
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case *Object, map[string]any:
		return "an object"
	}
	return "an unknown value"
}

// Plain returns v with every *[Object] in it replaced by a map[string]any,
// for callers that keep decoded values as encoding/json gives them. Arrays
// are copied; other values are returned as they are.
func Plain(v any) any {
	switch x := v.(type) {
	case *Object:
		m := make(map[string]any, len(x.Keys))
		for _, k := range x.Keys {
			m[k] = Plain(x.Vals[k])
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Plain(e)
		}
		return out
	}
	return v
}

// CutShort reports whether data is a JSON document beginning with opening
// that was cut short: empty, only zero bytes (a file whose size reached
// the disk before its data), or a prefix of such a document, cut anywhere
// before its value ends, followed by nothing or zeros. Anything else — a
// different beginning, a bad byte, something after a whole value — was
// not written so and is not cut short. It is for files written by
// creating them and then writing them, which a crash can leave cut.
func CutShort(data []byte, opening string) bool {
	data = bytes.TrimRight(data, "\x00")
	if len(data) == 0 {
		return true
	}
	open := []byte(opening)
	if !bytes.HasPrefix(data, open) && !bytes.HasPrefix(open, data) {
		return false
	}
	var v any
	return errors.Is(json.NewDecoder(bytes.NewReader(data)).Decode(&v), io.ErrUnexpectedEOF)
}
