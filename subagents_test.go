package liteagent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestSubagentRunsInTheSameLayoutAndReportsBack(t *testing.T) {
	f := newFixture(t)
	c := aeadCodec(t, "k1")
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		delivered := false
		for _, m := range req.Messages {
			delivered = delivered || strings.Contains(m.PlainText(), "<background-task-completed")
		}
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			return modeltest.Text("child found 42").Chunks(), nil
		case delivered:
			return modeltest.Text("the child said 42").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"Finder","subagent_type":"general-purpose","prompt":"find the answer"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	a := f.agent(t, f.options(c))
	res, err := a.Send(t.Context(), "ask a subagent")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "dispatched" {
		t.Errorf("result %+v", res)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	enc := storage.Encoding{Codec: c, Namespace: "acme", ProjectID: a.Paths().Hash}
	cp, err := session.NewFileCheckpointer(a.Paths().SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(a.Paths().SessionsDir)
	var child string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "agent-general-purpose-") && strings.HasSuffix(e.Name(), ".jsonl") {
			child = strings.TrimSuffix(e.Name(), ".jsonl")
		}
	}
	if child == "" {
		t.Fatalf("no child session in %s", a.Paths().SessionsDir)
	}
	childLog, err := cp.Read(t.Context(), child, 0)
	if err != nil || len(childLog) != 2 {
		t.Fatalf("child log (same codec and project): %d records, %v", len(childLog), err)
	}
	raw, _ := os.ReadFile(filepath.Join(a.Paths().SessionsDir, child+".jsonl"))
	if strings.Contains(string(raw), "child found 42") {
		t.Error("child log holds plaintext")
	}
	parent, err := cp.Read(t.Context(), a.SessionID(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var delivered bool
	for _, e := range parent {
		if u, ok := e.Event.(session.UserEvent); ok && u.Origin == session.OriginBackground && strings.Contains(u.Message.PlainText(), "child found 42") {
			delivered = true
		}
	}
	last := parent[len(parent)-1].Event
	if !delivered || last.EventType() != "assistant" || last.(session.AssistantEvent).Message.PlainText() != "the child said 42" {
		t.Errorf("parent log does not end with the delivered group's turn: delivered=%v last=%+v", delivered, last)
	}
}
