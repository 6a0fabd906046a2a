package liteagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A session outlives its process: a second agent on the same data home and
// workdir (tomorrow's process, say) resumes it by id, and the model sees the
// earlier turn.
func ExampleAgent_Resume() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	work, _ := os.MkdirTemp("", "acme-work")
	defer os.RemoveAll(work)
	opts := func(p model.Provider) liteagent.Options {
		return liteagent.Options{Model: p, ModelName: "claude-sonnet-4-5", Workdir: work,
			Storage: storage.Options{Namespace: "acme", Home: home}}
	}

	first := modeltest.New()
	first.Reply(modeltest.Text("Noted: the meeting is at 10."))
	a, err := liteagent.New(ctx, opts(first))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := a.Send(ctx, "The meeting is at 10."); err != nil {
		log.Fatal(err)
	}
	id := a.SessionID()
	a.Close()

	second := modeltest.New()
	second.Reply(modeltest.Text("At 10."))
	b, err := liteagent.New(ctx, opts(second))
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	if err := b.Resume(id); err != nil {
		log.Fatal(err)
	}
	res, err := b.Send(ctx, "When is the meeting?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text)
	fmt.Println("messages the model saw:", len(second.Requests()[0].Messages))
	// Output:
	// At 10.
	// messages the model saw: 3
}

// Fork copies a session into a new one, which then goes its own way; the
// original is not touched.
func ExampleAgent_Fork() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	provider := modeltest.New()
	provider.Reply(modeltest.Text("Plan A."), modeltest.Text("Plan B."))
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model: provider, ModelName: "claude-sonnet-4-5", Workdir: ".",
		Storage: storage.Options{Namespace: "acme", Home: home},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	if _, err := agent.Send(ctx, "Suggest a plan."); err != nil {
		log.Fatal(err)
	}
	original := agent.SessionID()
	fork, err := agent.Fork(ctx, original, liteagent.ForkAtHead)
	if err != nil {
		log.Fatal(err)
	}
	if err := agent.Resume(fork); err != nil {
		log.Fatal(err)
	}
	res, err := agent.Send(ctx, "Another one?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text)
	for _, id := range []string{original, fork} {
		cps, err := agent.Checkpoints(ctx, id)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("prompts:", len(cps))
	}
	// Output:
	// Plan B.
	// prompts: 1
	// prompts: 2
}

// Restore rewinds a session to a checkpoint: the files the file tools
// changed after it are put back, and the conversation is cut there.
func ExampleAgent_Restore() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	work, _ := os.MkdirTemp("", "acme-work")
	defer os.RemoveAll(work)
	notes := filepath.Join(work, "notes.txt")
	_ = os.WriteFile(notes, []byte("draft\n"), 0o600)

	provider := modeltest.New()
	provider.Reply(
		modeltest.ToolCalls(model.ToolCallBlock("w", "write_file", json.RawMessage(`{"path":"notes.txt","content":"final\n"}`))),
		modeltest.Text("Rewritten."),
	)
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model: provider, ModelName: "claude-sonnet-4-5", Workdir: work,
		Storage: storage.Options{Namespace: "acme", Home: home},
		// The default policy asks before write_file; this host says yes.
		OnApproval: func(context.Context, permission.ApprovalRequest) (permission.Decision, error) {
			return permission.Allow, nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	if _, err := agent.Send(ctx, "Rewrite notes.txt."); err != nil {
		log.Fatal(err)
	}
	b, _ := os.ReadFile(notes)
	fmt.Printf("after the turn: %s", b)

	cps, err := agent.Checkpoints(ctx, agent.SessionID())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("checkpoint %d before %q changed %v\n", cps[0].Seq, cps[0].Prompt, cps[0].Files)
	res, err := agent.Restore(ctx, agent.SessionID(), cps[0].Seq, liteagent.RestoreOptions{})
	if err != nil {
		log.Fatal(err)
	}
	b, _ = os.ReadFile(notes)
	fmt.Printf("restored: %s", b)
	fmt.Println("events dropped:", res.DroppedEvents)
	// Output:
	// after the turn: final
	// checkpoint 0 before "Rewrite notes.txt." changed [notes.txt]
	// restored: draft
	// events dropped: 5
}

// Subscribe sees every event of the agent's runs: those of Send, which
// returns only the result, and those of the turns that deliver background
// work, which no caller runs.
func ExampleAgent_Subscribe() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	provider := modeltest.New()
	provider.Reply(modeltest.Text("Hi."))
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model: provider, ModelName: "claude-sonnet-4-5", Workdir: ".",
		Storage: storage.Options{Namespace: "acme", Home: home},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	unsubscribe, err := agent.Subscribe(func(n liteagent.Notice) {
		switch n.Event.Type {
		case liteagent.EventTurnStart, liteagent.EventMessage, liteagent.EventDone:
			fmt.Println(n.Source, n.Event.Type)
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	defer unsubscribe()
	if _, err := agent.Send(ctx, "Hello."); err != nil {
		log.Fatal(err)
	}
	// Output:
	// user turn_start
	// user message
	// user done
}

// StartSession starts a session under an id the caller chose (a ticket
// number, say), and fails with ErrSessionExists when the id is taken,
// here by an earlier session, in another process as much as in this one;
// ResumeStored resumes only a session that is still stored.
func ExampleAgent_StartSession() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	work, _ := os.MkdirTemp("", "acme-work")
	defer os.RemoveAll(work)
	p := modeltest.New()
	p.Reply(modeltest.Text("Looking into TICKET-42."))
	a, err := liteagent.New(ctx, liteagent.Options{Model: p, ModelName: "claude-sonnet-4-5", Workdir: work,
		Storage: storage.Options{Namespace: "acme", Home: home}})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()

	if err := a.StartSession(ctx, "ticket-42"); err != nil {
		log.Fatal(err)
	}
	res, err := a.Send(ctx, "Triage TICKET-42.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text)

	err = a.StartSession(ctx, "ticket-42")
	fmt.Println("start it again:", errors.Is(err, liteagent.ErrSessionExists))
	err = a.ResumeStored(ctx, "ticket-43")
	fmt.Println("resume one never stored:", errors.Is(err, session.ErrNotFound))
	// Output:
	// Looking into TICKET-42.
	// start it again: true
	// resume one never stored: true
}
