package logframe_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/logframe"
	"github.com/lite-agent/lite-agent-go/storage"
)

// sameVerdict fails unless Check and the full check agree on line: both
// accept it, or both refuse it with the same message.
func sameVerdict(t *testing.T, line []byte, sid string, seq int64, encoded bool) {
	t.Helper()
	got := logframe.Check(line, sid, seq, encoded)
	want := logframe.FullCheck(line, sid, seq, encoded)
	var g, w *storage.Error
	switch {
	case (got == nil) != (want == nil):
		t.Errorf("Check(%.160q, %q, %d, %v) = %v, the full check %v", line, sid, seq, encoded, got, want)
	case got == nil:
	case !errors.As(got, &g) || !errors.As(want, &w) || g.Message != w.Message || g.Record != w.Record:
		t.Errorf("Check(%.160q, %q, %d, %v) = %v, the full check %v", line, sid, seq, encoded, got, want)
	}
	if logframe.WellFormed(line, sid, seq) && want != nil {
		t.Errorf("the single pass accepts %.160q (%q, %d), which the full check refuses: %v", line, sid, seq, want)
	}
}

func TestWellFormedAcceptsWhatTheStoreWrites(t *testing.T) {
	for _, l := range benchLines {
		if !logframe.WellFormed(l, "s0007", 41) {
			t.Errorf("not taken by the single pass: %s", l)
		}
		sameVerdict(t, l, "s0007", 41, false)
	}
	first := []byte(`{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user"}}`)
	if !logframe.WellFormed(first, "s1", 1) {
		t.Errorf("not taken by the single pass: %s", first)
	}
}

