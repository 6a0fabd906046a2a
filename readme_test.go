package liteagent_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// loadKey stands in for the host's secret store in the README program.
func loadKey(keyID string) ([]byte, error) {
	return nil, errors.New("no key store in this example")
}

// Example_readme is the program the README shows; it compiles with the
// package's tests but does not run (it would call the Anthropic API).
func Example_readme() {
	ctx := context.Background()
	enc, err := codec.NewAEAD(codec.AEADOptions{
		KeyID: "k1", // the key version: part of every record's codec id
		Key:   func(ctx context.Context, keyID string) ([]byte, error) { return loadKey(keyID) },
	})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model:     anthropic.New(anthropic.Options{}), // ANTHROPIC_API_KEY
		ModelName: "claude-sonnet-4-5",
		Workdir:   ".",
		Storage:   storage.Options{Namespace: "acme", Home: "/data/acme", Codec: enc},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	res, err := agent.Send(ctx, "Summarize README.md in three lines.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text, "\nsession:", agent.SessionID())
}

// TestReadmeProgramIsTheExample keeps the README's Go program and
// Example_readme identical, so the README always compiles.
func TestReadmeProgramIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "func main() {\n")
	if !ok {
		t.Fatal("README has no Go program with func main")
	}
	body, _, ok := strings.Cut(after, "\n}\n")
	if !ok {
		t.Fatal("README's main has no end")
	}
	_, exAfter, _ := strings.Cut(string(src), "func Example_readme() {\n")
	exBody, _, _ := strings.Cut(exAfter, "\n}\n")
	if body != exBody {
		t.Errorf("README program and Example_readme differ:\nREADME:\n%s\nexample:\n%s", body, exBody)
	}
	if n := strings.Count(body, "\n") + 1; n > 30 {
		t.Errorf("README program body has %d lines", n)
	}
}
