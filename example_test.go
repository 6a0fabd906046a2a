package liteagent_test

import (
	"context"
	"fmt"
	"log"
	"os"

	liteagent "github.com/lite-agent/lite-agent-go"
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
