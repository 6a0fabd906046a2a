package liteagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
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
