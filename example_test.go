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
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// The README's program: an agent with its own namespace and data home whose
// records are encrypted with a key the host supplies. A scripted model
// stands in for anthropic.New(anthropic.Options{}) so the example runs
// offline.
func Example() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	key := make([]byte, 32) // in production: from your secret store
	enc, err := codec.NewAEAD(codec.AEADOptions{
		KeyID: "k1",
		Key:   func(ctx context.Context, keyID string) ([]byte, error) { return key, nil },
	})
	if err != nil {
		log.Fatal(err)
	}
	provider := modeltest.New()
	provider.Reply(modeltest.Text("Hello from acme."))

	agent, err := liteagent.New(ctx, liteagent.Options{
		Model:     provider,
		ModelName: "claude-sonnet-4-5",
		Workdir:   ".",
		Storage:   storage.Options{Namespace: "acme", Home: home, Codec: enc},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	res, err := agent.Send(ctx, "Say hello.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text)
	// Output: Hello from acme.
}

// A structured answer: the model calls final_answer with input that follows
// the schema inferred from Forecast, and the result decodes into one.
func ExampleDecodeOutput() {
	type Forecast struct {
		City  string `json:"city"`
		TempC int    `json:"tempC"`
	}
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "forecast-home")
	defer os.RemoveAll(home)
	schema, err := liteagent.OutputSchemaFor[Forecast]()
	if err != nil {
		log.Fatal(err)
	}
	provider := modeltest.New()
	provider.Reply(
		modeltest.ToolCalls(model.ToolCallBlock("c1", liteagent.FinalAnswerTool, json.RawMessage(`{"city":"Oslo","tempC":-3}`))),
		modeltest.Text("Recorded."),
	)
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model: provider, ModelName: "claude-sonnet-4-5", Workdir: ".",
		Storage:      storage.Options{Home: home},
		OutputSchema: schema,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	res, err := agent.Send(ctx, "What is the weather in Oslo?")
	if err != nil {
		log.Fatal(err)
	}
	f, err := liteagent.DecodeOutput[Forecast](res)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d°C\n", f.City, f.TempC)
	// Output: Oslo: -3°C
}

// Streaming a prompt: the events and their kinds come from this package
// alone.
func ExampleAgent_Run() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "run-home")
	defer os.RemoveAll(home)
	provider := modeltest.New()
	provider.Reply(modeltest.Text("Hi there."))
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model:     provider,
		ModelName: "claude-sonnet-4-5",
		Workdir:   ".",
		Storage:   storage.Options{Home: home},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	for ev, err := range agent.Run(ctx, "Say hi.") {
		if err != nil {
			log.Fatal(err)
		}
		switch ev.Type {
		case liteagent.EventTextDelta:
			fmt.Print(ev.Text)
		case liteagent.EventDone:
			fmt.Println()
			fmt.Println(ev.Result.StopReason == liteagent.StopDone)
		}
	}
	// Output:
	// Hi there.
	// true
}
