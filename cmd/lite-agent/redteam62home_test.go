package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func rt62Tree(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			b.WriteString(p + " " + info.Mode().String() + "\n")
		}
		return nil
	})
	return b.String()
}

// A data home another local user or a crashed tool left with links or a
// FIFO where its own files and directories go: a run neither hangs nor
// writes through a link, and a linked directory fails it with a clear error.
func TestRedteam62TamperedHome(t *testing.T) {
	for _, kind := range []string{"session-fifo", "sessions-dir-link", "tasks-dir-link", "project-link"} {
		t.Run(kind, func(t *testing.T) {
			home, work, _ := rt62Repo(t, nil)
			r, _ := rt62Run(t, []string{textReply("one")}, home, work)
			if r.code != 0 {
				t.Fatal(r.stderr)
			}
			outside := t.TempDir()
			os.WriteFile(filepath.Join(outside, "bashrc"), []byte("keep\n"), 0o644)
			projects := filepath.Join(home, "projects")
			ents, _ := os.ReadDir(projects)
			proj := filepath.Join(projects, ents[0].Name())
			sessions := filepath.Join(proj, "sessions")
			var sess string
			filepath.Walk(sessions, func(p string, info os.FileInfo, err error) error {
				if err == nil && strings.HasSuffix(p, ".jsonl") {
					sess = p
				}
				return nil
			})
			if sess == "" {
				t.Fatalf("no session file in %s", rt62Tree(t, home))
			}
			data, _ := os.ReadFile(sess)
			switch kind {
			case "session-link":
				os.WriteFile(filepath.Join(outside, "s.jsonl"), data, 0o644)
				os.Remove(sess)
				os.Symlink(filepath.Join(outside, "s.jsonl"), sess)
			case "session-fifo":
				os.Remove(sess)
				syscall.Mkfifo(sess, 0o644)
			case "sessions-dir-link", "tasks-dir-link", "project-link":
				d := map[string]string{"sessions-dir-link": sessions, "tasks-dir-link": filepath.Join(proj, "tasks"), "spill-dir-link": filepath.Join(proj, "spill"), "project-link": proj}[kind]
				os.MkdirAll(d, 0o700)
				os.Rename(d, filepath.Join(outside, "moved"))
				os.Symlink(filepath.Join(outside, "moved"), d)
			}
			before := rt62Tree(t, outside)
			done := make(chan result, 1)
			go func() {
				r, _ := rt62Run(t, []string{toolReply("t1", "TaskCreate", `{"subject":"s","description":"d"}`), textReply(strings.Repeat("x", 100)), textReply("two")}, home, work, "--continue")
				done <- r
			}()
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("run --continue hung")
			}
			after := rt62Tree(t, outside)
			if before != after {
				t.Errorf("outside changed:\n%s\n->\n%s", before, after)
			}
			if strings.HasSuffix(kind, "-link") && (r.code == 0 || !strings.Contains(r.stderr, "must not be a symlink")) {
				t.Errorf("run with a linked %s: code %d, stderr %q", kind, r.code, r.stderr)
			}
		})
	}
}

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
