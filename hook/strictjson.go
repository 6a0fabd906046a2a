package hook

import (
	"errors"
	"fmt"

	"github.com/lite-agent/lite-agent-go/internal/strictjson"
)

// maxDepth bounds the nesting of a hooks file; the schema needs four levels.
const maxDepth = 32

// object is a JSON object whose keys keep their order, so that problems
// are reported in file order.
type object = strictjson.Object

// decodeStrict parses data as exactly one JSON value into nil, bool,
// json.Number, string, []any and *object. It rejects invalid UTF-8,
// duplicate object keys at any depth, nesting deeper than maxDepth and
// anything after the value. Errors never quote the document's values.
func decodeStrict(data []byte) (any, error) {
	v, err := strictjson.Decode(data, maxDepth)
	var se *strictjson.Error
	if !errors.As(err, &se) {
		return v, err
	}
	switch se.Reason {
	case strictjson.InvalidUTF8:
		return nil, errors.New("not valid UTF-8")
	case strictjson.UnexpectedEOF:
		return nil, errors.New("invalid JSON: unexpected end of input")
	case strictjson.NonStringKey:
		return nil, errors.New("invalid JSON: object key is not a string")
	case strictjson.UnexpectedDelimiter:
		return nil, errors.New("invalid JSON: unexpected delimiter")
	case strictjson.TooDeep:
		return nil, fmt.Errorf("nesting deeper than %d levels", maxDepth)
	case strictjson.DuplicateKey:
		return nil, fmt.Errorf("duplicate key %s", quoteKey(se.Key))
	case strictjson.TrailingData:
		return nil, errors.New("unexpected data after the top-level value")
	}
	if se.OffsetKnown {
		return nil, fmt.Errorf("invalid JSON at byte %d", se.Offset)
	}
	return nil, errors.New("invalid JSON")
}

// quoteKey quotes a key for an error message, cut to 64 bytes so that a
// hostile file cannot flood the message.
func quoteKey(k string) string { return strictjson.QuoteKey(k) }

// typeName names the JSON type of a decoded value, for error messages.
func typeName(v any) string { return strictjson.TypeName(v) }
