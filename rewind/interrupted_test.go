package rewind_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/rewind"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// killEnv carries "<sessions dir>|<workspace>|<checkpoint>" to
// TestRestoreKilledHelper.
const killEnv = "REWIND_KILLED_RESTORE"

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

// TestRestoreKilledHelper is the child of
// TestRestoreKilledAfterOneFileCanBeRunAgain; it does nothing in a normal run.
func TestRestoreKilledHelper(t *testing.T) {
	arg := os.Getenv(killEnv)
	if arg == "" {
		t.Skip("helper of TestRestoreKilledAfterOneFileCanBeRunAgain")
	}
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
		t.Fatal(err)
	}
	fr, err := builtin.NewFileRestorer(builtin.FileOptions{Workdir: workspace, MaxSnapshotBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	_, err = rewind.Restore(t.Context(), store, killingFiles{fr}, "s1", cp, rewind.Options{}, nil)
	t.Fatalf("the restore returned (%v) instead of being killed", err)
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

	cmd := exec.Command(os.Args[0], "-test.run=^TestRestoreKilledHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), killEnv+"="+sessions+string(filepath.ListSeparator)+w.dir+string(filepath.ListSeparator)+strconv.FormatInt(cp, 10))
	err = cmd.Run()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v", err)
	}
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
