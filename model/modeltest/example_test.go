package modeltest_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// A scripted model drives a small tool loop the same way every run: first it
// asks for a tool, then it answers with the tool's result in view.
func ExampleProvider() {
	p := modeltest.New()
	p.Reply(modeltest.ToolCalls(model.ToolCallBlock("c1", "read_file", json.RawMessage(`{"path":"greeting.txt"}`))))
	p.Reply(modeltest.Text("The file says hello."))

	ctx := context.Background()
	req := model.Request{Model: "scripted", Messages: []model.Message{model.UserText("What does greeting.txt say?")}}
	for {
		var done model.Chunk
		for c, err := range p.Stream(ctx, req) {
			if err != nil {
				fmt.Println("error:", err)
				return
			}
			switch c.Kind {
			case model.ChunkText:
				fmt.Printf("text %q\n", c.Text)
			case model.ChunkToolCall:
				fmt.Printf("call %s %s\n", c.Block.Name, c.Block.Input)
			case model.ChunkDone:
				done = c
			}
		}
		fmt.Println("stop:", done.StopReason)
		req.Messages = append(req.Messages, done.Message)
		if done.StopReason != model.StopToolUse {
			break
		}
		req.Messages = append(req.Messages, model.UserBlocks(model.ToolResultBlock("c1", "hello", false)))
	}
	fmt.Println("requests:", len(p.Requests()))
	// Output:
	// call read_file {"path":"greeting.txt"}
	// stop: tool_use
	// text "The "
	// text "file "
	// text "says "
	// text "hello."
	// stop: stop
	// requests: 2
}

// Requests returns what the code under test sent, for assertions.
func ExampleProvider_Requests() {
	p := modeltest.New()
	p.Reply(modeltest.Text("ok"))
	req := model.Request{Model: "m", System: "Be brief.", Messages: []model.Message{model.UserText("hi")}}
	for range p.Stream(context.Background(), req) {
	}
	for _, r := range p.Requests() {
		last, _ := json.Marshal(r.Messages[len(r.Messages)-1])
		fmt.Printf("%s %q %s\n", r.Model, r.System, last)
	}
	// Output:
	// m "Be brief." {"role":"user","content":"hi"}
}

// FailAfter scripts a stream that breaks part-way; Fail scripts one that
// fails at once.
func ExampleProvider_FailAfter() {
	p := modeltest.New()
	p.FailAfter([]model.Chunk{{Kind: model.ChunkText, Text: "Hel"}}, model.NewError(model.ClassStream, 0, "connection lost", nil))
	p.Fail(model.NewError(model.ClassRateLimit, 429, "slow down", nil))
	for range 2 {
		for c, err := range p.Stream(context.Background(), model.Request{}) {
			if err != nil {
				fmt.Println("error:", err)
				break
			}
			fmt.Printf("text %q\n", c.Text)
		}
	}
	// Output:
	// text "Hel"
	// error: model: stream: connection lost
	// error: model: rate_limit (HTTP 429): slow down
}

// NewFunc computes replies from the request, here echoing the user.
func ExampleNewFunc() {
	p := modeltest.NewFunc(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
		last := req.Messages[len(req.Messages)-1]
		return modeltest.Reply{
			Message: model.AssistantText("You said: " + last.PlainText()),
			Usage:   model.Usage{InputTokens: 5, OutputTokens: 3},
		}.Chunks(), nil
	})
	for c, err := range p.Stream(context.Background(), model.Request{Messages: []model.Message{model.UserText("ping")}}) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if c.Kind == model.ChunkDone {
			fmt.Println(c.Message.PlainText(), c.Usage.InputTokens, c.Usage.OutputTokens)
		}
	}
	// Output:
	// You said: ping 5 3
}

// Chunks shows exactly what a reply streams.
func ExampleReply_Chunks() {
	for _, c := range modeltest.Text("Hello, world!").Chunks() {
		switch c.Kind {
		case model.ChunkText:
			fmt.Printf("text %q\n", c.Text)
		case model.ChunkDone:
			msg, _ := json.Marshal(c.Message)
			fmt.Printf("done %s %s\n", c.StopReason, msg)
		}
	}
	// Output:
	// text "Hello, "
	// text "world!"
	// done stop {"role":"assistant","content":[{"type":"text","text":"Hello, world!"}]}
}
