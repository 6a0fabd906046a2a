package engine_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool"
)

// Tests of the session lock a turn keeps. The multi-process ones run this
// test binary again as the child, in the role named by turnLockChildEnv,
// inside the test that needs it.
const turnLockChildEnv = "ENGINE_TURNLOCK_CHILD"

func newFileCP(t *testing.T, dir string) *session.FileCheckpointer {
	t.Helper()
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

// lockIno returns the inode of session id's lock directory in dir, or 0
// when there is none.
func lockIno(t *testing.T, dir, id string) uint64 {
	t.Helper()
	st, err := os.Lstat(filepath.Join(dir, id+".jsonl.lock"))
	if errors.Is(err, fs.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return st.Sys().(*syscall.Stat_t).Ino
}

// lockProbe is a FileCheckpointer (a session.Holder, through the embedded
// one) that notes, at every Head, Read and Append, which lock directory
// was there.
type lockProbe struct {
	*session.FileCheckpointer
	t   *testing.T
	dir string

	mu   sync.Mutex
	seen []uint64
}

func (p *lockProbe) note(id string) {
	ino := lockIno(p.t, p.dir, id)
	p.mu.Lock()
	p.seen = append(p.seen, ino)
	p.mu.Unlock()
}

func (p *lockProbe) Head(ctx context.Context, id string) (int64, error) {
	p.note(id)
	return p.FileCheckpointer.Head(ctx, id)
}

func (p *lockProbe) Read(ctx context.Context, id string, since int64) ([]session.StoredEvent, error) {
	p.note(id)
	return p.FileCheckpointer.Read(ctx, id, since)
}

func (p *lockProbe) Append(ctx context.Context, id string, evs []session.Event, head int64) (int64, error) {
	p.note(id)
	return p.FileCheckpointer.Append(ctx, id, evs, head)
}

// One lock directory serves every operation of a turn on its log: the
// load, the prompt, the tool's start, a snapshot the tool records, the
// results and the answers; it is gone when the turn reports its end.
func TestATurnTakesTheSessionLockOnce(t *testing.T) {
	dir := t.TempDir()
	probe := &lockProbe{FileCheckpointer: newFileCP(t, dir), t: t, dir: dir}
	writer := tool.New("write", "Writes.", func(ctx context.Context, c *tool.Call, in struct{}) (tool.Result, error) {
		before := "old"
		if err := engine.Record(ctx, c, session.FileSnapshotEvent{Path: "a.txt", Before: &before, Encoding: "utf8", After: "new"}); err != nil {
			return tool.Result{}, err
		}
		return tool.Text("written"), nil
	})
	h := newHarness(t, engine.Options{Checkpointer: probe, Tools: []tool.Tool{writer}, LogToolStarts: true, MaxParallelTools: 1})
	// Generous timing: the test checks the count, not the machine's speed.
	engine.SetLockTiming(h.eng, time.Hour, time.Hour)
	h.p.Reply(modeltest.ToolCalls(call("w1", "write", `{}`), call("w2", "write", `{}`)), modeltest.Text("done"))
	for ev, err := range h.eng.Turn(t.Context(), "s", model.UserText("go")) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventDone && lockIno(t, dir, "s") != 0 {
			t.Error("the session is still locked when the turn reports its end")
		}
	}
	want := []string{"user", "assistant", "tool_started", "file_snapshot", "tool_started", "file_snapshot", "tool_result", "tool_result", "assistant"}
	if got := logTypes(t, probe, "s"); !slices.Equal(got, want) {
		t.Fatalf("log %v, want %v", got, want)
	}
	probe.mu.Lock()
	seen := slices.Clone(probe.seen)
	probe.mu.Unlock()
	seen = seen[:len(seen)-1] // logTypes' own Read, after the turn
	if len(seen) < 7 || seen[0] == 0 || slices.ContainsFunc(seen, func(ino uint64) bool { return ino != seen[0] }) {
		t.Errorf("lock directories seen by the turn's operations: %v, want one", seen)
	}
	if lockIno(t, dir, "s") != 0 {
		t.Error("the turn left its lock")
	}
	// Between turns, the engine's records hold the lock the same way.
	if err := h.eng.RecordBetweenTurns(t.Context(), "s", session.PermissionDecisionEvent{Call: session.PermissionCall{ID: "h1", Name: "hook"}, Decision: "allow", By: "policy"}, nil); err != nil {
		t.Fatal(err)
	}
	if lockIno(t, dir, "s") != 0 {
		t.Error("RecordBetweenTurns left its lock")
	}
}

// While the turn waits on something slow (here the model), it lets go of
// the lock once idle, or at its next pause after max, so that another
// process (here another checkpointer on the same directory) reads the
// session without waiting for the answer.
func TestATurnLetsGoOfTheLockWhileItWaits(t *testing.T) {
	for _, tc := range []struct {
		name      string
		idle, max time.Duration
	}{
		{"idle", 20 * time.Millisecond, time.Hour},
		{"max", time.Hour, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cp := newFileCP(t, dir)
			other := newFileCP(t, dir)
			h := newHarness(t, engine.Options{Checkpointer: cp})
			engine.SetLockTiming(h.eng, tc.idle, tc.max)
			h.p.Respond(func(ctx context.Context, _ model.Request) ([]model.Chunk, error) {
				deadline := time.Now().Add(10 * time.Second)
				for lockIno(t, dir, "s") != 0 {
					if time.Now().After(deadline) {
						return nil, errors.New("the turn kept the lock while the model thought")
					}
					time.Sleep(5 * time.Millisecond)
				}
				if head, err := other.Head(ctx, "s"); err != nil || head != 1 {
					return nil, fmt.Errorf("another reader mid-turn: head %d, %v", head, err)
				}
				return modeltest.Text("answer").Chunks(), nil
			})
			if _, _, err := h.turn(t, t.Context(), "s", "go"); err != nil {
				t.Fatal(err)
			}
			if got := logTypes(t, other, "s"); !slices.Equal(got, []string{"user", "assistant"}) {
				t.Errorf("log %v", got)
			}
			if lockIno(t, dir, "s") != 0 {
				t.Error("the turn left its lock")
			}
		})
	}
}

