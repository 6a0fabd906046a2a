// Package strictjson decodes a JSON document strictly, for configuration
// files whose problems must be reported without echoing their values.
//
// [Decode] accepts exactly one JSON value in valid UTF-8, without
// duplicate object keys and without nesting deeper than a limit, and keeps
// the order of object keys so that callers can report problems in file
// order. A failure is an *[Error] that records what went wrong and where,
// but never a value of the document; each caller words its own message.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	// InvalidUTF8: the document is not valid UTF-8.
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
	// Key is the duplicated key, for DuplicateKey.
	Key string
	// MaxDepth is the nesting limit, for TooDeep.
	MaxDepth int
}

// Error gives a neutral description; callers usually word their own from
// the fields.
func (e *Error) Error() string {
	switch e.Reason {
	case InvalidUTF8:
		return "not valid UTF-8"
	case UnexpectedEOF:
		return "invalid JSON: unexpected end of input"
	case NonStringKey:
		return "invalid JSON: object key is not a string"
	case UnexpectedDelimiter:
		return "invalid JSON: unexpected delimiter"
	case TooDeep:
		return fmt.Sprintf("nesting deeper than %d levels near byte %d", e.MaxDepth, e.Offset)
	case DuplicateKey:
		return fmt.Sprintf("duplicate key %s near byte %d", QuoteKey(e.Key), e.Offset)
	case TrailingData:
		return fmt.Sprintf("unexpected data after the top-level value near byte %d", e.Offset)
	}
	return fmt.Sprintf("invalid JSON near byte %d", e.Offset)
}

// Decode parses data as exactly one JSON value. Objects become *[Object],
// arrays []any, numbers json.Number, strings string, literals bool or nil.
// It rejects invalid UTF-8, duplicate keys at any depth, nesting deeper
// than maxDepth levels and anything after the value. Errors are *[Error].
func Decode(data []byte, maxDepth int) (any, error) {
	if !utf8.Valid(data) {
		return nil, &Error{Reason: InvalidUTF8}
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

// decodeValue reads one value from dec at nesting depth depth.
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
				return nil, err
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
		for dec.More() {
			v, err := decodeValue(dec, depth+1, maxDepth)
			if err != nil {
				return nil, err
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
		return fmt.Sprintf("%q…", k[:cut])
	}
	return fmt.Sprintf("%q", k)
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
	case *Object:
		return "an object"
	}
	return "an unknown value"
}
