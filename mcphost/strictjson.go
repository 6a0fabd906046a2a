package mcphost

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// maxJSONDepth bounds the nesting of a configuration file. mcps.json needs
// four levels; the margin keeps hostile files from costing anything.
const maxJSONDepth = 16

// An object is a decoded JSON object that remembers the order of its keys.
type object struct {
	keys []string
	vals map[string]any
}

// parseStrict decodes data as exactly one JSON value. Objects become
// *object, arrays []any, numbers json.Number, strings string, literals bool
// or nil. It rejects invalid UTF-8, duplicate keys, nesting deeper than
// maxJSONDepth and anything after the value. Its errors give byte offsets
// and key names, never values, so that a secret in a broken file is not
// echoed.
func parseStrict(data []byte) (any, error) {
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
		return nil, fmt.Errorf("not valid JSON: unexpected data after the top-level value near byte %d", dec.InputOffset())
	}
	return v, nil
}

// parseValue reads one value from dec at nesting depth depth.
func parseValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(dec, err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxJSONDepth {
			return nil, fmt.Errorf("nested deeper than %d levels near byte %d", maxJSONDepth, dec.InputOffset())
		}
		if t == '[' {
			arr := []any{}
			for dec.More() {
				v, err := parseValue(dec, depth+1)
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
		obj := &object{vals: map[string]any{}}
		for dec.More() {
			off := dec.InputOffset()
			kt, err := dec.Token()
			if err != nil {
				return nil, syntaxError(dec, err)
			}
			key := kt.(string) // the decoder only yields string keys inside an object
			if _, dup := obj.vals[key]; dup {
				return nil, fmt.Errorf("duplicate key %s near byte %d", quoteKey(key), off)
			}
			v, err := parseValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			obj.keys = append(obj.keys, key)
			obj.vals[key] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, syntaxError(dec, err)
		}
		return obj, nil
	default:
		return t, nil
	}
}

// syntaxError describes a decoding failure by its position only: the
// messages of encoding/json quote characters of the input.
func syntaxError(dec *json.Decoder, err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("not valid JSON: unexpected end of file")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("not valid JSON near byte %d", se.Offset)
	}
	return fmt.Errorf("not valid JSON near byte %d", dec.InputOffset())
}

// maxKeyEcho caps how much of a key an error message repeats.
const maxKeyEcho = 64

// quoteKey quotes a key (a name, never a value) for an error message, cut
// to maxKeyEcho bytes.
func quoteKey(k string) string {
	if len(k) > maxKeyEcho {
		cut := maxKeyEcho
		for cut > 0 && !utf8.RuneStart(k[cut]) {
			cut--
		}
		return fmt.Sprintf("%q…", k[:cut])
	}
	return fmt.Sprintf("%q", k)
}

// jsonKind names the JSON type of a parsed value for error messages.
func jsonKind(v any) string {
	switch v.(type) {
	case *object:
		return "an object"
	case []any:
		return "an array"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	default:
		return "null"
	}
}
