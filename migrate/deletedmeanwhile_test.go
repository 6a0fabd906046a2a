package migrate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// deleteChildEnv makes the test binary a child that deletes a session of a
// source home as lite-agent sessions delete does
// (liteagent.DeleteSessionData) and exits 3 for step "none", or only sets
// its log aside (session.FileCheckpointer.BeginDelete, a delete's first
// step) and dies (exit 9) for step "set-aside". Its value is
// "<home>\n<session>\n<step>"; the home is encoded as buildProject's
// source is (key k1).
const deleteChildEnv = "MIGRATE_TEST_DELETE_CHILD"

func runDeleteChild(v string) int {
	parts := strings.Split(v, "\n")
	if len(parts) != 3 {
		fmt.Fprintln(os.Stderr, "bad", deleteChildEnv)
		return 2
	}
	codec, err := newAEAD("k1", 1)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: parts[0], Codec: codec}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	enc := storage.Encoding{Codec: codec, Namespace: paths.Namespace, ProjectID: paths.Hash}
	cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx := context.Background()
	if parts[2] == "set-aside" {
		if err := cp.BeginDelete(ctx, parts[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		os.Exit(9)
	}
	if _, err := liteagent.DeleteSessionData(ctx, paths, cp, parts[1], liteagent.DeleteDataOptions{}); err != nil {
		fmt.Fprintln(os.Stderr, "the delete failed:", err)
		return 1
	}
	return 3
}

// A session that another process (a real child running lite-agent sessions
// delete's DeleteSessionData) deletes, or begins to delete, while a
// migration copies the source must not reach the destination, whole or in
// part: the delete may have removed its archive or task list before they
// were copied, and a destination holding it would resurrect a session the
// user deleted. The migration fails, says which session and what became of
// it, keeps nothing of the copy, and leaves the source as the delete left
// it. A delete at the end of the copy (everything of the session copied)
// and one in its middle (the session's log and archive copied, its task
// list not yet) are both refused, and so is one after which a new session
// took the id (its log is in place, but it is not the log copied).
func TestMigrationFailsWhenASessionIsDeletedMeanwhile(t *testing.T) {
	for _, tc := range []struct {
		name, step string
		code       int
		during     bool
		want       error
	}{
		{"after the copy", "none", 3, false, session.ErrNotFound},
		{"after the copy, the delete killed", "set-aside", 9, false, session.ErrDeleting},
		{"during the copy", "none", 3, true, session.ErrNotFound},
		{"during the copy, the delete killed", "set-aside", 9, true, session.ErrDeleting},
		{"after the copy, the id taken again", "none", 3, false, session.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
			dstHome := t.TempDir()
			opts := migrate.Options{
				From:    migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:      migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: aead(t, "k2", 2)}},
				Workers: 1, // in plan order: sessions, spill, tasks
			}
			var once sync.Once
			deleteS1 := func() {
				cmd := childtest.Command(ctx, deleteChildEnv+"="+src.home+"\ns1\n"+tc.step)
				out, err := cmd.CombinedOutput()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
					t.Errorf("the deleting child: %v\n%s", err, out)
				}
			}
			if strings.HasSuffix(tc.name, "taken again") {
				// A new session takes the deleted one's id: its log is
				// in place, but it is not the log copied.
				deleteOnly := deleteS1
				deleteS1 = func() {
					deleteOnly()
					cp, err := session.NewFileCheckpointer(src.paths.SessionsDir, session.FileOptions{Encoding: src.enc()})
					if err != nil {
						t.Fatal(err)
					}
					if _, err := cp.Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("a new s1")}}, 0); err != nil {
						t.Error(err)
					}
				}
			}
			if tc.during {
				// The first spilled output: s1's log and archive are
				// copied, its task list is not, and no source lock is held.
				migrate.OnWrite(&opts, func(rel string) error {
					if strings.HasPrefix(rel, "spill"+string(filepath.Separator)) {
						once.Do(deleteS1)
					}
					return nil
				})
			} else {
				migrate.OnCopied(&opts, deleteS1)
			}
			rep, err := migrate.Run(ctx, opts)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "session s1") {
				t.Fatalf("Run = %v; want an error about session s1 matching %v", err, tc.want)
			}
			oneLine(t, err)
			if rep.Verified {
				t.Error("the report says verified")
			}
			dstRoot := filepath.Join(dstHome, "projects", src.paths.Hash)
			if left := files(t, dstRoot); len(left) != 0 {
				t.Errorf("the failed migration left %v in the destination", left)
			}
		})
	}
}
