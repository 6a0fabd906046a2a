package redact

import (
	"regexp"
	"sync"
)

// This file keeps the redactor as it was before String learned to skip
// text that cannot hold a secret: nine regular expressions applied in
// turn to the whole text. The differential test, the fuzz target and the
// benchmarks compare String against it. Do not edit it to make a test
// pass: it is the definition String must match byte for byte.

// oracleRedactions are the redactions, verbatim.
var oracleRedactions = sync.OnceValue(func() []redaction {
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

// oracleString is String as it was: every pattern over the whole text.
func oracleString(s string) string {
	for _, r := range oracleRedactions() {
		s = r.re.ReplaceAllString(s, r.repl)
	}
	return s
}
