//go:build unix

package engine_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// compactChildEnv makes the test binary a child that compacts session
// "s" of a file checkpointer, as `sessions compact` in another process
// does, with a summary whose request says "ready" and waits for its
// standard input to close (or to be killed). It writes what Compact
// returned to the result file. Its value is "<sessions dir>\n<result
// file>".
const compactChildEnv = "LITE_AGENT_ENGINE_COMPACT_CHILD"

func runCompactChild(v string) int {
	dir, result, ok := strings.Cut(v, "\n")
	if !ok {
		fmt.Fprintln(os.Stderr, "bad", compactChildEnv)
		return 2
	}
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var once sync.Once
	sp := modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) {
		once.Do(func() { fmt.Println("ready") })
		_, _ = io.Copy(io.Discard, os.Stdin) // until released or killed
		return modeltest.Text("the summary").Chunks(), nil
	})
	eng, err := engine.New(engine.Options{Provider: modeltest.New(), Checkpointer: cp, Model: "m", Context: &engine.ContextOptions{Window: 3000,
		Summary: func(string) compaction.Pass {
			return compaction.Summary(sp, compaction.SummaryOptions{Base: []compaction.Pass{}, Threshold: 1})
		}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	res, err := eng.Compact(context.Background(), "s", engine.CompactOptions{})
	if err := os.WriteFile(result, fmt.Appendf(nil, "committed=%v err=%v", res.Committed, err), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// readAll returns the stored events of session s.
func readAll(t *testing.T, cp session.Checkpointer) []session.StoredEvent {
	t.Helper()
	evs, err := cp.Read(t.Context(), "s", 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestCompactKilledMidSummaryLosesNothing: a process killed while its
// compaction waits for the summary leaves the log as it was, with no
// view, and another process compacts it and runs a turn on it.
func TestCompactKilledMidSummaryLosesNothing(t *testing.T) {
	dir := t.TempDir()
	cp := fileCheckpointer(t, dir)
	next := 0
	appendTurns(t, cp, "s", 80, &next)
	before := readAll(t, cp)
	child := childtest.Start(t, "ready", compactChildEnv+"="+dir+"\n"+filepath.Join(t.TempDir(), "result"))
	if err := child.Kill(); err != nil {
		t.Fatal(err)
	}
	// The session's lock, which the killed child held: stale
	// (TestTheLockOfAProcessKilledMidTurnIsTakenOver waits the stale
	// period out).
	childtest.StaleLocks(t, dir)
	if after := readAll(t, fileCheckpointer(t, dir)); !reflect.DeepEqual(after, before) {
		t.Fatalf("the log changed: %d events before, %d after", len(before), len(after))
	}
	h := newHarness(t, engine.Options{Checkpointer: fileCheckpointer(t, dir), Context: &engine.ContextOptions{Window: 3000}})
	if res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{}); err != nil || !res.Committed {
		t.Fatalf("Compact after the crash = %+v, %v", res, err)
	}
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
}

// TestCompactLosesNoEventAnotherProcessAppends: events another process
// appends while a compaction waits for its summary are never hidden
// behind the view: the compaction, which read the log before them, fails
// rather than commit a view that does not hold them, and the next request
// carries them.
func TestCompactLosesNoEventAnotherProcessAppends(t *testing.T) {
	dir := t.TempDir()
	cp := fileCheckpointer(t, dir)
	next := 0
	appendTurns(t, cp, "s", 80, &next)
	head := int64(len(readAll(t, cp)))
	result := filepath.Join(t.TempDir(), "result")
	child := childtest.Start(t, "ready", compactChildEnv+"="+dir+"\n"+result)
	if _, err := fileCheckpointer(t, dir).Append(t.Context(), "s", []session.Event{
		session.UserEvent{Message: model.UserText("written meanwhile")},
		session.AssistantEvent{Message: model.AssistantText("noted meanwhile")},
	}, head); err != nil {
		t.Fatal(err)
	}
	if err := child.Release(); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(result)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range views(t, cp, "s") {
		if v.Event.(session.ContextViewEvent).ThroughSeq > head {
			t.Errorf("a view through seq %d covers the events appended after %d (the child said %s)", v.Event.(session.ContextViewEvent).ThroughSeq, head, out)
		}
	}
	h := newHarness(t, engine.Options{Checkpointer: fileCheckpointer(t, dir), Context: &engine.ContextOptions{Window: 3000}})
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
	req := messagesJSON(t, h.p.Requests()[0].Messages)
	if !strings.Contains(req, "written meanwhile") || !strings.Contains(req, "noted meanwhile") {
		t.Errorf("the next request lost the events appended during the compaction (the child said %s)", out)
	}
	t.Logf("the child said %s", out)
}
