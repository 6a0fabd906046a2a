package rewind_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/rewind"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// killEnv carries "<sessions dir>|<workspace>|<checkpoint>" to a child
// of TestRestoreKilledAfterOneFileCanBeRunAgain (see restoreKilled).
const killEnv = "REWIND_KILLED_RESTORE"

func TestMain(m *testing.M) {
	if arg := os.Getenv(killEnv); arg != "" {
		os.Exit(restoreKilled(arg))
	}
	os.Exit(m.Run())
}

// killingFiles kills its process (SIGKILL, as a crash) after its first
// successful write.
type killingFiles struct{ rewind.Files }

func (f killingFiles) Write(ctx context.Context, p string, data []byte) error {
	if err := f.Files.Write(ctx, p, data); err != nil {
		return err
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

// restoreKilled is the child of TestRestoreKilledAfterOneFileCanBeRunAgain:
// it restores session s1 of the sessions directory in arg to the
// checkpoint in arg, in the workspace in arg, and is killed after its first
// write. It returns only if it was not.
func restoreKilled(arg string) int {
	var sessions, workspace string
	var cp int64
	for i, s := range filepath.SplitList(arg) {
		switch i {
		case 0:
			sessions = s
		case 1:
			workspace = s
		case 2:
			cp, _ = strconv.ParseInt(s, 10, 64)
		}
	}
	store, err := session.NewFileCheckpointer(sessions, session.FileOptions{Durable: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fr, err := builtin.NewFileRestorer(builtin.FileOptions{Workdir: workspace, MaxSnapshotBytes: 64})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_, err = rewind.Restore(context.Background(), store, killingFiles{fr}, "s1", cp, rewind.Options{}, nil)
	fmt.Fprintf(os.Stderr, "the restore returned (%v) instead of being killed\n", err)
	return 3
}

// TestRestoreKilledAfterOneFileCanBeRunAgain kills a restore (a real
// child process, SIGKILL) after it put back the first of two files, each
// changed twice since the checkpoint: the file put back is at the
// checkpoint's content, which is neither what the last change left nor
// what it found. Running the restore again must finish it rather than
// refuse that file as changed outside the agent, which left the workspace
// half restored with no way on but by hand.
func TestRestoreKilledAfterOneFileCanBeRunAgain(t *testing.T) {
	sessions := t.TempDir()
	store, err := session.NewFileCheckpointer(sessions, session.FileOptions{Durable: true})
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, store)
	w.write("a.txt", "a at the checkpoint\n")
	w.write("b.txt", "b at the checkpoint\n")
	cp := w.prompt("change both")
	w.change("a.txt", []byte("a once\n"))
	w.change("b.txt", []byte("b once\n"))
	w.change("a.txt", []byte("a twice\n"))
	w.change("b.txt", []byte("b twice\n"))
	head := w.head()

	out, err := childtest.Command(t.Context(), killEnv+"="+sessions+string(filepath.ListSeparator)+w.dir+string(filepath.ListSeparator)+strconv.FormatInt(cp, 10)).CombinedOutput()
	if !childtest.Killed(err) {
		t.Fatalf("the child was not killed: %v\n%s", err, out)
	}
	// The session's lock, which the killed child held: stale.
	childtest.StaleLocks(t, sessions)
	if got := w.disk(); got["a.txt"] != "a at the checkpoint\n" || got["b.txt"] != "b twice\n" || w.head() != head {
		t.Fatalf("after the kill: disk %q, head %d (want a restored, b not, head %d)", got, w.head(), head)
	}

	if _, err := w.restore(cp, rewind.Options{}); err != nil {
		t.Fatalf("the restore run again: %v", err)
	}
	want := map[string]string{"a.txt": "a at the checkpoint\n", "b.txt": "b at the checkpoint\n"}
	if got := w.disk(); !reflect.DeepEqual(got, want) || w.head() != cp {
		t.Fatalf("disk %q, head %d; want %q, head %d", got, w.head(), want, cp)
	}
}
