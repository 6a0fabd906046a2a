package migrate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestTornTailIsListedNotCopied checks that the bytes after the last newline
// of a session log, which readers do not count as a record, are not copied
// either: the complete records are, and the torn tail is listed in Skipped
// without failing the run.
func TestTornTailIsListedNotCopied(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	cp, err := session.NewFileCheckpointer(src.paths.SessionsDir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	head, err := cp.Head(t.Context(), "s1")
	if err != nil || head == 0 {
		t.Fatalf("Head = %d, %v", head, err)
	}
	log := filepath.Join(src.paths.SessionsDir, "s1.jsonl")
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":99,"sessionId":"s1"`)
	f.Close()
	dstHome := t.TempDir()
	rep, err := migrate.Run(t.Context(), migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
	})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range rep.Skipped {
		found = found || s.File == log && strings.Contains(s.Reason, "torn tail of 26 bytes")
	}
	if !found {
		t.Errorf("skipped %+v, want the torn tail of %s", rep.Skipped, log)
	}
	dst, err := session.NewFileCheckpointer(filepath.Join(rep.Destination.Root, "sessions"), session.FileOptions{Encoding: storage.Encoding{ProjectID: rep.Destination.Hash}})
	if err != nil {
		t.Fatal(err)
	}
	copied, err := os.ReadFile(filepath.Join(rep.Destination.Root, "sessions", "s1.jsonl"))
	if err != nil || len(copied) == 0 || copied[len(copied)-1] != '\n' {
		t.Fatalf("copied log %q, %v", copied, err)
	}
	if h, err := dst.Head(t.Context(), "s1"); err != nil || h != head {
		t.Errorf("copied head %d, %v; want %d", h, err, head)
	}
}
