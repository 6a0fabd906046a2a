package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A task record or a session's sibling entries replaced by a FIFO in the
// data home: a run that reads them neither hangs nor fails silently.
func TestRedteam62FifoTaskRecord(t *testing.T) {
	home, work, _ := rt62Repo(t, nil)
	r, _ := rt62Run(t, []string{toolReply("t1", "TaskCreate", `{"subject":"s","description":"d"}`), textReply("one")}, home, work)
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	var rec string
	filepath.Walk(filepath.Join(home, "projects"), func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, "1.json") {
			rec = p
		}
		return nil
	})
	if rec == "" {
		t.Fatal("no task record")
	}
	os.Remove(rec)
	if err := syscall.Mkfifo(rec, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan result, 1)
	go func() {
		r, _ := rt62Run(t, []string{toolReply("t2", "TaskList", `{}`), toolReply("t3", "TaskGet", `{"taskId":"1"}`), textReply("two")}, home, work, "--continue")
		done <- r
	}()
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("run hung on a FIFO task record")
	}
	if r.code == 0 || !strings.Contains(r.stderr, "not a regular file") {
		t.Errorf("code %d, stderr %q: want the FIFO named", r.code, r.stderr)
	}
}
