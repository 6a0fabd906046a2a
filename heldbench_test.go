package liteagent_test

import (
	"fmt"
	"path/filepath"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// BenchmarkToolWritesTurn measures a turn in the data home whose model
// calls TaskCreate and the context tool (a search of the session's
// archive) ten times each, in one reply, then answers: the task and archive
// work of a turn, each call of which holds the session (see
// sessionheld.go).
func BenchmarkToolWritesTurn(b *testing.B) {
	a, p := benchAgent(b)
	b.ResetTimer()
	for i := range b.N {
		var calls []model.Block
		for j := range 10 {
			calls = append(calls,
				call(fmt.Sprintf("t%d-%d", i, j), "TaskCreate", fmt.Sprintf(`{"subject":"task %d %d","description":"d"}`, i, j)),
				call(fmt.Sprintf("c%d-%d", i, j), "context", `{"query":"nothing"}`))
		}
		p.Reply(modeltest.ToolCalls(calls...))
		p.Reply(modeltest.Text("done"))
		if _, err := a.Send(b.Context(), "go"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHeldWrites measures an archive Put and Search and a task
// Create of a session in the data home outside a turn (nothing holds the
// session, as for a tool running longer than the turn's lock idles, or a
// background subagent's outcome), held and stored-checked ("held") and
// as the store does them ("raw").
func BenchmarkHeldWrites(b *testing.B) {
	a, _ := benchAgent(b)
	id := a.SessionID()
	for _, held := range []bool{false, true} {
		name := "raw"
		arOf, stOf := liteagent.ArchiveFor, liteagent.TaskStore
		if held {
			name = "held"
			arOf, stOf = liteagent.SessionArchive, liteagent.TaskWriter
		}
		b.Run("put/"+name, func(b *testing.B) {
			ar, err := arOf(b.Context(), a, id)
			if err != nil {
				b.Fatal(err)
			}
			for i := range b.N {
				if _, err := ar.Put(b.Context(), fmt.Sprint("content ", i), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("search/"+name, func(b *testing.B) {
			ar, err := arOf(b.Context(), a, id)
			if err != nil {
				b.Fatal(err)
			}
			for range b.N {
				if _, err := ar.Search(b.Context(), archive.Query{Text: "content 1"}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("task/"+name, func(b *testing.B) {
			st, err := stOf(b.Context(), a, id)
			if err != nil {
				b.Fatal(err)
			}
			for i := range b.N {
				if _, err := st.Create(b.Context(), task.CreateInput{Subject: fmt.Sprint("t", i), Description: "d"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchAgent returns an agent in a data home of b's and its model, after
// a first turn.
func benchAgent(b *testing.B) (*liteagent.Agent, *modeltest.Provider) {
	b.Setenv("HOME", b.TempDir())
	b.Setenv(storage.HomeEnv, "")
	b.Setenv(liteagent.TaskListEnv, "")
	p := modeltest.New()
	a, err := liteagent.New(b.Context(), liteagent.Options{
		Model: p, ModelName: "test-model", Workdir: b.TempDir(),
		Storage:    storage.Options{Namespace: "acme", Home: filepath.Join(b.TempDir(), "home")},
		OnApproval: approveAll,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	p.Reply(modeltest.Text("ready"))
	if _, err := a.Send(b.Context(), "start"); err != nil {
		b.Fatal(err)
	}
	return a, p
}
