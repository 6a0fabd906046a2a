package liteagent_test

import (
	"errors"
	"os"
	"os/exec"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/session"
)

// A session whose delete (another process, lite-agent sessions delete's
// DeleteSessionData) finishes after a fork saw its context archive and
// before the fork opened it: the fork must not create an empty archive
// directory for the deleted session, a leftover no session owns. It fails
// with a *ForkError of its source, and leaves nothing of the source.
func TestForkDoesNotRecreateADeletedSourceArchive(t *testing.T) {
	ctx := t.Context()
	f, opts, a := agentWithSessionData(t)
	id := a.SessionID()
	paths := a.Paths()
	if _, err := os.Lstat(paths.ArchiveDir(id)); err != nil {
		t.Fatalf("the session has no archive: %v", err)
	}
	a.Close()
	a = f.agent(t, opts)
	liteagent.SetForkArchiveSeen(a, func() {
		cmd := childtest.Command(ctx, deleteChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+"\nnone")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("the deleting child: %v\n%s", err, out)
		}
	})
	newID, err := a.Fork(ctx, id, liteagent.ForkAtHead)
	var fe *liteagent.ForkError
	if !errors.As(err, &fe) || !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("Fork = %q, %v; want a *ForkError matching session.ErrNotFound", newID, err)
	}
	if _, err := os.Lstat(paths.ArchiveDir(id)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the deleted session's archive directory is there again (%v)", err)
	}
}
