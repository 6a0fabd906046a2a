package logframe_test

import (
	"bytes"
	"errors"
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
	f.Fuzz(func(t *testing.T, line []byte, sid string, seq int64) {
		for _, encoded := range []bool{false, true} {
			sameVerdict(t, line, sid, seq, encoded)
		}
	})
}
