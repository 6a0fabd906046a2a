//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
)

// TestResumeTouchesNoHardLinkedLog plants the session log as a hard link to
// a file outside the data home (a copied home, a shared disk; review 128b):
// run -r and -c marked it as used (keepFromSweep) with os.Chtimes, which
// set the outside file's times before the append refused the link. The run
// now fails with the store's hard-link refusal before calling the model,
// and the outside file keeps its bytes and times.
func TestResumeTouchesNoHardLinkedLog(t *testing.T) {
	for _, flags := range [][]string{{"-r", "s1"}, {"-c"}} {
		t.Run(strings.Join(flags, " "), func(t *testing.T) {
			isolateEnv(t)
			t.Setenv("ANTHROPIC_API_KEY", "test-key")
			t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
			home, work := t.TempDir(), t.TempDir()
			p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
				t.Fatal(err)
			}
			data := []byte(`{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"hi"}}}` + "\n")
			if err := os.WriteFile(filepath.Join(p.SessionsDir, "s2.jsonl"), bytes.ReplaceAll(data, []byte("s1"), []byte("s2")), 0o600); err != nil {
				t.Fatal(err)
			}
			log := filepath.Join(p.SessionsDir, "s1.jsonl")
			outside := filepath.Join(t.TempDir(), "outside.jsonl")
			if err := os.WriteFile(outside, data, 0o600); err != nil {
				t.Fatal(err)
			}
			old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
			if err := os.Chtimes(outside, old, old); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(outside, log); err != nil {
				t.Fatal(err)
			}
			// s2 is older, so that -c picks s1.
			if err := os.Chtimes(filepath.Join(p.SessionsDir, "s2.jsonl"), old.Add(-time.Hour), old.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"--home", home, "--workdir", work, "run", "--sandbox", "off", "--no-cleanup"}, flags...)
			r := runCLI(t, append(args, "again")...)
			if r.code == 0 || !strings.Contains(r.stderr, "more than one hard link") {
				t.Errorf("exit %d, stderr %q: want the hard link refused", r.code, r.stderr)
			}
			if strings.Contains(r.stderr, "model call") {
				t.Errorf("the model was called: %q", r.stderr)
			}
			st, err := os.Stat(outside)
			if err != nil || !st.ModTime().Equal(old) {
				t.Errorf("the outside file's time changed: %v %v", st.ModTime(), err)
			}
			if got, _ := os.ReadFile(outside); string(got) != string(data) {
				t.Errorf("the outside file holds %q", got)
			}
		})
	}
}
