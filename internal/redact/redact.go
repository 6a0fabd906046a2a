// Package redact hides likely secrets in text and in JSON values. It is
// the default redactor of the permission package's audit, whose
// RedactString and Redact document what is hidden.
package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"sync"
)

// redacted replaces what the redactor hides.
const redacted = "[redacted]"

// A redaction replaces what its pattern matches with repl.
type redaction struct {
	re   *regexp.Regexp
	repl string
}

// redactions are the default redactor's patterns, applied in order. They
// are compiled on first use: every lite-agent command links this package,
// few redact anything.
var redactions = sync.OnceValue(func() []redaction {
	return []redaction{
		// "password: hunter22", "api_key=…", "token '…'"
		{regexp.MustCompile(`(?i)(api[_ -]?key|apikey|access[_ -]?key|token|secret|password|passwd)(["'\s:=]+)([^\s"',;]{6,})`), "$1$2" + redacted},
		{regexp.MustCompile(`(?i)\b(bearer|basic)(\s+)[A-Za-z0-9._~+/=-]{6,}`), "$1$2" + redacted},
		{regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`), redacted},
		{regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{17,}(?:\.[A-Za-z0-9_-]*)*`), redacted},
		{regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), redacted},
		{regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`), redacted},
		{regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`), redacted},
		{regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`), redacted},
		{regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`), redacted},
	}
})

// sensitiveKey matches object keys whose string values are hidden whole.
var sensitiveKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:.*[_-])?(?:password|passwd|secret|token|api[_-]?key|apikey|authorization|credentials?|private[_-]?key|access[_-]?key|client[_-]?secret)$`)
})

// String hides likely secrets in s, replacing them with "[redacted]"
// (see permission.RedactString for the list).
func String(s string) string {
	for i, r := range redactions() {
		s = r.replace(s, finders[i])
	}
	return s
}

// JSON walks the JSON value input, applies [String] to every string, and
// hides whole the string and number values of keys that name a secret.
// Object keys come out sorted. Input that is not JSON becomes a JSON
// string of its redacted text; empty input becomes {}.
func JSON(input json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(input)) == 0 {
		return json.RawMessage("{}")
	}
	v, err := decode(input)
	if err != nil {
		b, _ := json.Marshal(String(string(input)))
		return b
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(value(v, false)); err != nil {
		return json.RawMessage(`"` + redacted + `"`)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// decode decodes exactly one JSON value, keeping numbers as json.Number.
func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

// value returns v redacted; hide hides its strings and numbers whole.
func value(v any, hide bool) any {
	switch x := v.(type) {
	case string:
		if hide {
			return redacted
		}
		return String(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = value(e, hide)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[String(k)] = value(e, hide || sensitiveKey().MatchString(k))
		}
		return out
	case json.Number:
		if hide {
			return redacted
		}
	}
	return v
}
