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

// TestRunWithoutKeyFails checks the hint a user without ACME_KEY sees: the
// program's own, naming the variable, before anything is stored or sent.
// (The SDK never shows a codec callback's error text, so a key that only
// the codec loads would surface as "Storage encode failed".)
func TestRunWithoutKeyFails(t *testing.T) {
	for _, key := range []string{"", "abc", strings.Repeat("ab", 31)} {
		t.Setenv("ACME_KEY", key)
		t.Chdir(t.TempDir())
		home := filepath.Join(t.TempDir(), "h")
		p := modeltest.New()
		p.Reply(modeltest.Text("unused"))
		err := run(t.Context(), p, home, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), "set ACME_KEY to 64 hex digits") {
			t.Errorf("ACME_KEY=%q: error %v, want the hint naming ACME_KEY", key, err)
		}
		if n := len(p.Requests()); n != 0 {
			t.Errorf("ACME_KEY=%q: %d model requests", key, n)
		}
		if _, err := os.Stat(home); !os.IsNotExist(err) {
			t.Errorf("ACME_KEY=%q: the home was created (%v)", key, err)
		}
	}
}
