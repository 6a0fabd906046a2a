package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// runTornKiller appends one record to CHILD_DIR/CHILD_ID, whose log ends
// with a torn tail, and kills itself (SIGKILL) once the step CHILD_STEP of
// setting the tail aside is done; it exits 3 if the step never comes.
func runTornKiller() int {
	cp, err := session.NewFileCheckpointer(os.Getenv("CHILD_DIR"), session.FileOptions{Durable: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	step := os.Getenv("CHILD_STEP")
	session.SetStep(cp, func(name string) {
		if name == step {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	})
	if _, err := cp.Append(context.Background(), os.Getenv("CHILD_ID"), []session.Event{userText("killed")}, session.AnyHead); err != nil {
		fmt.Fprintln(os.Stderr, "append:", err)
		return 1
	}
	return 3
}

// A process killed (SIGKILL) at each step of an append that sets a torn
// tail aside, for an id of the usual length and one of the longest
// (storage.MaxIDLength, whose copies take the short name <id>.torn-…):
// the log still reads its complete records, the torn bytes are in the log
// or whole in a copy (a copy cut short by the kill is never the only
// place they are), and the next append sets them aside and succeeds.
func TestKillWhileSettingATornTailAsideKeepsIt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	ids := map[string]string{
		"usual":   "torn-kill",
		"longest": strings.Repeat("k", storage.MaxIDLength),
	}
	for idName, id := range ids {
		for _, step := range []string{"torn-created", "torn-copied", "torn-cut"} {
			t.Run(idName+"/"+step, func(t *testing.T) {
				dir := t.TempDir()
				cp := newCP(t, dir, session.FileOptions{Durable: true})
				if _, err := cp.Append(t.Context(), id, []session.Event{userText("one"), userText("two")}, 0); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(dir, id+session.LogSuffix)
				complete, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				torn := []byte(`{"seq":3,"sessionId":"` + id + `","event":{"type":"user","text":"` + strings.Repeat("t", 20<<10))
				appendBytes(torn)(t, path)

				out, err := child(t.Context(), "tornkiller", "CHILD_DIR="+dir, "CHILD_ID="+id, "CHILD_STEP="+step).CombinedOutput()
				if !childtest.Killed(err) {
					t.Fatalf("child was not killed at %s: %v\n%s", step, err, out)
				}

				// The killed child's lock goes stale after
				// filelock.DefaultStale: age it rather than wait.
				old := time.Now().Add(-2 * filelock.DefaultStale)
				if err := os.Chtimes(filelock.Name(path), old, old); err != nil {
					t.Fatal(err)
				}
				after, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				inLog := bytes.Equal(after, append(complete[:len(complete):len(complete)], torn...))
				if !inLog && !bytes.Equal(after, complete) {
					t.Fatalf("after a kill at %s the log holds %d bytes: neither the %d complete nor those and the torn tail", step, len(after), len(complete))
				}
				if !inLog && !hasTornCopy(t, dir, id, torn) {
					t.Fatalf("after a kill at %s the torn tail is neither in the log nor whole in a copy", step)
				}
				fresh := newCP(t, dir, session.FileOptions{Durable: true})
				evs, err := fresh.Read(t.Context(), id, 0)
				if err != nil || len(evs) != 2 {
					t.Fatalf("the log after a kill at %s reads %d records, %v", step, len(evs), err)
				}
				var last error
				for _, err := range fresh.Scan(t.Context(), id, 2) {
					last = err
				}
				if inLog != errors.Is(last, session.ErrTornTail) {
					t.Errorf("torn tail in the log: %v; Scan ends with %v", inLog, last)
				}

				head, err := fresh.Append(t.Context(), id, []session.Event{userText("three")}, 2)
				if err != nil || head != 3 {
					t.Fatalf("the append after a kill at %s = %d, %v", step, head, err)
				}
				evs, err = fresh.Read(t.Context(), id, 0)
				if err != nil || len(evs) != 3 || textsOf(evs)[2] != "three" {
					t.Fatalf("after the next append: %d records, %v", len(evs), err)
				}
				if !hasTornCopy(t, dir, id, torn) {
					t.Error("after the next append no copy holds the torn tail whole")
				}
			})
		}
	}
}

// hasTornCopy reports whether a torn copy of session id in dir holds
// exactly b.
func hasTornCopy(t *testing.T, dir, id string, b []byte) bool {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if got, kind, ok := session.ParseCopyName(e.Name()); ok && got == id && kind == session.CopyTorn {
			if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && bytes.Equal(data, b) {
				return true
			}
		}
	}
	return false
}
