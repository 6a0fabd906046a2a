package storage

import (
	"encoding/json"
	"testing"
)

// FuzzLooksEnvelopedMatchesAFullParse checks that the shortcuts of
// looksEnveloped (no literal key and no \u escape of one of its letters:
// no parse) never change its verdict: it must say exactly what parsing the
// whole text as a JSON object would.
func FuzzLooksEnvelopedMatchesAFullParse(f *testing.F) {
	for _, s := range []string{
		`{"liteAgentStorage":1}`,
		`{"liteAgent\u0053torage":1}`,
		`{"\u006citeAgentStorage":1}`,
		`{"liteAgentStor\u0061ge":1}`,
		`{"liteAgentStor\u0061Ge":1}`,
		`{"a":"\\u0041","liteAgentStorag\u0065":2}`,
		`{"a":"\u003cb\u003e"}`,
		`{"x":{"liteAgentStorage":1}}`,
		` {"liteAgentStorage":null}`,
		`["liteAgentStorage"]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m map[string]json.RawMessage
		_, want := m["liteAgentStorage"]
		if json.Unmarshal(b, &m) == nil {
			_, want = m["liteAgentStorage"]
		}
		if got := looksEnveloped(b); got != want {
			t.Fatalf("looksEnveloped(%q) = %v, a full parse says %v", b, got, want)
		}
	})
}
