package permission

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// redacted replaces what the redactor hides.
const redacted = "[redacted]"

// redactions are the default redactor's patterns, applied in order.
var redactions = []struct {
	re   *regexp.Regexp
	repl string
}{
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

// sensitiveKey matches object keys whose string values are hidden whole.
var sensitiveKey = regexp.MustCompile(`(?i)^(?:.*[_-])?(?:password|passwd|secret|token|api[_-]?key|apikey|authorization|credentials?|private[_-]?key|access[_-]?key|client[_-]?secret)$`)

// RedactString hides likely secrets in s, replacing them with
// "[redacted]": bearer and basic credentials, sk- keys of 16 or more
// characters, JWT-like eyJ… strings, AWS access key ids, GitHub and Slack
// tokens, e-mail addresses, private key blocks, and values of 6 or more
// characters after "api key", "token", "secret" or "password" (also ending
// a longer name, such as DB_PASSWORD) and a ':',
// '=', quote or blank. It is a best effort: hex secrets, passwords without
// a telling name and anything split across fields get through.
func RedactString(s string) string {
	for _, r := range redactions {
		s = r.re.ReplaceAllString(s, r.repl)
	}
	return s
}

// Redact is the default redactor of audited tool inputs. It walks the JSON
// value, applies [RedactString] to every string, and hides whole the string
// values of keys that name a secret (password, token, api_key,
// authorization, …). Object keys come out sorted. Input that is not JSON
// becomes a JSON string of its redacted text; empty input becomes {}.
func Redact(input json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(input)) == 0 {
		return json.RawMessage("{}")
	}
	v, err := decodeValue(input)
	if err != nil {
		b, _ := json.Marshal(RedactString(string(input)))
		return b
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(redactValue(v, false)); err != nil {
		return json.RawMessage(`"` + redacted + `"`)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func redactValue(v any, hide bool) any {
	switch x := v.(type) {
	case string:
		if hide {
			return redacted
		}
		return RedactString(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = redactValue(e, hide)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[RedactString(k)] = redactValue(e, hide || sensitiveKey.MatchString(k))
		}
		return out
	case json.Number:
		if hide {
			return redacted
		}
	}
	return v
}
