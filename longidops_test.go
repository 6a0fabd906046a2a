package liteagent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestAnAgentRunsEveryOperationOnAnIDOfMaxIDLength runs, on a real file
// system, what an agent does to a session with an id of
// storage.MaxIDLength characters: turns that archive a tool result and
// write its private task list, a compaction, a fork, a restore and a
// delete. Each makes files named after the id (locks, temp files, the
// archive, the task list and its lock, the log set aside by a delete);
// none may fail for its name's length.
func TestAnAgentRunsEveryOperationOnAnIDOfMaxIDLength(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.ContextWindow = 4000
	a := f.agent(t, opts)
	ctx := t.Context()
	id := strings.Repeat("i", storage.MaxIDLength)
	if err := a.StartSession(ctx, id); err != nil {
		t.Fatalf("StartSession: %v", err)
	}
	ref := sessionWithData(t, f, a)
	p := a.Paths()
	if _, err := os.Stat(filepath.Join(p.ArchiveDir(id), archive.NotesDir, ref+".md")); err != nil {
		t.Errorf("the archived note: %v", err)
	}
	if tasks, err := a.TaskList(ctx, id); err != nil || len(tasks) != 2 {
		t.Errorf("TaskList = %v, %v; want the two tasks the turn made", tasks, err)
	}
	f.p.Reply(modeltest.Text("summary"))
	if _, err := a.CompactSession(ctx, id, liteagent.CompactOptions{}); err != nil {
		t.Errorf("CompactSession: %v", err)
	}
	forked, err := a.Fork(ctx, id, liteagent.ForkAtHead)
	if err != nil {
		t.Fatalf("Fork: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.SessionsDir, forked+".jsonl")); err != nil {
		t.Errorf("the fork's log: %v", err)
	}
	cps, err := a.Checkpoints(ctx, id)
	if err != nil || len(cps) == 0 {
		t.Fatalf("Checkpoints = %v, %v", cps, err)
	}
	if _, err := a.Restore(ctx, id, cps[0].Seq, liteagent.RestoreOptions{}); err != nil {
		t.Errorf("Restore: %v", err)
	}
	f.p.Reply(modeltest.Text("after the restore"))
	if err := a.Resume(id); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Send(ctx, "again"); err != nil {
		t.Errorf("Send after the restore: %v", err)
	}
	if err := a.DeleteSession(ctx, id); err != nil {
		t.Fatalf("DeleteSession: %v", err)
	}
	for _, gone := range []string{filepath.Join(p.SessionsDir, id+".jsonl"), p.ArchiveDir(id), filepath.Join(p.TasksDir, id)} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("DeleteSession left %s", filepath.Base(gone))
		}
	}
	ents, err := os.ReadDir(p.SessionsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), id) {
			t.Errorf("left in the sessions directory: %s", e.Name())
		}
	}
}
