package liteagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/lite-agent/lite-agent-go/tool"
)

// refundInput is the typed input of the refund tool; its JSON schema is
// inferred from the struct.
type refundInput struct {
	Order  string `json:"order" jsonschema:"the order to refund"`
	Amount int    `json:"amount" jsonschema:"the amount in cents"`
}

// A custom typed tool behind a permission policy that asks: every refund
// goes to the host's OnApproval callback, which allows small ones and
// denies the rest. A denied call never runs; the model reads the denial as
// the call's result, and the turn goes on. The policy is composed with
// permission.Default so that the built-in tools keep their asks: a policy
// of permission.New alone allows every call no rule matches, bash
// included.
func ExampleOptions_onApproval() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "shop-home")
	defer os.RemoveAll(home)

	refund := tool.New("refund", "Refund an order.",
		func(ctx context.Context, _ *tool.Call, in refundInput) (tool.Result, error) {
			fmt.Printf("refunded %d cents on %s\n", in.Amount, in.Order)
			return tool.Text("refunded"), nil
		})
	refunds, err := permission.New(permission.Options{Rules: []permission.Rule{{
		ID: "refunds", Description: "refunds move money", Tool: []string{"refund"}, Effect: permission.Ask,
	}}})
	if err != nil {
		log.Fatal(err)
	}
	approve := func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
		var in refundInput
		if err := json.Unmarshal(req.Call.Input, &in); err != nil {
			return permission.Deny, err
		}
		fmt.Printf("asked about %s %s (%s: %s)\n", req.Call.Name, in.Order, req.Verdict.RuleID, req.Verdict.Reason)
		if in.Amount <= 5000 {
			return permission.Allow, nil
		}
		return permission.Deny, nil
	}

	provider := modeltest.New()
	provider.Reply(
		modeltest.ToolCalls(model.ToolCallBlock("r1", "refund", json.RawMessage(`{"order":"A-1","amount":1999}`))),
		modeltest.ToolCalls(model.ToolCallBlock("r2", "refund", json.RawMessage(`{"order":"B-2","amount":250000}`))),
		modeltest.Text("Refunded A-1; B-2 needs a manager."),
	)
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model: provider, ModelName: "claude-sonnet-4-5", Workdir: ".",
		Storage:    storage.Options{Namespace: "shop", Home: home},
		Tools:      []tool.Tool{refund},
		Permission: permission.Compose(permission.Default(), refunds),
		OnApproval: approve,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	res, err := agent.Send(ctx, "Refund A-1 and B-2.")
	if err != nil {
		log.Fatal(err)
	}
	// What the model read back for each call: its third request holds
	// the second call's result.
	for _, m := range provider.Requests()[2].Messages[1:] {
		for _, b := range m.Blocks {
			if b.Type == model.BlockToolResult {
				fmt.Printf("%s: %s\n", b.ID, b.Content)
			}
		}
	}
	fmt.Println(res.Text)
	// Output:
	// asked about refund A-1 (refunds: refunds move money)
	// refunded 1999 cents on A-1
	// asked about refund B-2 (refunds: refunds move money)
	// r1: refunded
	// r2: Error: denied by user
	// Refunded A-1; B-2 needs a manager.
}

// Tomorrow's process: a new agent on the same encrypted home resumes
// yesterday's session by id and lists the tasks the model made in it with
// Agent.TaskList, which reads the session's private task list through the
// agent's own layout and codec: the host needs neither the list's name nor
// its directory. Every record on disk is an envelope the key alone opens,
// and an agent with another key gets a *storage.Error, not the tasks.
func ExampleAgent_Resume_encryptedTasks() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	work, _ := os.MkdirTemp("", "acme-work")
	defer os.RemoveAll(work)
	aead := func(key []byte) storage.Codec {
		c, err := codec.NewAEAD(codec.AEADOptions{
			KeyID: "k1",
			Key:   func(context.Context, string) ([]byte, error) { return key, nil },
		})
		if err != nil {
			log.Fatal(err)
		}
		return c
	}
	key := bytes.Repeat([]byte{7}, 32) // in production: from your secret store
	opts := func(p model.Provider, c storage.Codec) liteagent.Options {
		return liteagent.Options{Model: p, ModelName: "claude-sonnet-4-5", Workdir: work,
			Storage: storage.Options{Namespace: "acme", Home: home, Codec: c}}
	}

	// Today: the model plans two tasks.
	today := modeltest.New()
	today.Reply(
		modeltest.ToolCalls(
			model.ToolCallBlock("t1", "TaskCreate", json.RawMessage(`{"subject":"Reproduce the bug","description":"Run the failing test."}`)),
		),
		modeltest.ToolCalls(
			model.ToolCallBlock("t2", "TaskCreate", json.RawMessage(`{"subject":"Fix the parser","description":"Handle empty input."}`)),
		),
		modeltest.Text("Two tasks planned."),
	)
	a, err := liteagent.New(ctx, opts(today, aead(key)))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := a.Send(ctx, "Plan the fix of issue 12."); err != nil {
		log.Fatal(err)
	}
	id := a.SessionID()
	a.Close()

	// Tomorrow: the same key opens the session and its tasks.
	enc := aead(key)
	tomorrow := modeltest.New()
	tomorrow.Reply(modeltest.Text("Starting with the reproduction."))
	b, err := liteagent.New(ctx, opts(tomorrow, enc))
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	sessions, err := b.ListSessions(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("stored sessions:", len(sessions), sessions[0].ID == id)
	if err := b.Resume(id); err != nil {
		log.Fatal(err)
	}
	list, err := b.TaskList(ctx, "") // "": the resumed session's list
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range list {
		fmt.Printf("#%s %s (%s)\n", t.ID, t.Subject, t.Status)
	}
	res, err := b.Send(ctx, "Where do we start?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text)

	// Another key reads nothing.
	other, err := liteagent.New(ctx, opts(modeltest.New(), aead(make([]byte, 32))))
	if err != nil {
		log.Fatal(err)
	}
	defer other.Close()
	_, err = other.TaskList(ctx, id)
	var se *storage.Error
	fmt.Println("another key:", errors.As(err, &se))
	// Output:
	// stored sessions: 1 true
	// #1 Reproduce the bug (pending)
	// #2 Fix the parser (pending)
	// Starting with the reproduction.
	// another key: true
}
