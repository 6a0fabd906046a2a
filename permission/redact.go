package permission

import (
	"encoding/json"

	"github.com/lite-agent/lite-agent-go/internal/redact"
)

// RedactString hides likely secrets in s, replacing them with
// "[redacted]": bearer and basic credentials, sk- keys of 16 or more
// characters, JWT-like eyJ… strings, AWS access key ids, GitHub and Slack
// tokens, e-mail addresses, private key blocks, and values of 6 or more
// characters after "api key", "token", "secret" or "password" (also ending
// a longer name, such as DB_PASSWORD) and a ':',
// '=', quote or blank. It is a best effort: hex secrets, passwords without
// a telling name and anything split across fields get through.
func RedactString(s string) string { return redact.String(s) }

// Redact is the default redactor of audited tool inputs. It walks the JSON
// value, applies [RedactString] to every string, and hides whole the string
// values of keys that name a secret (password, token, api_key,
// authorization, …). Object keys come out sorted. Input that is not JSON
// becomes a JSON string of its redacted text; empty input becomes {}.
func Redact(input json.RawMessage) json.RawMessage { return redact.JSON(input) }
