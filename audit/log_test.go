package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
)

// verifyAll verifies the log at path and fails unless its chain holds.
func verifyAll(t *testing.T, path string, key []byte) Report {
	t.Helper()
	files, err := Files(path)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(t.Context(), files, key)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("the chain is broken: %v", rep.Broken)
	}
	return rep
}

// events returns the event members of the records of the files.
func events(t *testing.T, files []string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, f := range files {
		for _, line := range readLines(t, f) {
			var rec struct{ Event map[string]any }
			if err := json.Unmarshal(line, &rec); err != nil {
				t.Fatal(err)
			}
			out = append(out, rec.Event)
		}
	}
	return out
}

func TestRotationKeepsTheChain(t *testing.T) {
	cases := []struct {
		name      string
		maxFiles  int
		wantFiles int
		wantStart bool
	}{
		{"every file kept", 100, 0, true},
		{"oldest files removed", 3, 3, false},
		{"one file", 1, 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			files := writeLog(t, path, 40, Options{MaxBytes: 1000, MaxFiles: tc.maxFiles})
			if tc.wantFiles > 0 && len(files) != tc.wantFiles {
				t.Fatalf("%d files, want %d: %v", len(files), tc.wantFiles, files)
			}
			if tc.wantFiles == 0 && len(files) < 5 {
				t.Fatalf("only %d files: the log did not rotate", len(files))
			}
			for _, f := range files {
				st, err := os.Stat(f)
				if err != nil {
					t.Fatal(err)
				}
				if st.Size() > 1000 {
					t.Fatalf("%s has %d bytes, over MaxBytes", f, st.Size())
				}
				if st.Mode().Perm() != 0o600 {
					t.Fatalf("%s has mode %v, want 0600", f, st.Mode().Perm())
				}
			}
			rep := verifyAll(t, path, nil)
			if rep.LastSeq != 40 || rep.Start != tc.wantStart {
				t.Fatalf("report %+v: want last seq 40, start %v", rep, tc.wantStart)
			}
			if tc.wantStart && rep.Records != 40 {
				t.Fatalf("%d records, want 40", rep.Records)
			}
		})
	}
}

func TestRecordLargerThanMaxBytesGetsAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := NewLog(path, Options{MaxBytes: 300, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"a", strings.Repeat("b", 1000), "c"} {
		if err := l.Append(t.Context(), engine.Event{Type: engine.EventTextDelta, SessionID: "s", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	files, _ := Files(path)
	if len(files) != 3 {
		t.Fatalf("%d files, want 3", len(files))
	}
	if rep := verifyAll(t, path, nil); rep.Records != 3 {
		t.Fatalf("%d records, want 3", rep.Records)
	}
}

func TestResumeAfterReopen(t *testing.T) {
	key := []byte("k")
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, 3, Options{Key: key, MaxBytes: 1000})
	writeLog(t, path, 5, Options{Key: key, MaxBytes: 1000})
	rep := verifyAll(t, path, key)
	if rep.Records != 8 || rep.LastSeq != 8 || !rep.Start {
		t.Fatalf("report %+v, want 8 records", rep)
	}
}

func TestResumeFromRotatedFileWhenFileIsMissing(t *testing.T) {
	// A crash between the rename of FILE to FILE.1 and the creation of
	// the new FILE.
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, 3, Options{})
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	writeLog(t, path, 2, Options{})
	if rep := verifyAll(t, path, nil); rep.Records != 5 {
		t.Fatalf("%d records, want 5", rep.Records)
	}
}

func TestResumeRefusesAnotherKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, 2, Options{Key: []byte("first")})
	for _, key := range [][]byte{[]byte("second"), nil} {
		l, err := NewLog(path, Options{Key: key, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		err = l.Append(t.Context(), textEvent(3))
		var ce *ChainError
		if !errors.As(err, &ce) || ce.Reason != ReasonHash || ce.Line != 2 || ce.Seq != 2 {
			t.Fatalf("Append with key %q: %v, want a ChainError about the hash of line 2", key, err)
		}
		if cerr := l.Close(); !errors.Is(cerr, err) {
			t.Fatalf("Close returned %v, want the Append's error", cerr)
		}
	}
	if rep := verifyAll(t, path, []byte("first")); rep.Records != 2 {
		t.Fatalf("%d records, want 2: a refused Append wrote", rep.Records)
	}
}

func TestResumeRefusesAMalformedLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, 2, Options{})
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{}\n")
	f.Close()
	l, err := NewLog(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var ce *ChainError
	if err := l.Append(t.Context(), textEvent(3)); !errors.As(err, &ce) || ce.Reason != ReasonMalformed || ce.Line != 3 {
		t.Fatalf("Append after a malformed last line: %v, want a ChainError naming line 3", err)
	}
}

