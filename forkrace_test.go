package liteagent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// forkRaceChildEnv makes the test binary a child that forks a session of a
// data home to a given new id. Its value is
// "<home>\n<workdir>\n<session>\n<new id>\n<pause>"; with pause "1" it
// says "ready" once the session's data is copied and waits, before it
// writes the new log, until its standard input closes. It exits 0 when
// the fork succeeded, 4 when it failed with a *ForkError of Part
// ForkPartNewSession matching ErrSessionExists (or, through PostgreSQL,
// holding the *postgres.BusyError of the new session's lease), 1
// otherwise. "\n<url>\n<schema>" after it makes the agent store through
// PostgreSQL.
const forkRaceChildEnv = "LITE_AGENT_FORK_RACE_CHILD"

func runForkRaceChild(v string) int {
	parts := strings.Split(v, "\n")
	if len(parts) != 5 && len(parts) != 7 {
		fmt.Fprintln(os.Stderr, "bad", forkRaceChildEnv)
		return 2
	}
	opts := liteagent.Options{
		Model: modeltest.New(), ModelName: "test-model", Workdir: parts[1],
		Storage: storage.Options{Namespace: "acme", Home: parts[0]}, OnApproval: approveAll,
		ContextWindow: 4000,
	}
	closeStore, err := withChildStore(&opts, parts[5:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer closeStore()
	a, err := liteagent.New(context.Background(), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer a.Close()
	liteagent.SetForkNewID(a, func() string { return parts[3] })
	if parts[4] == "1" {
		liteagent.SetForkPaused(a, func(string) {
			fmt.Println("ready")
			buf := make([]byte, 1)
			for {
				if _, err := os.Stdin.Read(buf); err != nil {
					return
				}
			}
		})
	}
	_, err = a.Fork(context.Background(), parts[2], liteagent.ForkAtHead)
	var fe *liteagent.ForkError
	var busy *postgres.BusyError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &fe) && fe.Part == liteagent.ForkPartNewSession && (errors.Is(err, liteagent.ErrSessionExists) || errors.As(err, &busy)):
		fmt.Fprintln(os.Stderr, "the fork found its new session taken:", err)
		return 4
	}
	fmt.Fprintln(os.Stderr, "the fork failed:", err)
	return 1
}

// Two processes forking a session to one new id (a real child paused
// between its copy of the session's data and its new log, and a second
// one started meanwhile) must not both succeed, and the one that fails
// must leave the other's session whole. Before, neither held the new
// session nor looked for it: the second copied into the first's copy
// while the first was paused, failed, and removed the new session's data
// (the first's copy) as its own partial fork, so the first failed too
// (its copy swept) and nothing was forked; in other orders a fork's
// cleanup removed a session the other had finished. Now
// the second waits for the first's lock on the new session, then finds
// the session there and fails with a *ForkError of Part
// ForkPartNewSession, having copied and removed nothing.
func TestTwoForksToOneIDDoNotBothSucceed(t *testing.T) {
	checkForkRace(t, nil)
}

// The same through PostgreSQL, where the second fork finds the new
// session leased by the first and fails at once.
func TestTwoForksToOneIDThroughPostgresDoNotBothSucceed(t *testing.T) {
	url := pgtest.URL(t)
	checkForkRace(t, pgForkStore(url))
}

// checkForkRace runs two children forking one session to one new id, the
// first paused mid-fork, and checks that one succeeded, the other found
// the new session taken, and the new session is whole. withStore, when
// not nil, sets the agent's Store and returns what the children need to
// open it.
func checkForkRace(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.ContextWindow = 4000
	store := ""
	if withStore != nil {
		store = withStore(t, &opts)
	}
	a := f.agent(t, opts)
	ref := sessionWithData(t, f, a)
	orig := a.SessionID()
	a.Close()
	const newID = "fork-race-0001"
	env := forkRaceChildEnv + "=" + f.home + "\n" + f.workdir + "\n" + orig + "\n" + newID + "\n"

	first := childtest.Start(t, "ready", env+"1"+store)
	second := make(chan childResult, 1)
	go func() {
		out, err := childtest.Command(t.Context(), env+"0"+store).CombinedOutput()
		second <- childResult{out, err}
	}()
	var r childResult
	select {
	case r = <-second:
		// Done while the first was paused (it did, before the fix).
		firstErr := first.Release()
		checkCodes(t, firstErr, r)
	case <-time.After(2 * time.Second):
		// Waiting for the first's lock: let the first go on.
		firstErr := first.Release()
		r = <-second
		checkCodes(t, firstErr, r)
	}

	b := f.agent(t, opts)
	infos, err := b.ListSessions(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var listed bool
	for _, in := range infos {
		listed = listed || in.ID == newID
	}
	if !listed {
		t.Fatalf("the fork that succeeded left no session %s: %v", newID, infos)
	}
	if got := readRef(t, f, b, newID, ref); !strings.Contains(got, "line 000 of the big file") {
		t.Errorf("the fork cannot read its archived result: %q", got)
	}
	var st task.Store
	if opts.Store != nil {
		st, err = opts.Store.TaskList(t.Context(), encodingOf(b, opts), newID)
	} else {
		st, err = task.NewFileStore(b.Paths().TasksDir, newID, encodingOf(b, opts))
	}
	if err != nil {
		t.Fatal(err)
	}
	if tasks, err := st.List(t.Context()); err != nil || len(tasks) != 2 {
		t.Errorf("the fork has %d tasks (%v), want 2", len(tasks), err)
	}
}

// childResult is how a child ended: its output and its error.
type childResult struct {
	out []byte
	err error
}

// checkCodes fails t unless one of two forking children succeeded and
// the other found its new session taken.
func checkCodes(t *testing.T, firstErr error, second childResult) {
	t.Helper()
	codes := []int{exitCode(t, firstErr), exitCode(t, second.err)}
	if codes[0]+codes[1] != 4 || codes[0]*codes[1] != 0 {
		t.Fatalf("exit codes %v (0 forked, 4 found the session taken); want one fork to succeed and the other to find its session taken\nsecond: %s", codes, second.out)
	}
}

// exitCode is the exit code of a child that ended with err.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatalf("the child did not run: %v", err)
	return -1
}