// TestWellFormedDefersWhatItDoesNotKnow checks lines that differ from the
// store's form only slightly: the single pass must leave each to the full
// check, which accepts some (white space, escapes, other number forms)
// and refuses others, and Check must give the full check's verdict.
func TestWellFormedDefersWhatItDoesNotKnow(t *testing.T) {
	const ts = `"ts":"2026-07-22T12:00:00.000Z"`
	rec := func(seq, sid, parent, time, event, tail string) string {
		return `{"seq":` + seq + `,"sessionId":"` + sid + `","parentSeq":` + parent + `,"ts":"` + time + `","event":` + event + tail + `}`
	}
	const good = "2026-07-22T12:00:00.000Z"
	ev := `{"type":"user","message":{"role":"user","content":"hi"}}`
	deep := strings.Repeat(`{"a":`, 9998) + "1" + strings.Repeat("}", 9998)
	for _, tc := range []struct {
		name, line string
		ok         bool
	}{
		{"space after the object's brace", `{ "seq":2,"sessionId":"s1","parentSeq":1,` + ts + `,"event":` + ev + `}`, true},
		{"space before the event", rec("2", "s1", "1", good, " "+ev, ""), true},
		{"space at the end", rec("2", "s1", "1", good, ev, " "), true},
		{"seq as 2.0", rec("2.0", "s1", "1", good, ev, ""), true},
		{"seq as 2e0", rec("2e0", "s1", "1", good, ev, ""), true},
		{"seq with a leading zero", rec("02", "s1", "1", good, ev, ""), false},
		{"seq 20", rec("20", "s1", "1", good, ev, ""), false},
		{"seq 2 glued to more digits of parent", rec("2", "s1", "10", good, ev, ""), false},
		{"parent 0", rec("2", "s1", "0", good, ev, ""), false},
		{"parent null after the first", rec("2", "s1", "null", good, ev, ""), false},
		{"escaped session id", rec("2", `s\u0031`, "1", good, ev, ""), true},
		{"longer session id", rec("2", "s12", "1", good, ev, ""), false},
		{"escaped time", rec("2", "s1", "1", `2026-07-22T12:00:00.000\u005a`, ev, ""), true},
		{"RFC 3339 time with an offset", rec("2", "s1", "1", "2026-07-22T14:00:00+02:00", ev, ""), true},
		{"not a time", rec("2", "s1", "1", "2026-02-30T12:00:00.000Z", ev, ""), false},
		{"members after the event", rec("2", "s1", "1", good, ev, `,"turn":2`), true},
		{"seq again after the event", rec("2", "s1", "1", good, ev, `,"seq":3`), false},
		{"an envelope member after the event", rec("2", "s1", "1", good, ev, `,"liteAgentStorage":1`), false},
		{"event without a type", rec("2", "s1", "1", good, `{"message":"hi"}`, ""), false},
		{"event type not a string", rec("2", "s1", "1", good, `{"type":7}`, ""), false},
		{"event not an object", rec("2", "s1", "1", good, `"user"`, ""), false},
		{"invalid JSON in the event", rec("2", "s1", "1", good, `{"type":"user","x":tru}`, ""), false},
		{"control character in the event", rec("2", "s1", "1", good, "{\"type\":\"us\x01er\"}", ""), false},
		{"nothing after the event", `{"seq":2,"sessionId":"s1","parentSeq":1,` + ts + `,"event":` + ev, false},
		{"garbage after the object", rec("2", "s1", "1", good, ev, "") + "x", false},
		{"a second object", rec("2", "s1", "1", good, ev, "") + "{}", false},
		{"RFC 3339 time of the layout's length", rec("2", "s1", "1", "0000-01-01T0:00:00+00:10", ev, ""), true},
		{"time with a lower-case z", rec("2", "s1", "1", "2026-07-22T12:00:00.000z", ev, ""), false},
		{"a leap day", rec("2", "s1", "1", "2024-02-29T23:59:59.999Z", ev, ""), true},
		{"no leap day", rec("2", "s1", "1", "2023-02-29T23:59:59.999Z", ev, ""), false},
		{"second 60", rec("2", "s1", "1", "2026-07-22T12:00:60.000Z", ev, ""), false},
		{"time with a control character", rec("2", "s1", "1", "2026-07-22T12:00:00.000\x01", ev, ""), false},
		{"escaped type key", rec("2", "s1", "1", good, `{"typ\u0065":"user"}`, ""), true},
		{"escaped key that is not type", rec("2", "s1", "1", good, `{"typ\u0066":"user"}`, ""), false},
		{"escaped type", rec("2", "s1", "1", good, `{"type":"us\u0065r"}`, ""), true},
		{"a second type that is not a string", rec("2", "s1", "1", good, `{"type":"user","type":null}`, ""), false},
		{"type after the other members", rec("2", "s1", "1", good, `{"message":{"type":3},"type":"user"}`, ""), true},
		{"bytes outside UTF-8 in the event", rec("2", "s1", "1", good, "{\"type\":\"user\",\"x\":\"\xff\xc3(\x80é\x7f\"}", ""), true},
		{"NUL in the event", rec("2", "s1", "1", good, "{\"type\":\"user\",\"x\":\"a\x00\"}", ""), false},
		{"lone surrogate escapes in the event", rec("2", "s1", "1", good, `{"type":"user","\ud800":"\udc00\ud800"}`, ""), true},
		{"event nested 64 deep", rec("2", "s1", "1", good, `{"type":"user","x":`+strings.Repeat("[", 63)+strings.Repeat("]", 63)+`}`, ""), true},
		{"event nested 65 deep", rec("2", "s1", "1", good, `{"type":"user","x":`+strings.Repeat("[", 64)+strings.Repeat("]", 64)+`}`, ""), true},
		{"event nested as deep as allowed", rec("2", "s1", "1", good, `{"type":"user","x":`+deep+`}`, ""), true},
		{"event nested too deep", rec("2", "s1", "1", good, `{"type":"user","x":[`+deep+`]}`, ""), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := []byte(tc.line)
			if err := logframe.FullCheck(line, "s1", 2, false); (err == nil) != tc.ok {
				t.Fatalf("the full check: %v, want ok = %v (the case is wrong)", err, tc.ok)
			}
			for _, encoded := range []bool{false, true} {
				sameVerdict(t, line, "s1", 2, encoded)
			}
		})
	}
}

