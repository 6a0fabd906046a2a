package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
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
