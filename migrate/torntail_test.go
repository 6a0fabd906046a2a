package migrate_test

import (
	"os"
	"path/filepath"
	"strconv"
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

// TestArchiveIndexTornTailIsListedNotCopied checks that the bytes after the
// last newline of an archive index, which archive readers ignore, are left
// out with a note, not failing the run, and that the torn tails a put set
// aside (index.jsonl.torn-<ms>) are listed, not copied.
func TestArchiveIndexTornTailIsListedNotCopied(t *testing.T) {
	for _, tail := range []string{"{", `{"ref":"` + strings.Repeat("x", 100<<10)} {
		src := buildProject(t, t.TempDir(), workdir, nil, "")
		ctxDir := filepath.Join(src.paths.SessionsDir, "s1.context")
		index := filepath.Join(ctxDir, "index.jsonl")
		complete, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		write(t, index, string(complete)+tail)
		setAside := filepath.Join(ctxDir, "index.jsonl.torn-1753185600000")
		write(t, setAside, "an older torn tail")
		before := treeHash(t, src.home)
		rep, err := migrate.Run(t.Context(), migrate.Options{
			From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
			To:   migrate.Endpoint{Storage: storage.Options{Home: t.TempDir()}},
		})
		if err != nil {
			t.Fatal(err)
		}
		unchanged(t, src.home, before)
		got := map[string]string{}
		for _, s := range rep.Skipped {
			got[s.File+"#"+s.Record] = s.Reason
		}
		lines := strconv.Itoa(strings.Count(string(complete), "\n"))
		if r := got[index+"#"+lines]; !strings.Contains(r, "torn tail of "+strconv.Itoa(len(tail))+" bytes") || !strings.Contains(r, "left out") {
			t.Errorf("skipped %v, want the torn tail of %s, line %s", got, index, lines)
		}
		if r := got[setAside+"#"]; !strings.Contains(r, "torn tail set aside by a put") {
			t.Errorf("skipped %v, want %s", got, setAside)
		}
		if len(got) != 2 || !rep.Verified {
			t.Errorf("skipped %v, verified %v", got, rep.Verified)
		}
		dstCtx := filepath.Join(rep.Destination.Root, "sessions", "s1.context")
		if copied, err := os.ReadFile(filepath.Join(dstCtx, "index.jsonl")); err != nil || string(copied) != string(complete) {
			t.Errorf("copied index %q, %v; want the complete lines", copied, err)
		}
		if _, err := os.Lstat(filepath.Join(dstCtx, filepath.Base(setAside))); err == nil {
			t.Error("the set-aside torn tail was copied")
		}
		if c := rep.Kinds[storage.KindArchiveIndex]; c.Records != int64(len(src.refs["s1"])) {
			t.Errorf("copied %d index records, want %d", c.Records, len(src.refs["s1"]))
		}
	}
}
