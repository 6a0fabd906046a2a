package liteagent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool"
)

// crashChildEnv makes the test binary a child agent that starts a tool
// call which never returns, says "ready" on stdout, and waits to be
// killed. Its value is "<home> <workdir>".
const crashChildEnv = "LITE_AGENT_CRASH_CHILD"

// crashSession is the session the child works in.
const crashSession = "crash-session"

func TestMain(m *testing.M) {
	if v := os.Getenv(crashChildEnv); v != "" {
		os.Exit(runCrashChild(v))
	}
	if v := os.Getenv(forkChildEnv); v != "" {
		os.Exit(runForkChild(v))
	}
	if v := os.Getenv(deleteChildEnv); v != "" {
		os.Exit(runDeleteChild(v))
	}
	if v := os.Getenv(forkRaceChildEnv); v != "" {
		os.Exit(runForkRaceChild(v))
	}
	if v := os.Getenv(startChildEnv); v != "" {
		os.Exit(runStartChild(v))
	}
	if v := os.Getenv(deleteAgentChildEnv); v != "" {
		os.Exit(runDeleteAgentChild(v))
	}
	if v := os.Getenv(sessionOpChildEnv); v != "" {
		os.Exit(runSessionOpChild(v))
	}
	os.Exit(m.Run())
}

func runCrashChild(v string) int {
	home, workdir, _ := strings.Cut(v, " ")
	hang := tool.New("hang", "Never returns.", func(ctx context.Context, _ *tool.Call, _ struct{}) (tool.Result, error) {
		fmt.Println("ready")
		select {}
	})
	p := modeltest.New()
	p.Reply(modeltest.ToolCalls(model.ToolCallBlock("h1", "hang", []byte(`{}`))))
	a, err := liteagent.New(context.Background(), liteagent.Options{
		Model: p, ModelName: "test-model", Workdir: workdir, Storage: storage.Options{Home: home},
		Tools: []tool.Tool{hang}, LogToolStarts: true,
		OnApproval: approveAll,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := a.Resume(crashSession); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	_, err = a.Send(context.Background(), "hang")
	fmt.Fprintln(os.Stderr, "the hanging call returned:", err)
	return 2
}

// An agent process killed while a tool runs leaves the call's start in the
// log; the next prompt, in a new process, answers the call as interrupted
// and reports it with a tool_recovered event.
func TestAKilledAgentsCallIsRecoveredByTheNextPrompt(t *testing.T) {
	f := newFixture(t)
	child := childtest.Start(t, "ready", crashChildEnv+"="+f.home+" "+f.workdir)
	if err := child.Kill(); err != nil {
		t.Fatal(err)
	}

	opts := f.options(nil)
	opts.Storage.Namespace = "" // the child used the default namespace
	a := f.agent(t, opts)
	// The killed child's session lock, as old as a kill long ago: the
	// prompt takes it over by the stale rule without waiting out
	// filelock.DefaultStale.
	staleLock(t, filepath.Join(a.Paths().SessionsDir, crashSession+session.LogSuffix))
	if err := a.Resume(crashSession); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("Sorry, that call was interrupted."))
	var recovered []string
	for ev, err := range a.Run(t.Context(), "what happened?") {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventToolRecovered {
			recovered = append(recovered, ev.Tool.Call.ID+" "+ev.Tool.Call.Name)
		}
	}
	if !slices.Equal(recovered, []string{"h1 hang"}) {
		t.Errorf("tool_recovered %v", recovered)
	}
	cp, err := session.NewFileCheckpointer(a.Paths().SessionsDir, session.FileOptions{Encoding: storage.Encoding{ProjectID: a.Paths().Hash}})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(t.Context(), crashSession, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, e.Event.EventType())
		if tr, ok := e.Event.(session.ToolResultEvent); ok && tr.Result.Content != "Error: interrupted before completion (hang)" {
			t.Errorf("result %q", tr.Result.Content)
		}
	}
	if want := []string{"user", "assistant", "tool_started", "tool_result", "user", "assistant"}; !slices.Equal(kinds, want) {
		t.Errorf("log %v, want %v", kinds, want)
	}
}
