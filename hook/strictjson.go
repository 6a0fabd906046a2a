package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// maxDepth bounds the nesting of a hooks file; the schema needs four levels.
const maxDepth = 32

// object is a JSON object whose keys keep their order, so that problems
// are reported in file order.
type object struct {
	keys []string
	vals map[string]any
}

// decodeStrict parses data as exactly one JSON value into nil, bool,
// json.Number, string, []any and *object. It rejects invalid UTF-8,
// duplicate object keys at any depth, nesting deeper than maxDepth and
// anything after the value. Errors never quote the document's values.
func decodeStrict(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the top-level value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return nil, fmt.Errorf("nesting deeper than %d levels", maxDepth)
		}
		switch t {
		case '{':
			obj := &object{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, syntaxError(err)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, errors.New("invalid JSON: object key is not a string")
				}
				if _, dup := obj.vals[key]; dup {
					return nil, fmt.Errorf("duplicate key %s", quoteKey(key))
				}
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj.keys = append(obj.keys, key)
				obj.vals[key] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, syntaxError(err)
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, syntaxError(err)
			}
			return arr, nil
		default:
			return nil, errors.New("invalid JSON: unexpected delimiter")
		}
	default:
		return t, nil
	}
}

// syntaxError describes a tokenizer failure by its offset only; the
// decoder's own message may quote the offending bytes.
func syntaxError(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("invalid JSON at byte %d", se.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("invalid JSON: unexpected end of input")
	}
	return errors.New("invalid JSON")
}

// quoteKey quotes a key for an error message, cut to 64 bytes so that a
// hostile file cannot flood the message.
func quoteKey(k string) string {
	const max = 64
	if len(k) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(k[cut]) {
			cut--
		}
		return fmt.Sprintf("%q…", k[:cut])
	}
	return fmt.Sprintf("%q", k)
}

// typeName names the JSON type of a decoded value, for error messages.
func typeName(v any) string {
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
	case *object:
		return "an object"
	}
	return "an unknown value"
}
