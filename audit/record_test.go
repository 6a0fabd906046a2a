package audit

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDecodeRecord checks that decodeRecord never panics, that what it
// accepts has a body that is a JSON object and a well-formed hash, and
// that a record written again from what it decoded decodes to the same
// record, its hash matching.
func FuzzDecodeRecord(f *testing.F) {
	line, _ := encodeRecord(nil, "2026-01-02T03:04:05.001Z", "s1", 1, "", json.RawMessage(`{"type":"turn_start"}`))
	f.Add(bytes.TrimSuffix(line, []byte("\n")))
	f.Fuzz(func(t *testing.T, line []byte) {
		rec, err := decodeRecord(line)
		if err != nil {
			return
		}
		if !json.Valid(rec.body) || rec.body[0] != '{' {
			t.Fatalf("body %q is not a JSON object", rec.body)
		}
		if !isHashHex(rec.hash) || rec.seq < 0 {
			t.Fatalf("accepted hash %q, seq %d", rec.hash, rec.seq)
		}
		again, h := encodeRecord(nil, rec.ts, rec.sessionID, rec.seq, rec.prevHash, rec.event)
		if bytes.Count(again, []byte("\n")) != 1+bytes.Count(rec.event, []byte("\n")) {
			t.Fatalf("a written record spans lines beyond its event's: %q", again)
		}
		back, err := decodeRecord(bytes.TrimSuffix(again, []byte("\n")))
		if err != nil {
			t.Fatalf("a written record does not decode: %v\n%q", err, again)
		}
		if back.ts != rec.ts || back.sessionID != rec.sessionID || back.seq != rec.seq || back.prevHash != rec.prevHash || !bytes.Equal(back.event, rec.event) {
			t.Fatalf("round trip changed the record: %+v, want %+v", back, rec)
		}
		if back.hash != h || sum(nil, back.prevHash, back.body) != h {
			t.Fatalf("the hash of a written record does not verify")
		}
	})
}

func TestDecodeRecordRejects(t *testing.T) {
	good := `{"v":1,"ts":"t","sessionId":"s","seq":2,"prevHash":"","hash":"` + hex64 + `","event":{}}`
	if _, err := decodeRecord([]byte(good)); err != nil {
		t.Fatalf("a good record: %v", err)
	}
	cases := map[string]string{
		"not JSON":          `{"v":1,`,
		"an array":          `[1]`,
		"version 2":         `{"v":2,"ts":"t","seq":1,"hash":"` + hex64 + `","event":{}}`,
		"hash first":        `{"hash":"` + hex64 + `","v":1,"ts":"t","seq":1,"event":{}}`,
		"hash repeated":     `{"v":1,"ts":"t","seq":1,"hash":"` + hex64 + `","hash":"` + hex64 + `","event":{}}`,
		"event repeated":    `{"v":1,"ts":"t","seq":1,"hash":"` + hex64 + `","event":{},"event":1}`,
		"unknown member":    `{"v":1,"ts":"t","seq":1,"hash":"` + hex64 + `","event":{},"x":1}`,
		"upper-case hash":   `{"v":1,"ts":"t","seq":1,"hash":"` + "A" + hex64[1:] + `","event":{}}`,
		"short hash":        `{"v":1,"ts":"t","seq":1,"hash":"abc","event":{}}`,
		"negative seq":      `{"v":1,"ts":"t","seq":-1,"hash":"` + hex64 + `","event":{}}`,
		"fractional seq":    `{"v":1,"ts":"t","seq":1.5,"hash":"` + hex64 + `","event":{}}`,
		"no event":          `{"v":1,"ts":"t","seq":1,"hash":"` + hex64 + `"}`,
		"no ts":             `{"v":1,"seq":1,"hash":"` + hex64 + `","event":{}}`,
		"null session":      `{"v":1,"ts":"t","sessionId":null,"seq":1,"hash":"` + hex64 + `","event":{}}`,
		"numeric prevHash":  `{"v":1,"ts":"t","seq":1,"prevHash":1,"hash":"` + hex64 + `","event":{}}`,
		"data after":        good + `{}`,
		"truncated event":   good[:len(good)-2],
		"event not closing": `{"v":1,"ts":"t","seq":1,"hash":"` + hex64 + `","event":{"a":`,
	}
	for name, line := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := decodeRecord([]byte(line)); err == nil {
				t.Fatalf("decodeRecord accepted %s", line)
			}
		})
	}
}

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// TestRecordHashFollowsTheFormat pins the hash to the documented formula,
// with digests computed by another implementation (Python's hashlib and
// hmac): SHA-256 or HMAC-SHA256 over prevHash, "\n" and the record without
// its hash member.
func TestRecordHashFollowsTheFormat(t *testing.T) {
	const body = `{"v":1,"ts":"2026-01-02T03:04:05.678Z","sessionId":"s1","seq":1,"prevHash":"","event":{"type":"turn_start"}}`
	for _, tc := range []struct {
		key  []byte
		want string
	}{
		{nil, "dca1e918f3b454dcb221ac9e6b8cedec7d8a477476addbfe1c3ad202292a1eb1"},
		{[]byte("key"), "c3896e0c60a4b87aef5e6703e86e6b4c8a6c0d4dc232f522d55df8b4b5d67789"},
	} {
		line, h := encodeRecord(tc.key, "2026-01-02T03:04:05.678Z", "s1", 1, "", json.RawMessage(`{"type":"turn_start"}`))
		if h != tc.want {
			t.Fatalf("key %q: hash %s, want %s", tc.key, h, tc.want)
		}
		want := `{"v":1,"ts":"2026-01-02T03:04:05.678Z","sessionId":"s1","seq":1,"prevHash":"","hash":"` + tc.want + `","event":{"type":"turn_start"}}` + "\n"
		if string(line) != want {
			t.Fatalf("line\n got %s\nwant %s", line, want)
		}
		rec, err := decodeRecord(bytes.TrimSuffix(line, []byte("\n")))
		if err != nil || string(rec.body) != body {
			t.Fatalf("decoded body %q (%v), want %q", rec.body, err, body)
		}
	}
}
