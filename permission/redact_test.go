package permission_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

func TestRedactStringHidesLikelySecrets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"Bearer", "curl -H 'Authorization: Bearer abc.def-123_xyz' x", "curl -H 'Authorization: Bearer [redacted]' x"},
		{"BearerLowercase", "bearer 0123456789", "bearer [redacted]"},
		{"SKKey", "key sk-abcdefghijklmnop1234 end", "key [redacted] end"},
		{"SKTooShort", "sk-short", "sk-short"},
		{"JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "[redacted]"},
		{"Email", "mail bob.smith+x@example.co.uk now", "mail [redacted] now"},
		{"PasswordEquals", "password=hunter22", "password=[redacted]"},
		{"APIKeyColon", `api_key: "abcdef123"`, `api_key: "[redacted]"`},
		{"TokenSpace", "token abcdef", "token [redacted]"},
		{"SecretQuote", `secret='s3cr3t!x'`, `secret='[redacted]'`},
		{"ValueTooShort", "password=abc", "password=abc"},
		{"NotAKeyword", "tokenizer=abcdefgh", "tokenizer=abcdefgh"},
		{"PrefixedName", "export DB_PASSWORD=supersecret123", "export DB_PASSWORD=[redacted]"},
		{"PrefixedKey", "GITHUB_TOKEN: abcdef0123", "GITHUB_TOKEN: [redacted]"},
		{"AWS", "AKIAIOSFODNN7EXAMPLE", "[redacted]"},
		{"GitHub", "ghp_" + strings.Repeat("a", 36), "[redacted]"},
		{"PrivateKey", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "[redacted]"},
		{"Harmless", "git status && ls -la", "git status && ls -la"},
		{"HexSecretsGetThrough", "deadbeefdeadbeefdeadbeefdeadbeef", "deadbeefdeadbeefdeadbeefdeadbeef"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := permission.RedactString(tt.in); got != tt.want {
				t.Errorf("RedactString(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactWalksNestedValues(t *testing.T) {
	t.Parallel()
	in := `{"command":"curl -H 'Authorization: Bearer abcdefgh' https://x","env":{"API_TOKEN":"plain","list":["me@example.com",1,true,null]},"password":"hunter2","n":{"client_secret":42}}`
	got := string(permission.Redact(json.RawMessage(in)))
	want := `{"command":"curl -H 'Authorization: Bearer [redacted]' https://x","env":{"API_TOKEN":"[redacted]","list":["[redacted]",1,true,null]},"n":{"client_secret":"[redacted]"},"password":"[redacted]"}`
	if got != want {
		t.Errorf("Redact =\n%s\nwant\n%s", got, want)
	}
	for in, want := range map[string]string{
		"":                      `{}`,
		"  ":                    `{}`,
		"not json token=abcdef": `"not json token=[redacted]"`,
		`"bare string"`:         `"bare string"`,
		`[1,"x@y.io"]`:          `[1,"[redacted]"]`,
	} {
		if got := string(permission.Redact(json.RawMessage(in))); got != want {
			t.Errorf("Redact(%q) = %s, want %s", in, got, want)
		}
	}
}
