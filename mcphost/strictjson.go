package mcphost

import (
	"errors"
	"fmt"

	"github.com/lite-agent/lite-agent-go/internal/strictjson"
)

// maxJSONDepth bounds the nesting of a configuration file. mcps.json needs
// four levels; the margin keeps hostile files from costing anything.
const maxJSONDepth = 16

// An object is a decoded JSON object that remembers the order of its keys.
type object = strictjson.Object

// parseStrict decodes data as exactly one JSON value. Objects become
// *object, arrays []any, numbers json.Number, strings string, literals bool
// or nil. It rejects invalid UTF-8, duplicate keys, nesting deeper than
// maxJSONDepth and anything after the value. Its errors give byte offsets
// and key names, never values, so that a secret in a broken file is not
// echoed.
func parseStrict(data []byte) (any, error) {
	v, err := strictjson.Decode(data, maxJSONDepth)
	var se *strictjson.Error
	if !errors.As(err, &se) {
		return v, err
	}
	switch se.Reason {
	case strictjson.InvalidUTF8:
		return nil, errors.New("not valid UTF-8")
	case strictjson.UnexpectedEOF:
		return nil, errors.New("not valid JSON: unexpected end of file")
	case strictjson.TooDeep:
		return nil, fmt.Errorf("nested deeper than %d levels near byte %d", maxJSONDepth, se.Offset)
	case strictjson.DuplicateKey:
		return nil, fmt.Errorf("duplicate key %s near byte %d", quoteKey(se.Key), se.Offset)
	case strictjson.TrailingData:
		return nil, fmt.Errorf("not valid JSON: unexpected data after the top-level value near byte %d", se.Offset)
	}
	return nil, fmt.Errorf("not valid JSON near byte %d", se.Offset)
}

// quoteKey quotes a key (a name, never a value) for an error message, cut
// to strictjson.MaxKeyEcho bytes.
func quoteKey(k string) string { return strictjson.QuoteKey(k) }

// jsonKind names the JSON type of a parsed value for error messages.
func jsonKind(v any) string { return strictjson.TypeName(v) }
