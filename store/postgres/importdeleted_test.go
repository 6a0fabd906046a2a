package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// deleteChildEnv makes the test binary a child that deletes a session of
// a file home with liteagent.DeleteSessionData (as lite-agent sessions
// delete does) and finishes (exit 3) for step "none", or sets its log
// aside (session.FileCheckpointer.BeginDelete, a delete's first step) and
// dies (exit 9) for step "set-aside". Its value is
// "<home>\n<workdir>\n<session>\n<step>".
const deleteChildEnv = "LITE_AGENT_PG_DELETE_CHILD"

func runDeleteChild(v string) int {
	parts := strings.Split(v, "\n")
	if len(parts) != 4 {
		fmt.Fprintln(os.Stderr, "bad", deleteChildEnv)
		return 2
	}
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: parts[1], Storage: storage.Options{Home: parts[0]}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if parts[3] == "set-aside" {
		// The first step of every delete: what one killed after it leaves.
		if err := cp.BeginDelete(context.Background(), parts[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		os.Exit(9)
	}
	_, err = liteagent.DeleteSessionData(context.Background(), paths, cp, parts[2], liteagent.DeleteDataOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "the delete failed:", err)
		return 1
	}
	return 3
}

// A session that another process (a real child running lite-agent
// sessions delete's DeleteSessionData) begins to delete while an import
// copies the files, after the import's check for sessions being deleted,
// must not end up in the database: the import fails, keeps nothing, and
// says which session, whether the delete died part-way (the session is
// being deleted) or finished (the session is gone).
func TestImportFailsWhenASessionIsDeletedMeanwhile(t *testing.T) {
	for _, tc := range []struct {
		step string
		code int
		want error
	}{
		{"set-aside", 9, session.ErrDeleting},
		{"none", 3, session.ErrNotFound},
	} {
		t.Run(tc.step, func(t *testing.T) {
			ctx := t.Context()
			paths, workdir := importSource(t)
			p := project(t, storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
			postgres.SetImportCopied(p, func() {
				cmd := childtest.Command(ctx, deleteChildEnv+"="+paths.Home+"\n"+workdir+"\ns2\n"+tc.step)
				out, err := cmd.CombinedOutput()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
					t.Errorf("the deleting child: %v\n%s", err, out)
				}
			})
			rep, err := p.ImportFiles(ctx, paths)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "s2") {
				t.Fatalf("ImportFiles = %+v, %v; want an error about session s2 matching %v", rep, err, tc.want)
			}
			if empty, err := p.Empty(ctx); err != nil || !empty {
				t.Errorf("the failed import left records in the project: empty %v, %v", empty, err)
			}
		})
	}
}

// A session deleted from the files while an import copies them (a real
// child running DeleteSessionData, once the import has copied its log and
// archive), whose id a new session then takes (its first append, after the
// verification listed the files), must not end up in the database: the
// final check found a log of that id and passed, and the database kept the
// deleted session, which the verification, going by the sessions the
// files listed, had not compared. The import now also checks that each
// log copied still begins with the record it copied.
func TestImportFailsWhenADeletedSessionsIDIsTakenMeanwhile(t *testing.T) {
	ctx := t.Context()
	paths, workdir := importSource(t)
	p := project(t, storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
	postgres.SetImportSession(p, func(id string) {
		if id != "s2" {
			return
		}
		cmd := childtest.Command(ctx, deleteChildEnv+"="+paths.Home+"\n"+workdir+"\ns2\nnone")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("the deleting child: %v\n%s", err, out)
		}
	})
	postgres.SetImportVerified(p, func() {
		cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{Encoding: storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.Append(ctx, "s2", []session.Event{session.UserEvent{Message: model.UserText("a new s2")}}, 0); err != nil {
			t.Error(err)
		}
	})
	rep, err := p.ImportFiles(ctx, paths)
	if !errors.Is(err, session.ErrNotFound) || !strings.Contains(err.Error(), "s2") {
		t.Fatalf("ImportFiles = %+v, %v; want an error about session s2 matching %v", rep, err, session.ErrNotFound)
	}
	if empty, err := p.Empty(ctx); err != nil || !empty {
		t.Errorf("the failed import left records in the project: empty %v, %v", empty, err)
	}
}

// A delete that begins after the import's last check of the files (a real
// child running DeleteSessionData in the gap between that check and the
// removal of the import's marker) began after everything was read: the
// import succeeds, and the database holds the session whole, its log and
// archive as the files held them before the delete. The rule: a session
// whose delete began before that check is not imported; one whose delete
// began after it is imported whole, and is deleted from the files only.
func TestADeleteAfterTheImportsLastCheckLeavesTheSessionWhole(t *testing.T) {
	ctx := t.Context()
	paths, workdir := importSource(t)
	enc := storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash}
	log, err := os.ReadFile(filepath.Join(paths.SessionsDir, "s2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	note := filepath.Join(storage.SessionContextDir(paths.SessionsDir, "s2"), "index.jsonl")
	index, err := os.ReadFile(note)
	if err != nil {
		t.Fatal(err)
	}
	p := project(t, enc)
	postgres.SetImportKept(p, func() {
		cmd := childtest.Command(ctx, deleteChildEnv+"="+paths.Home+"\n"+workdir+"\ns2\nnone")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("the deleting child: %v\n%s", err, out)
		}
	})
	rep, err := p.ImportFiles(ctx, paths)
	if err != nil || !rep.Verified {
		t.Fatalf("ImportFiles = %+v, %v", rep, err)
	}
	if _, err := os.Lstat(filepath.Join(paths.SessionsDir, "s2.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the child did not delete s2 from the files: %v", err)
	}
	recs, _, err := p.ExportSession(ctx, "s2")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(bytes.Join(recs, []byte("\n"))) + "\n"; got != string(log) {
		t.Errorf("the imported log of s2:\n%s\nwant the files' before the delete:\n%s", got, log)
	}
	idx, notes, err := p.ExportArchive(ctx, "s2")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(bytes.Join(idx, []byte("\n"))) + "\n"; got != string(index) || len(notes) != 1 {
		t.Errorf("the imported archive of s2: index %q, %d notes; want %q and 1 note", got, len(notes), index)
	}
}