// A held lock that another process took over (as it may once the lock
// looks stale) fails the turn's next write with the store's error; nothing
// is written under it, and the other holder's lock stays.
func TestATurnWhoseLockWasTakenOverFails(t *testing.T) {
	dir := t.TempDir()
	cp := newFileCP(t, dir)
	h := newHarness(t, engine.Options{Checkpointer: cp})
	engine.SetLockTiming(h.eng, time.Hour, time.Hour)
	lock := filepath.Join(dir, "s.jsonl.lock")
	h.p.Respond(func(context.Context, model.Request) ([]model.Chunk, error) {
		if err := os.Remove(lock); err != nil {
			return nil, err
		}
		if err := os.Mkdir(lock, 0o700); err != nil {
			return nil, err
		}
		return modeltest.Text("answer").Chunks(), nil
	})
	_, _, err := h.turn(t, t.Context(), "s", "go")
	var se *storage.Error
	if !errors.As(err, &se) || !strings.Contains(se.Message, "lock was compromised") {
		t.Fatalf("turn error %v, want the store's compromised lock", err)
	}
	if _, err := os.Lstat(lock); err != nil {
		t.Fatalf("the other holder's lock: %v", err)
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if got := logTypes(t, cp, "s"); !slices.Equal(got, []string{"user"}) {
		t.Errorf("log %v: written under a lost lock", got)
	}
	// Once the other holder is gone, the session works again.
	h.p.Reply(modeltest.Text("fine"))
	if _, _, err := h.turn(t, t.Context(), "s", "again"); err != nil {
		t.Fatal(err)
	}
}

// turnLockChild runs this test binary as the child in role, with env.
func turnLockChild(ctx context.Context, t *testing.T, test, role string, env ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), append([]string{turnLockChildEnv + "=" + role}, env...)...)
	cmd.Stderr = os.Stderr
	return cmd
}

