package liteagent_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

func TestAgentResumesASessionWithATornTail(t *testing.T) {
	f := newFixture(t)
	a1 := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("first answer"))
	if _, err := a1.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a1.SessionID()
	a1.Close()
	log := filepath.Join(a1.Paths().SessionsDir, id+".jsonl")
	lf, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	torn := `{"seq":3,"sessionId":"` + id + `","parentSeq":2,"ts":"2026-` // an append killed mid-write
	lf.WriteString(torn)
	lf.Close()

	a2 := f.agent(t, f.options(nil))
	if err := a2.Resume(id); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("second answer"))
	if _, err := a2.Send(t.Context(), "second"); err != nil {
		t.Fatalf("a torn tail stopped the next turn: %v", err)
	}
	if msgs := f.p.Requests()[1].Messages; len(msgs) != 3 || msgs[1].PlainText() != "first answer" {
		t.Errorf("history %+v", msgs)
	}
	aside, _ := filepath.Glob(log + ".torn-*")
	if len(aside) != 1 {
		t.Fatalf("torn copies %v, want one", aside)
	}
	if b, _ := os.ReadFile(aside[0]); string(b) != torn {
		t.Errorf("torn copy holds %q", b)
	}
}

func TestATurnThatCreatesNoTaskLeavesNoTaskList(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("nothing to track"))
	if _, err := a.Send(t.Context(), "hello"); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(a.Paths().TasksDir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if len(ents) != 0 {
		t.Errorf("task lists left by a turn without tasks: %v", ents)
	}
}