// FuzzCheck checks that Check, with its single pass for well-formed
// records, gives the verdict of the full check on any line, session id
// and position.
func FuzzCheck(f *testing.F) {
	for _, l := range benchLines {
		f.Add(l, "s0007", int64(41))
		f.Add(bytes.Replace(l, []byte(`"parentSeq":40`), []byte(`"parentSeq":null`), 1), "s0007", int64(1))
	}
	f.Add([]byte(`{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user"}}`), "s1", int64(1))
	f.Add([]byte(`{"seq":2,"sessionId":"s1","parentSeq":1,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user"},"seq":3}`), "s1", int64(2))
	// What the single pass reads a word at a time, at and across word
	// boundaries.
	for _, ev := range []string{
		`{"type":"user","message":{"role":"user","content":"abcdefg\"hijklmnopqrstu\\vwxyz"}}`,
		`{"type":"user","x":"1234567\u00e9\ud83d\ude00\ud800\u0041\udc00"}`,
		"{\"type\":\"user\",\"x\":\"123456\xc3\xa9\xe2\x82\xac 1234\xf0\x9f\x98\x80\"}",
		"{\"type\":\"user\",\"x\":\"\x7f\x80\xff\xc3 \xed\xa0\x80\"}",
		"{\"type\":\"user\",\"x\":\"1234567\x00\"}",
		"{\"type\":\"user\",\"x\":\"123456789012345\x1f\"}",
		`{"typ\u0065":"user","type ":1}`,
		`{"type":"user","x":"` + strings.Repeat("long words ", 60) + `"}`,
		`{"type":"user","x":` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `}`,
	} {
		f.Add([]byte(`{"seq":2,"sessionId":"s1","parentSeq":1,"ts":"2026-07-22T12:00:00.000Z","event":`+ev+`}`), "s1", int64(2))
	}
	f.Add([]byte("{\"seq\":1,\"sessionId\":\"a\x7fé\",\"parentSeq\":null,\"ts\":\"2024-02-29T23:59:59.999Z\",\"event\":{\"type\":\"user\"}}"), "a\x7fé", int64(1))
	f.Add([]byte(`{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2023-02-29T23:59:59.999Z","event":{"type":"user"}}`), "s1", int64(1))
	f.Fuzz(func(t *testing.T, line []byte, sid string, seq int64) {
		for _, encoded := range []bool{false, true} {
			sameVerdict(t, line, sid, seq, encoded)
		}
	})
}

// TestCheckAgreesWithTheFullCheckOnEveryByte changes each byte of records
// as the store writes them (the frame, the time, the event's keys and
// strings, across every word boundary) into each byte the single pass
// looks for or must pass over (quotes, escapes, control characters,
// DEL, bytes of and outside UTF-8, digits, brackets), drops it, or inserts
// one before it, and checks that Check gives the full check's verdict.
func TestCheckAgreesWithTheFullCheckOnEveryByte(t *testing.T) {
	special := []byte{0x00, 0x01, '\t', '\n', 0x1f, ' ', '"', '\\', '/', 0x7f, 0x80, 0xbf, 0xc3, 0xe2, 0xf0, 0xff,
		'0', '1', '9', '-', '.', 'e', 'Z', 'u', '{', '}', '[', ']', ',', ':'}
	type rec struct {
		line []byte
		sid  string
		seq  int64
	}
	var recs []rec
	for k, l := range homeRecords("s0007", 4) {
		recs = append(recs, rec{l, "s0007", int64(k + 1)})
	}
	for _, l := range benchLines {
		recs = append(recs, rec{l, "s0007", 41})
	}
	check := func(line []byte, sid string, seq int64) {
		t.Helper()
		sameVerdict(t, line, sid, seq, false)
		sameVerdict(t, line, sid, seq, true)
	}
	for _, r := range recs {
		check(r.line, r.sid, r.seq)
		for p := range r.line {
			for _, v := range special {
				b := append([]byte(nil), r.line...)
				b[p] = v
				check(b, r.sid, r.seq)
				check(append(append(append([]byte(nil), r.line[:p]...), v), r.line[p:]...), r.sid, r.seq)
			}
			check(append(append([]byte(nil), r.line[:p]...), r.line[p+1:]...), r.sid, r.seq)
		}
	}
}

// TestCheckAgreesWithTheFullCheckOnSessionIDs checks session ids the
// single pass takes, or leaves to the full check, against lines that
// spell them alike or not.
func TestCheckAgreesWithTheFullCheckOnSessionIDs(t *testing.T) {
	ids := []string{"", "s", "s1", "a\x7fb", "é", "a\"b", `a\b`, "a\x01b", "a\xffb", "\u2028", strings.Repeat("x", 8),
		strings.Repeat("x", 15), strings.Repeat("x", 16), strings.Repeat("x", 17), "0123456789abcdef-0123-4567-89ab-cdef01234567"}
	spell := func(sid string) []string {
		return []string{sid, strings.ReplaceAll(strings.ReplaceAll(sid, `\`, `\\`), `"`, `\"`), sid + "x", strings.TrimSuffix(sid, "b")}
	}
	for _, sid := range ids {
		for _, spelled := range spell(sid) {
			for _, seq := range []int64{1, 2, 10, 999999999999999, 1000000000000000} {
				parent := "null"
				if seq > 1 {
					parent = strconv.FormatInt(seq-1, 10)
				}
				line := []byte(`{"seq":` + strconv.FormatInt(seq, 10) + `,"sessionId":"` + spelled + `","parentSeq":` + parent +
					`,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user"}}`)
				for _, other := range ids {
					sameVerdict(t, line, other, seq, false)
				}
			}
		}
	}
}
