package liteagent_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// A runHookLine is what a run hook command appended: its payload's event,
// session, prompt (run:start) and status (run:end).
type runHookLine struct {
	Event     string          `json:"event"`
	SessionID string          `json:"sessionId"`
	Input     json.RawMessage `json:"input"`
	Status    string          `json:"status"`
}

// String is the line as a test message shows it.
func (l runHookLine) String() string {
	return l.Event + " " + l.SessionID + " " + string(l.Input) + l.Status
}

// recordRunHooks gives opts real command hooks of run:start and run:end,
// shell commands that append their payload to a file, one a line, and
// returns a function that reads the lines appended so far.
func recordRunHooks(t *testing.T, opts *liteagent.Options) func() []runHookLine {
	t.Helper()
	return recordHooks(t, opts, hook.EventRunStart, hook.EventRunEnd)
}

// recordHooks is recordRunHooks for the hooks of events.
func recordHooks(t *testing.T, opts *liteagent.Options, events ...hook.Event) func() []runHookLine {
	t.Helper()
	log := filepath.Join(t.TempDir(), "hooks.log")
	cmd := "cat >> '" + log + "'; echo >> '" + log + "'"
	for _, ev := range events {
		opts.Hooks = append(opts.Hooks, hook.Hook{Event: ev, Command: cmd})
	}
	return func() []runHookLine {
		t.Helper()
		data, err := os.ReadFile(log)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		var lines []runHookLine
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			var l runHookLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatalf("a hook wrote %q: %v", sc.Text(), err)
			}
			lines = append(lines, l)
		}
		return lines
	}
}

// checkNoRunHooks fails t when hook lines were appended after the first
// before of them: the run hooks of a run that did not happen (what says
// what it was).
func checkNoRunHooks(t *testing.T, lines func() []runHookLine, before int, what string) {
	t.Helper()
	if got := lines(); len(got) > before {
		t.Errorf("%s ran hooks: %v; want none", what, got[before:])
	}
}

// resumeThenPrompt resumes id in a (Resume, not ResumeStored: the id is
// taken as it is) and checks that a prompt then runs on it, and, when
// lines is not nil, that it fired run:start and run:end (completed) of
// id.
func resumeThenPrompt(t *testing.T, f *fixture, a *liteagent.Agent, id string, lines func() []runHookLine) {
	t.Helper()
	if err := a.Resume(id); err != nil {
		t.Fatal(err)
	}
	before := 0
	if lines != nil {
		before = len(lines())
	}
	f.p.Reply(modeltest.Text("after Resume"))
	if _, err := a.Send(t.Context(), "a prompt after Resume"); err != nil {
		t.Errorf("a prompt after Resume: %v", err)
	}
	if lines == nil {
		return
	}
	got := lines()[before:]
	if len(got) != 2 || got[0].Event != string(hook.EventRunStart) || got[1].Event != string(hook.EventRunEnd) ||
		got[0].SessionID != id || got[1].SessionID != id || got[1].Status != string(hook.StatusCompleted) {
		t.Errorf("the prompt after Resume ran hooks %v; want run:start and run:end (completed) of %s", got, id)
	}
}

// agentWithStore opens the agent of opts, storing through the Store that
// withStore sets in opts when withStore is not nil, and returns it with
// what a child needs to open that store ("" for the data home).
func agentWithStore(t *testing.T, f *fixture, opts *liteagent.Options, withStore func(*testing.T, *liteagent.Options) string) (*liteagent.Agent, string) {
	t.Helper()
	store := ""
	if withStore != nil {
		store = withStore(t, opts)
	}
	return f.agent(t, *opts), store
}
