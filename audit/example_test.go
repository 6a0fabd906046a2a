package audit_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/audit"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// An agent's events, its subagents' included, go to the audit log through
// SubscribeAll; Verify then checks the chain.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "audit-example")
	defer os.RemoveAll(dir)
	key := []byte("an HMAC key from your secret store")

	auditLog, err := audit.NewLog(filepath.Join(dir, "audit.jsonl"), audit.Options{Key: key})
	if err != nil {
		log.Fatal(err)
	}
	provider := modeltest.New()
	provider.Reply(modeltest.Text("Hello."))
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model: provider, ModelName: "claude-sonnet-4-5", Workdir: ".",
		Storage: storage.Options{Home: filepath.Join(dir, "home")},
	})
	if err != nil {
		log.Fatal(err)
	}
	unsubscribe, err := agent.SubscribeAll(func(n liteagent.Notice) {
		auditLog.Append(context.Background(), n.Event) // a failure is kept for Err and Close
	})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := agent.Send(ctx, "Say hello."); err != nil {
		log.Fatal(err)
	}
	agent.Close()
	unsubscribe()
	if err := auditLog.Close(); err != nil {
		log.Fatal(err)
	}

	files, err := audit.Files(auditLog.Path())
	if err != nil {
		log.Fatal(err)
	}
	rep, err := audit.Verify(ctx, files, key)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("intact:", rep.OK(), "from seq", rep.FirstSeq)
	// Output: intact: true from seq 1
}