// A process killed mid-turn, holding the session's lock, leaves the lock
// behind; others wait for it until it is stale (10 s without a refresh:
// here the lock is aged rather than waited for), then take it over, and
// the session goes on from what the killed process had appended.
func TestTheLockOfAProcessKilledMidTurnIsTakenOver(t *testing.T) {
	if os.Getenv(turnLockChildEnv) == "turn" {
		killedTurnChild(t)
		return
	}
	dir := t.TempDir()
	cmd := turnLockChild(t.Context(), t, "TestTheLockOfAProcessKilledMidTurnIsTakenOver", "turn", "TURNLOCK_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	for lines.Scan() && lines.Text() != "thinking" {
	}
	if lines.Text() != "thinking" {
		_ = cmd.Process.Kill()
		t.Fatalf("the child ended without calling its model: %v", lines.Err())
	}
	if lockIno(t, dir, "s") == 0 {
		t.Fatal("the child does not hold the session while its model thinks")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	killed := time.Now()

	cp := newFileCP(t, dir)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := cp.Head(ctx, "s"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Head right after the kill = %v, want a wait for the dead holder's lock", err)
	}
	// The dead holder refreshes the lock no more: as old as it is once
	// the stale period has passed.
	childtest.StaleLocks(t, dir)
	h := newHarness(t, engine.Options{Checkpointer: cp})
	h.p.Reply(modeltest.Text("after the crash"))
	tctx, tcancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer tcancel()
	if _, _, err := h.turn(t, tctx, "s", "again"); err != nil {
		t.Fatalf("the turn on the dead holder's stale lock: %v", err)
	}
	t.Logf("lock taken over %v after the kill", time.Since(killed).Round(time.Millisecond))
	if got := logTypes(t, cp, "s"); !slices.Equal(got, []string{"user", "user", "assistant"}) {
		t.Errorf("log %v", got)
	}
	if lockIno(t, dir, "s") != 0 {
		t.Error("the turn after the takeover left its lock")
	}
}

// killedTurnChild runs a turn in TURNLOCK_DIR whose model says "thinking"
// on stdout and then waits to be killed, with the lock kept all along.
func killedTurnChild(t *testing.T) {
	cp := newFileCP(t, os.Getenv("TURNLOCK_DIR"))
	p := modeltest.NewFunc(func(ctx context.Context, _ model.Request) ([]model.Chunk, error) {
		fmt.Println("thinking")
		<-ctx.Done()
		return nil, ctx.Err()
	})
	eng, err := engine.New(engine.Options{Provider: p, Checkpointer: cp, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	engine.SetLockTiming(eng, time.Hour, time.Hour)
	for range eng.Turn(t.Context(), "s", model.UserText("first")) {
	}
	t.Fatal("the child's turn ended")
}

// What a turn runs while it has the lock never deadlocks against it: a
// hook-like child process reading the session, a subagent's turn on
// another session, the host holding the session through the same
// checkpointer (as DeleteSessionData does), all from a tool call, with the
// default timing.
func TestWhatATurnRunsDoesNotWaitForItsLock(t *testing.T) {
	if os.Getenv(turnLockChildEnv) == "read" {
		cp := newFileCP(t, os.Getenv("TURNLOCK_DIR"))
		head, err := cp.Head(t.Context(), "s")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("head=%d\n", head)
		return
	}
	dir := t.TempDir()
	cp := newFileCP(t, dir)
	var eng *engine.Engine
	var (
		mu      sync.Mutex
		toolErr = errors.New("the tool did not run")
	)
	work := tool.New("work", "Works.", func(ctx context.Context, c *tool.Call, in struct{}) (tool.Result, error) {
		err := worker(ctx, t, dir, cp, eng)
		mu.Lock()
		toolErr = err
		mu.Unlock()
		return tool.Text("worked"), err
	})
	h := newHarness(t, engine.Options{Checkpointer: cp, Tools: []tool.Tool{work}})
	eng = h.eng
	h.p.Reply(modeltest.ToolCalls(call("w", "work", `{}`)), modeltest.Text("sub done"), modeltest.Text("done"))
	if _, _, err := h.turn(t, t.Context(), "s", "go"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if toolErr != nil {
		t.Fatal(toolErr)
	}
	for _, id := range []string{"s", "sub"} {
		if lockIno(t, dir, id) != 0 {
			t.Errorf("session %s left locked", id)
		}
	}
}

// worker does the work of TestWhatATurnRunsDoesNotWaitForItsLock's tool.
func worker(ctx context.Context, t *testing.T, dir string, cp *session.FileCheckpointer, eng *engine.Engine) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := turnLockChild(ctx, t, "TestWhatATurnRunsDoesNotWaitForItsLock", "read", "TURNLOCK_DIR="+dir).Output()
	if err != nil {
		return fmt.Errorf("the hook process: %w", err)
	}
	_, rest, _ := strings.Cut(string(out), "head=")
	num, _, _ := strings.Cut(rest, "\n")
	if head, err := strconv.Atoi(num); err != nil || head != 2 {
		return fmt.Errorf("the hook process read head %q", out)
	}
	for _, err := range eng.Turn(ctx, "sub", model.UserText("sub task")) {
		if err != nil {
			return fmt.Errorf("the subagent: %w", err)
		}
	}
	release, err := cp.Hold(ctx, "s")
	if err != nil {
		return err
	}
	if head, err := cp.Head(ctx, "s"); err != nil || head != 2 {
		return fmt.Errorf("host read head %d, %v", head, err)
	}
	return release()
}
