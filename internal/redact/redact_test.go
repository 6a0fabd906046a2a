package redact

import (
	"encoding/json"
	"testing"
)

func TestJSONHidesSecretsAndKeepsTheRest(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, `{}`},
		{`{"command":"curl -H 'Authorization: Bearer abcdef123'","n":1}`, `{"command":"curl -H 'Authorization: Bearer [redacted]'","n":1}`},
		{`{"DB_PASSWORD":"x","api_key":12345,"list":["ok","me@example.com"]}`, `{"DB_PASSWORD":"[redacted]","api_key":"[redacted]","list":["ok","[redacted]"]}`},
		{`not json token=abcdefgh`, `"not json token=[redacted]"`},
		{`{"a":1} {}`, `"{\"a\":1} {}"`},
	}
	for _, tt := range tests {
		got := JSON(json.RawMessage(tt.in))
		if string(got) != tt.want {
			t.Errorf("JSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestStringHidesKnownTokenShapes(t *testing.T) {
	for in, want := range map[string]string{
		"key sk-abcdefghijklmnop1234 end": "key [redacted] end",
		"AKIAABCDEFGHIJKLMNOP":            "[redacted]",
		"plain words":                     "plain words",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
