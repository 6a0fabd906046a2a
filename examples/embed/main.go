// Command embed is the program the README shows: an agent with its own
// namespace and data home, whose records are encrypted with a key that the
// host supplies. Run it with ANTHROPIC_API_KEY set and ACME_KEY holding 64
// hex digits (for example `openssl rand -hex 32`).
package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

func main() {
	home, err := os.UserHomeDir()
	if err != nil {
		log.Fatal(err)
	}
	// anthropic.New reads ANTHROPIC_API_KEY; the data home is ~/.acme-agent.
	err = run(context.Background(), anthropic.New(anthropic.Options{}), filepath.Join(home, ".acme-agent"), os.Stdout)
	if err != nil {
		log.Fatal(err)
	}
}

// run asks one question in the current directory and prints the answer.
func run(ctx context.Context, m model.Provider, home string, out io.Writer) error {
	// Check the key first: the SDK never shows a codec callback's error
	// (it may hold key material), so a bad key would otherwise surface as
	// "Storage encode failed" at the first write.
	if _, err := loadKey("k1"); err != nil {
		return err
	}
	enc, err := codec.NewAEAD(codec.AEADOptions{
		KeyID: "k1", // the key version: part of every record's codec id
		Key:   func(ctx context.Context, keyID string) ([]byte, error) { return loadKey(keyID) },
	})
	if err != nil {
		return err
	}
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model:     m,
		ModelName: "claude-sonnet-4-5",
		Workdir:   ".",
		Storage:   storage.Options{Namespace: "acme", Home: home, Codec: enc},
	})
	if err != nil {
		return err
	}
	defer agent.Close()
	res, err := agent.Send(ctx, "Summarize README.md in three lines.")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\nsession: %s\n", res.Text, agent.SessionID())
	return err
}

// loadKey stands for your secret store: it returns the 32-byte key of a key
// id. Here the one key comes from the ACME_KEY environment variable.
func loadKey(keyID string) ([]byte, error) {
	key, err := hex.DecodeString(os.Getenv("ACME_KEY"))
	if err != nil || len(key) != 32 {
		return nil, fmt.Errorf("key %s: set ACME_KEY to 64 hex digits", keyID)
	}
	return key, nil
}