func TestTornLastLineIsSetAsideOnResume(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	writeLog(t, path, 3, Options{})
	lines := readLines(t, path)
	torn := lines[2][:40]
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(torn)
	f.Close()

	rep := verifyAll(t, path, nil)
	if rep.Torn == nil || rep.Torn.Line != 4 || rep.Torn.Reason != ReasonTorn || rep.Records != 3 {
		t.Fatalf("report %+v (torn %v), want 3 records and a torn line 4", rep, rep.Torn)
	}

	writeLog(t, path, 1, Options{})
	rep = verifyAll(t, path, nil)
	if rep.Torn != nil || rep.Records != 4 {
		t.Fatalf("after an append: report %+v (torn %v), want 4 records, nothing torn", rep, rep.Torn)
	}
	aside, _ := filepath.Glob(path + ".torn-*")
	if len(aside) != 1 {
		t.Fatalf("torn lines set aside: %v, want one file", aside)
	}
	if b, _ := os.ReadFile(aside[0]); !bytes.Equal(b, torn) {
		t.Fatalf("the file set aside holds %q, want %q", b, torn)
	}
	if files, _ := Files(path); len(files) != 1 {
		t.Fatalf("Files lists %v: the torn line set aside is not a file of the log", files)
	}
}

func TestConcurrentAppendsFormOneChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	// Two Logs on one file, as two processes would have, each used by
	// several goroutines.
	var logs [2]*Log
	for i := range logs {
		l, err := NewLog(path, Options{MaxBytes: 2000, MaxFiles: 1000, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		logs[i] = l
	}
	const goroutines, each = 6, 30
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				ev := engine.Event{Type: engine.EventTextDelta, SessionID: fmt.Sprintf("s%d", g), Text: fmt.Sprintf("g%d-%d", g, i)}
				if err := logs[g%2].Append(t.Context(), ev); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, l := range logs {
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	rep := verifyAll(t, path, nil)
	if rep.Records != goroutines*each || !rep.Start {
		t.Fatalf("report %+v, want %d records", rep, goroutines*each)
	}
	files, _ := Files(path)
	seen := map[string]bool{}
	for _, ev := range events(t, files) {
		seen[ev["text"].(string)] = true
	}
	for g := range goroutines {
		for i := range each {
			if !seen[fmt.Sprintf("g%d-%d", g, i)] {
				t.Fatalf("record g%d-%d is missing", g, i)
			}
		}
	}
}

func TestAppendRedactsSecrets(t *testing.T) {
	secret := "sk-abcdefghijklmnopqrstuvwxyz012345"
	call := model.ToolCallBlock("c1", "bash", json.RawMessage(`{"command":"curl -H 'Authorization: Bearer abcdefgh12345' x","api_key":"`+secret+`"}`))
	evs := []engine.Event{
		{Type: engine.EventToolCallStart, SessionID: "s", Tool: &engine.ToolEvent{Call: &call}},
		{Type: engine.EventTextDelta, SessionID: "s", Text: "the key is " + secret},
		{Type: engine.EventError, SessionID: "s", Err: errors.New("password=hunter2222"), Fatal: true},
	}
	for _, tc := range []struct {
		name   string
		redact func(json.RawMessage) json.RawMessage
		hidden bool
	}{
		{"default redactor", nil, true},
		{"keep events as they are", func(b json.RawMessage) json.RawMessage { return b }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l, err := NewLog(path, Options{Redact: tc.redact, NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				if err := l.Append(t.Context(), ev); err != nil {
					t.Fatal(err)
				}
			}
			l.Close()
			b, _ := os.ReadFile(path)
			for _, s := range []string{secret, "abcdefgh12345", "hunter2222"} {
				if bytes.Contains(b, []byte(s)) == tc.hidden {
					t.Errorf("the log holds %q: %v, want %v", s, !tc.hidden, !tc.hidden)
				}
			}
			verifyAll(t, path, nil)
		})
	}
}

func TestRedactorReturningInvalidJSONFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := NewLog(path, Options{Redact: func(json.RawMessage) json.RawMessage { return json.RawMessage("{") }, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(t.Context(), textEvent(1)); err == nil {
		t.Fatal("Append with a redactor returning invalid JSON succeeded")
	}
	if l.Err() == nil {
		t.Fatal("Err is nil after a failed Append")
	}
	if b, _ := os.ReadFile(path); len(b) != 0 {
		t.Fatalf("the log holds %q after a failed Append", b)
	}
}

func TestRedactorOutputIsCompacted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	indent := func(b json.RawMessage) json.RawMessage {
		var out bytes.Buffer
		json.Indent(&out, b, "", "\n  ")
		return out.Bytes()
	}
	l, err := NewLog(path, Options{Redact: indent, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	l.Append(t.Context(), textEvent(1))
	l.Append(t.Context(), textEvent(2))
	l.Close()
	if n := len(readLines(t, path)); n != 2 {
		t.Fatalf("%d lines, want 2", n)
	}
	verifyAll(t, path, nil)
}

func TestEventJSON(t *testing.T) {
	call := model.ToolCallBlock("c1", "read_file", json.RawMessage(`{"path":"a.go"}`))
	res := model.ToolResultBlock("c1", "package a", false)
	msg := model.AssistantBlocks(model.TextBlock("hi"), call)
	cases := []struct {
		ev   engine.Event
		want string
	}{
		{engine.Event{Type: engine.EventTurnStart, SessionID: "s", Turn: 1},
			`{"sessionId":"s","turn":1,"type":"turn_start"}`},
		{engine.Event{Type: engine.EventToolCallEnd, SessionID: "s", Turn: 2, Tool: &engine.ToolEvent{Call: &call, IsError: true, Duration: 1500 * time.Millisecond}},
			`{"sessionId":"s","tool":{"call":{"id":"c1","input":{"path":"a.go"},"name":"read_file","type":"tool_call"},"durationMs":1500,"isError":true},"turn":2,"type":"tool_call_end"}`},
		{engine.Event{Type: engine.EventToolResult, SessionID: "s", Tool: &engine.ToolEvent{Result: &res}},
			`{"sessionId":"s","tool":{"result":{"content":"package a","id":"c1","type":"tool_result"}},"type":"tool_result"}`},
		{engine.Event{Type: engine.EventMessage, SessionID: "s", Message: &msg},
			`{"message":{"content":[{"text":"hi","type":"text"},{"id":"c1","input":{"path":"a.go"},"name":"read_file","type":"tool_call"}],"role":"assistant"},"sessionId":"s","type":"message"}`},
		{engine.Event{Type: engine.EventModelCallEnd, SessionID: "s", ModelCall: &engine.ModelCallEvent{Model: "m", Usage: &model.Usage{InputTokens: 3, OutputTokens: 4}, Duration: 2 * time.Second}},
			`{"modelCall":{"durationMs":2000,"model":"m","usage":{"inputTokens":3,"outputTokens":4}},"sessionId":"s","type":"model_call_end"}`},
		{engine.Event{Type: engine.EventPermission, SessionID: "s", Tool: &engine.ToolEvent{Call: &call}, Permission: &engine.PermissionEvent{Decision: engine.DecisionDeny, By: engine.ByPolicy, RuleID: "r1"}},
			`{"permission":{"by":"policy","decision":"deny","ruleId":"r1"},"sessionId":"s","tool":{"call":{"id":"c1","input":{"path":"a.go"},"name":"read_file","type":"tool_call"}},"type":"permission_decision"}`},
		{engine.Event{Type: engine.EventDone, SessionID: "s", Result: &engine.Result{StopReason: engine.StopDone, Turns: 1, Text: "ok", Messages: []model.Message{model.UserText("do it"), msg}}},
			`{"result":{"prompt":{"content":"do it","role":"user"},"stopReason":"stop","text":"ok","turns":1,"usage":{"inputTokens":0,"outputTokens":0}},"sessionId":"s","type":"done"}`},
	}
	for _, tc := range cases {
		t.Run(string(tc.ev.Type), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l, err := NewLog(path, Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Append(t.Context(), tc.ev); err != nil {
				t.Fatal(err)
			}
			l.Close()
			rec, err := decodeRecord(bytes.TrimSuffix(readLines(t, path)[0], []byte("\n")))
			if err != nil {
				t.Fatal(err)
			}
			if string(rec.event) != tc.want {
				t.Fatalf("event\n got %s\nwant %s", rec.event, tc.want)
			}
			if rec.sessionID != "s" || rec.seq != 1 || rec.prevHash != "" {
				t.Fatalf("record %+v", rec)
			}
		})
	}
}

func TestAppendAfterCloseFails(t *testing.T) {
	l, err := NewLog(filepath.Join(t.TempDir(), "audit.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(t.Context(), textEvent(1)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Append after Close: %v, want ErrClosed", err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

func TestNewLogRefuses(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, nil, 0o600)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		path string
		opts Options
		is   error
	}{
		{"empty path", "", Options{}, ErrInvalidOptions},
		{"negative MaxFiles", filepath.Join(dir, "a.jsonl"), Options{MaxFiles: -1}, ErrInvalidOptions},
		{"a symlink", link, Options{}, nil},
		{"a directory", dir, Options{}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := NewLog(tc.path, tc.opts)
			if err == nil {
				l.Close()
				t.Fatal("NewLog succeeded")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("NewLog: %v, want %v", err, tc.is)
			}
		})
	}
}

func TestFailedRotationLosesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := NewLog(path, Options{MaxBytes: 300, MaxFiles: 4, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for i := 1; i <= 2; i++ { // FILE.1 and FILE
		if err := l.Append(t.Context(), textEvent(i)); err != nil {
			t.Fatal(err)
		}
	}
	// A directory where FILE.1 must go makes the next rotation fail.
	if err := os.Mkdir(path+".2", 0o700); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(t.Context(), textEvent(3)); err == nil {
		t.Fatal("Append succeeded though the rotation could not rename FILE.1")
	}
	if err := os.Remove(path + ".2"); err != nil {
		t.Fatal(err)
	}
	for i := 3; i <= 4; i++ {
		if err := l.Append(t.Context(), textEvent(i)); err != nil {
			t.Fatal(err)
		}
	}
	rep := verifyAll(t, path, nil)
	if rep.Records != 4 || !rep.Start {
		t.Fatalf("report %+v, want records 1 to 4", rep)
	}
	if l.Err() == nil {
		t.Fatal("Err forgot the failed Append")
	}
}

func TestEventJSONOfSessionOperations(t *testing.T) {
	cases := []struct {
		ev   engine.Event
		want string
	}{
		{engine.Event{Type: engine.EventCompaction, SessionID: "s", Compaction: &engine.CompactionEvent{Phase: "done", Before: 900, After: 300, Generation: 2}},
			`"compaction":{"phase":"done","before":900,"after":300,"generation":2}`},
		// Whether the figures are the provider's counts.
		{engine.Event{Type: engine.EventCompaction, SessionID: "s", Compaction: &engine.CompactionEvent{Phase: "done", Before: 900, After: 300, BeforeCounted: true, AfterCounted: true, Generation: 2}},
			`"compaction":{"phase":"done","before":900,"after":300,"beforeCounted":true,"afterCounted":true,"generation":2}`},
		{engine.Event{Type: engine.EventContextStatus, SessionID: "s", Context: &engine.ContextStatus{Level: 4, Reason: "room", BeforeTokens: 900, AfterTokens: 300, Counted: true}},
			`"context":{"level":4,"reason":"room","beforeTokens":900,"afterTokens":300,"counted":true}`},
		// A max_tokens the engine lowered, and the input that bounded it.
		{engine.Event{Type: engine.EventModelCallStart, SessionID: "s", ModelCall: &engine.ModelCallEvent{Model: "m", MaxTokens: 40000, MaxTokensFrom: 64000, InputTokens: 150000, InputCounted: true}},
			`"modelCall":{"model":"m","maxTokens":40000,"maxTokensFrom":64000,"inputTokens":150000,"inputCounted":true}`},
		{engine.Event{Type: engine.EventCheckpointRestore, SessionID: "s", Restore: &engine.RestoreEvent{Phase: "progress", ToSeq: 5, Completed: 1, Total: 3, Message: "a.go"}},
			`"restore":{"phase":"progress","toSeq":5,"completed":1,"total":3,"message":"a.go"}`},
	}
	for _, tc := range cases {
		raw, err := encodeEvent(tc.ev)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), tc.want) {
			t.Errorf("event %s, want %s in it", raw, tc.want)
		}
	}
}

// While another open file holds FILE.lock, Append waits for it (until its
// context ends) and writes nothing.
func TestAppendWaitsForTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := NewLog(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	other, err := openLock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := lockFile(t.Context(), other); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := l.Append(ctx, textEvent(1)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Append while the lock is held elsewhere: %v, want context.Canceled", err)
	}
	if err := unlockFile(other); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(ctx, textEvent(2)); err != nil { // the lock is free: no wait
		t.Fatalf("Append with the lock free: %v", err)
	}
	if rep := verifyAll(t, path, nil); rep.Records != 1 {
		t.Fatalf("%d records, want 1", rep.Records)
	}
}
