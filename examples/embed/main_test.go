package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// TestRunStoresEncryptedRecords runs the README's program against a
// scripted model: it prints the answer and the session id, and nothing it
// stored under the home holds the prompt or the answer in clear.
func TestRunStoresEncryptedRecords(t *testing.T) {
	t.Setenv("ACME_KEY", strings.Repeat("ab", 32))
	t.Chdir(t.TempDir())
	home := filepath.Join(t.TempDir(), "acme-home")
	p := modeltest.New()
	p.Reply(modeltest.Text("Three lines of summary."))
	var out bytes.Buffer
	if err := run(t.Context(), p, home, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "Three lines of summary.\nsession: ") {
		t.Fatalf("output %q", out.String())
	}
	var files int
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if bytes.Contains(b, []byte("Summarize README.md")) || bytes.Contains(b, []byte("Three lines of summary")) {
			t.Errorf("%s holds plaintext", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("nothing was stored")
	}
}

// TestRunWithoutKeyFails checks the hint a user without ACME_KEY sees.
func TestRunWithoutKeyFails(t *testing.T) {
	t.Setenv("ACME_KEY", "")
	t.Chdir(t.TempDir())
	p := modeltest.New()
	p.Reply(modeltest.Text("unused"))
	err := run(t.Context(), p, filepath.Join(t.TempDir(), "h"), &bytes.Buffer{})
	if err == nil {
		t.Fatal("run without a key succeeded")
	}
}

// TestREADMEQuotesThisProgram keeps the README's Go program identical to
// this file, so the README always compiles and is the program tested here.
func TestREADMEQuotesThisProgram(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, append(append([]byte("```go\n"), src...), "```\n"...)) {
		t.Error("README.md does not quote examples/embed/main.go verbatim in a ```go block")
	}
}
