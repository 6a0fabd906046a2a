package retention_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/lite-agent/lite-agent-go/retention"
)

func ExampleSweep() {
	home, err := os.MkdirTemp("", "retention-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(home)
	sessions := filepath.Join(home, "projects", "0123456789abcdef", "sessions")
	if err := os.MkdirAll(sessions, 0o700); err != nil {
		log.Fatal(err)
	}
	for name, age := range map[string]time.Duration{"old.jsonl": 45 * 24 * time.Hour, "new.jsonl": time.Hour} {
		p := filepath.Join(sessions, name)
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			log.Fatal(err)
		}
		when := time.Now().Add(-age)
		if err := os.Chtimes(p, when, when); err != nil {
			log.Fatal(err)
		}
	}

	// First look, then sweep.
	for _, dry := range []bool{true, false} {
		rep, err := retention.Sweep(context.Background(), retention.Options{Home: home, DryRun: dry})
		if err != nil {
			log.Fatal(err)
		}
		for _, e := range rep.Removed {
			fmt.Printf("dry=%v %s %s (%d bytes)\n", rep.DryRun, e.Reason, filepath.Base(e.Path), e.Size)
		}
	}
	_, err = os.Stat(filepath.Join(sessions, "old.jsonl"))
	fmt.Println("old.jsonl gone:", os.IsNotExist(err))
	// Output:
	// dry=true age old.jsonl (3 bytes)
	// dry=false age old.jsonl (3 bytes)
	// old.jsonl gone: true
}
