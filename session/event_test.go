package session_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

// goldenEvents is one event of every type with every optional member set,
// plus the shortest form of each.
func goldenEvents() []session.Event {
	yes := true
	before := "package main\n"
	return []session.Event{
		session.UserEvent{Message: model.UserText("hi")},
		session.UserEvent{Message: model.UserText("fix the build"), Origin: session.OriginUser, Checkpoint: &yes},
		session.UserEvent{Message: model.UserBlocks(model.TextBlock("look"), model.TextBlock("again"))},
		session.AssistantEvent{Message: model.AssistantBlocks(
			model.TextBlock("Reading it."),
			model.ToolCallBlock("call_1", "read_file", json.RawMessage(`{"path":"main.go"}`)),
			model.NativeBlock("anthropic", json.RawMessage(`{"type":"redacted_thinking","data":"x"}`)),
			model.CompactionBlock("so far"),
			model.Block{Type: model.BlockCompaction, NullContent: true},
		)},
		session.AssistantEvent{Message: model.AssistantText("done"),
			Usage:         model.Usage{InputTokens: 1200, OutputTokens: 80, CacheReadTokens: 900, CacheCreationTokens: 300},
			InputEstimate: 1100, Model: "claude-sonnet-4-5"},
		session.AssistantEvent{Message: model.AssistantText("ok"), Usage: model.Usage{InputTokens: 2400}},
		session.ToolStartedEvent{ID: "call_1", Name: "read_file", Turn: 1},
		session.ToolResultEvent{Result: model.ToolResultBlock("call_1", "package main", false), Turn: 1},
		session.ToolResultEvent{Result: model.ToolResultBlock("call_2", "no such file", true), Turn: 1},
		session.FileSnapshotEvent{Path: "main.go", Before: &before, Encoding: "utf8", After: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", Turn: 2},
		session.FileSnapshotEvent{Path: "new.go", Turn: 2},
		session.FileSnapshotEvent{Path: "huge.bin", Truncated: true, Deleted: true, Turn: 3},
		session.ArtifactVerifiedEvent{Path: "bin/app", Revision: "abc123", Command: "go build", Result: json.RawMessage(`{"ok":true}`), Turn: 3},
		session.ArtifactVerifiedEvent{Path: "bin/app", Command: "go vet", Turn: 3},
		session.PermissionDecisionEvent{Call: session.PermissionCall{ID: "call_3", Name: "bash", Input: json.RawMessage(`{"command":"rm -rf [REDACTED]"}`)},
			Decision: "deny", RuleID: "no-rm", Reason: "destructive", Simulated: true, By: "policy", Turn: 4},
		session.PermissionDecisionEvent{Call: session.PermissionCall{ID: "call_4", Name: "ls"}, Decision: "allow", By: "auto", Turn: 4},
		session.SummaryEvent{Messages: []model.Message{model.UserText("goal"), model.AssistantText("progress")}, ThroughSeq: 9, Before: 5000, After: 700},
		session.SummaryEvent{},
		session.ContextViewEvent{ThroughSeq: 12, View: json.RawMessage(`{"generation":1}`)},
		session.RawEvent{Type: "checkpoint_label", JSON: json.RawMessage(`{"type":"checkpoint_label","label":"v1"}`)},
	}
}

func TestEventJSONMatchesGolden(t *testing.T) {
	var buf bytes.Buffer
	for _, ev := range goldenEvents() {
		b, err := session.MarshalEvent(ev)
		if err != nil {
			t.Fatalf("%s: %v", ev.EventType(), err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	golden(t, "events.golden.jsonl", buf.Bytes())
}

func TestEventJSONPutsTypeFirstAndRoundTrips(t *testing.T) {
	for _, ev := range goldenEvents() {
		b, err := session.MarshalEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"type":"` + ev.EventType() + `"`; !bytes.HasPrefix(b, []byte(want)) {
			t.Errorf("%s does not start with %s", b, want)
		}
		back, err := session.DecodeEvent(b)
		if err != nil {
			t.Fatalf("DecodeEvent(%s): %v", b, err)
		}
		// Nil raw members and lists are written as their defaults and read
		// back as those, so compare the JSON again.
		again, err := session.MarshalEvent(back)
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("round trip of %s gave %s (%v)", b, again, err)
		}
		if reflect.TypeOf(back) != reflect.TypeOf(ev) {
			t.Errorf("round trip of %s gave a %T", b, back)
		}
		// encoding/json agrees, through the MarshalJSON/UnmarshalJSON methods.
		viaStd, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(viaStd, b) {
			t.Errorf("json.Marshal = %s, MarshalEvent = %s", viaStd, b)
		}
	}
}

func TestTypedUnmarshalJSON(t *testing.T) {
	var ue session.UserEvent
	if err := json.Unmarshal([]byte(`{"type":"user","message":{"role":"user","content":"x"},"origin":"internal","checkpoint":false}`), &ue); err != nil {
		t.Fatal(err)
	}
	if ue.Origin != session.OriginInternal || ue.Checkpoint == nil || *ue.Checkpoint || ue.Message.Text != "x" {
		t.Errorf("decoded %#v", ue)
	}
	if err := json.Unmarshal([]byte(`{"type":"assistant","message":{"role":"assistant","content":"x"}}`), &ue); err == nil {
		t.Error("an assistant event decoded into a UserEvent")
	}
	var raw session.RawEvent
	if err := json.Unmarshal([]byte(` {"type":"user","message":5} `), &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Type != "user" || string(raw.JSON) != `{"type":"user","message":5}` {
		t.Errorf("RawEvent = %+v", raw)
	}
}

func TestDecodeEventAcceptsAnyMemberOrder(t *testing.T) {
	ev, err := session.DecodeEvent([]byte(`{"turn":3,"name":"bash","id":"c","type":"tool_started"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := (session.ToolStartedEvent{ID: "c", Name: "bash", Turn: 3}); ev != want {
		t.Errorf("got %#v, want %#v", ev, want)
	}
	// Of duplicate members the last wins, "type" included.
	ev, err = session.DecodeEvent([]byte(`{"type":"tool_started","id":"a","type":"tool_result","result":{"type":"tool_result","id":"a","content":"x"},"turn":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ev.(session.ToolResultEvent); !ok {
		t.Errorf("got %T, want ToolResultEvent", ev)
	}
	ev, err = session.DecodeEvent([]byte(`{"type":"future","type":"user","message":{"content":"hi","role":"user"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ue, ok := ev.(session.UserEvent); !ok || ue.Message.Text != "hi" {
		t.Errorf("got %#v", ev)
	}
}

func TestUnknownEventTypesArePreservedVerbatim(t *testing.T) {
	in := `{"type":"telemetry","data":{"a":[1,2.5e3,"\u00e9"]},"turn":2}`
	ev, err := session.DecodeEvent([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	raw, ok := ev.(session.RawEvent)
	if !ok || raw.Type != "telemetry" || string(raw.JSON) != in {
		t.Fatalf("got %#v", ev)
	}
	out, err := session.MarshalEvent(raw)
	if err != nil || string(out) != in {
		t.Errorf("rewritten as %s (%v)", out, err)
	}
}

// TestAssistantUsageOfAnotherShapeIsSkipped: an assistant record's usage
// and inputEstimate (which calibrate a resumed session) are read back as
// written, and one of another shape (a writer's own, a future version's)
// is skipped as an unknown member is: the record reads, its message
// intact, with no usage.
func TestAssistantUsageOfAnotherShapeIsSkipped(t *testing.T) {
	const msg = `"message":{"role":"assistant","content":"hi"}`
	for _, tc := range []struct {
		in       string
		usage    model.Usage
		estimate int
	}{
		{`{"type":"assistant",` + msg + `,"usage":{"inputTokens":7,"outputTokens":2,"cacheReadTokens":3,"cacheCreationTokens":4},"inputEstimate":5}`,
			model.Usage{InputTokens: 7, OutputTokens: 2, CacheReadTokens: 3, CacheCreationTokens: 4}, 5},
		{`{"inputEstimate":5,"usage":{"future":[1,{"a":2}],"inputTokens":7},` + msg + `,"type":"assistant"}`, model.Usage{InputTokens: 7}, 5},
		{`{"type":"assistant",` + msg + `,"usage":null,"inputEstimate":null}`, model.Usage{}, 0},
		{`{"type":"assistant",` + msg + `,"usage":"7 tokens","inputEstimate":"5"}`, model.Usage{}, 0},
		{`{"type":"assistant",` + msg + `,"usage":[7,2],"inputEstimate":{"n":5}}`, model.Usage{}, 0},
		{`{"type":"assistant",` + msg + `,"usage":{"inputTokens":7.5,"outputTokens":2},"inputEstimate":-5}`, model.Usage{}, 0},
		{`{"type":"assistant",` + msg + `,"usage":{"inputTokens":-7,"outputTokens":2},"inputEstimate":5.5}`, model.Usage{}, 0},
		{`{"type":"assistant",` + msg + `,"usage":{"inputTokens":"7"},"inputEstimate":1e3}`, model.Usage{}, 1000},
	} {
		ev, err := session.DecodeEvent([]byte(tc.in))
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		ae, ok := ev.(session.AssistantEvent)
		if !ok || ae.Message.Text != "hi" || ae.Usage != tc.usage || ae.InputEstimate != tc.estimate {
			t.Errorf("%s: got %#v, want usage %+v, estimate %d", tc.in, ev, tc.usage, tc.estimate)
		}
	}
	// A syntax error inside the usage is still one.
	if _, err := session.DecodeEvent([]byte(`{"type":"assistant",` + msg + `,"usage":{"inputTokens":7,}}`)); err == nil {
		t.Error("a usage of bad JSON decoded")
	}
}

func TestMalformedEventsAreRejected(t *testing.T) {
	for _, in := range []string{
		`{}`,
		`[]`,
		`null`,
		`{"type":7}`,
		`{"type":null}`,
		`{"type":"user"}`,
		`{"type":"user","message":null}`,
		`{"type":"user","message":{"role":"user","content":5}}`,
		`{"type":"user","message":{"role":"user","content":"x"},"checkpoint":"yes"}`,
		`{"type":"assistant","message":"hi"}`,
		`{"type":"tool_started","id":"c","turn":"1"}`,
		`{"type":"tool_started","id":"c","turn":1.5}`,
		`{"type":"tool_result","turn":1}`,
		`{"type":"tool_result","result":{"type":"tool_result","content":1},"turn":1}`,
		`{"type":"file_snapshot","path":"a","before":5,"turn":1}`,
		`{"type":"file_snapshot","path":"a","before":null,"after":true,"turn":1}`,
		`{"type":"permission_decision","call":"x","decision":"allow","by":"auto","turn":1}`,
		`{"type":"summary","messages":{},"throughSeq":1,"before":1,"after":1}`,
		`{"type":"summary","messages":[{"role":"user"}],"throughSeq":1,"before":1,"after":1}`,
		`{"type":"context_view","throughSeq":"1","view":{}}`,
		`{"type":"user","message":{"role":"user","content":"x"}} extra`,
		`{"type":"user","message":{"role":"user","content":"x"}`,
	} {
		if ev, err := session.DecodeEvent([]byte(in)); err == nil {
			t.Errorf("DecodeEvent(%s) = %#v, want an error", in, ev)
		}
	}
}

// TestArtifactRevisionMayBeANumber reads an artifact_verified event whose
// revision is a number: the reference leaves the type to its host, so the
// log must stay readable; the revision reads as its JSON text.
func TestArtifactRevisionMayBeANumber(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"artifact_verified","path":"a","revision":3,"command":"make","result":{},"turn":1}`:      "3",
		`{"type":"artifact_verified","path":"a","revision":-1.5e3,"command":"make","result":{},"turn":1}`: "-1.5e3",
		`{"type":"artifact_verified","path":"a","revision":"r7","command":"make","result":{},"turn":1}`:   "r7",
		`{"type":"artifact_verified","path":"a","revision":null,"command":"make","result":{},"turn":1}`:   "",
	} {
		ev, err := session.DecodeEvent([]byte(in))
		if err != nil {
			t.Errorf("DecodeEvent(%s): %v", in, err)
			continue
		}
		if got := ev.(session.ArtifactVerifiedEvent).Revision; got != want {
			t.Errorf("%s: revision %q, want %q", in, got, want)
		}
	}
	if _, err := session.DecodeEvent([]byte(`{"type":"artifact_verified","path":"a","revision":true,"command":"make","result":{},"turn":1}`)); err == nil {
		t.Error("a boolean revision was accepted")
	}
}

func TestStoredEventJSON(t *testing.T) {
	se := session.StoredEvent{Seq: 1, SessionID: "s1", Time: fixedTime, Event: userText("hi")}
	b, err := json.Marshal(se)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"hi"}}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	var back session.StoredEvent
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, se) {
		t.Errorf("round trip: got %#v, want %#v", back, se)
	}
	se2 := session.StoredEvent{Seq: 7, SessionID: "s1", ParentSeq: 6, Time: fixedTime.Add(1500 * time.Millisecond), Event: userText("x")}
	b, _ = json.Marshal(se2)
	if !strings.Contains(string(b), `"parentSeq":6,"ts":"2026-07-22T12:00:01.500Z"`) {
		t.Errorf("got %s", b)
	}
	for _, bad := range []string{
		`{"seq":1,"sessionId":"s1","parentSeq":null,"event":{"type":"user","message":{"role":"user","content":"hi"}}}`,
		`{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"yesterday","event":{"type":"user","message":{"role":"user","content":"hi"}}}`,
		`{"seq":"1","sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"hi"}}}`,
	} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("Unmarshal(%s) succeeded", bad)
		}
	}
}
