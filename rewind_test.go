package liteagent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/rewind"
	"github.com/lite-agent/lite-agent-go/session"
)

// writePrompt sends a prompt whose answer writes content to name.
func writePrompt(t *testing.T, f *fixture, a *liteagent.Agent, prompt, name, content string) {
	t.Helper()
	f.p.Reply(modeltest.ToolCalls(call("w-"+prompt, "write_file", `{"path":"`+name+`","content":"`+content+`"}`)), modeltest.Text("wrote "+content))
	if _, err := a.Send(t.Context(), prompt); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func TestRestoreThroughTheAgentThenRunOn(t *testing.T) {
	for _, encoded := range []bool{false, true} {
		f := newFixture(t)
		opts := f.options(nil)
		if encoded {
			opts = f.options(aeadCodec(t, "k1"))
		}
		a := f.agent(t, opts)
		ctx := t.Context()
		target := filepath.Join(f.workdir, "a.txt")
		writePrompt(t, f, a, "first", "a.txt", "one")
		writePrompt(t, f, a, "second", "a.txt", "two")
		id := a.SessionID()

		cps, err := a.Checkpoints(ctx, id)
		if err != nil || len(cps) != 2 || cps[1].Prompt != "second" || len(cps[1].Files) != 1 || cps[1].Files[0] != "a.txt" {
			t.Fatalf("checkpoints %+v, %v", cps, err)
		}
		var mu sync.Mutex
		var phases []string
		unsub, _ := a.Subscribe(func(n liteagent.Notice) {
			if n.Event.Type == liteagent.EventCheckpointRestore {
				mu.Lock()
				phases = append(phases, n.Event.Restore.Phase)
				mu.Unlock()
			}
		})
		res, err := a.Restore(ctx, id, cps[1].Seq, liteagent.RestoreOptions{})
		unsub()
		if err != nil || !res.ConversationRestored || len(res.Files) != 1 {
			t.Fatalf("restore: %+v %v", res, err)
		}
		if got := readFile(t, target); got != "one" {
			t.Errorf("a.txt = %q after restore", got)
		}
		if want := []string{"start", "progress", "done"}; !equalStrings(phases, want) {
			t.Errorf("phases %v, want %v", phases, want)
		}
		// The next prompt sees the conversation as it was before "second".
		f.p.Reply(modeltest.Text("ok"))
		if _, err := a.Send(ctx, "instead"); err != nil {
			t.Fatal(err)
		}
		reqs := f.p.Requests()
		msgs := reqs[len(reqs)-1].Messages
		if n := len(msgs); n != 5 || msgs[n-1].Text != "instead" {
			t.Errorf("encoded=%v: request after restore has %d messages: %+v", encoded, n, msgs)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRestoreIsRefusedWhileARunIsActive(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	writePrompt(t, f, a, "first", "a.txt", "one")
	id := a.SessionID()
	started, release := make(chan struct{}), make(chan struct{})
	f.p.Respond(func(ctx context.Context, _ model.Request) ([]model.Chunk, error) {
		close(started)
		<-release
		return modeltest.Text("late").Chunks(), nil
	})
	done := make(chan error, 1)
	go func() {
		_, err := a.Send(context.Background(), "slow")
		done <- err
	}()
	<-started
	_, err := a.Restore(t.Context(), id, 0, liteagent.RestoreOptions{})
	var busy *liteagent.SessionBusyError
	if !errors.As(err, &busy) || !errors.Is(err, liteagent.ErrSessionBusy) {
		t.Errorf("restore during a run: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if readFile(t, filepath.Join(f.workdir, "a.txt")) != "one" {
		t.Error("the refused restore changed the file")
	}
	if _, err := a.Restore(t.Context(), id, 0, liteagent.RestoreOptions{}); err != nil {
		t.Errorf("restore once idle: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.workdir, "a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a.txt not removed: %v", err)
	}
}

func TestForkThenResumeBothSessionsIndependently(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(aeadCodec(t, "k1")))
	ctx := t.Context()
	writePrompt(t, f, a, "first", "a.txt", "one")
	orig := a.SessionID()
	head, _ := a.Checkpoints(ctx, orig)

	forked, err := a.Fork(ctx, orig, liteagent.ForkAtHead)
	if err != nil || forked == orig {
		t.Fatalf("fork: %q %v", forked, err)
	}
	// A fresh agent resumes each session on its own.
	a.Close()
	b := f.agent(t, f.options(aeadCodec(t, "k1")))
	lens := map[string]int{}
	for _, c := range []struct{ id, prompt string }{{orig, "on the original"}, {forked, "on the fork"}, {orig, "original again"}} {
		if err := b.Resume(c.id); err != nil {
			t.Fatal(err)
		}
		f.p.Reply(modeltest.Text("ok " + c.prompt))
		if _, err := b.Send(ctx, c.prompt); err != nil {
			t.Fatal(err)
		}
		reqs := f.p.Requests()
		msgs := reqs[len(reqs)-1].Messages
		lens[c.prompt] = len(msgs)
	}
	// first, call, result, answer; then the prompt (and, for the third,
	// the original's second exchange).
	if lens["on the original"] != 5 || lens["on the fork"] != 5 || lens["original again"] != 7 {
		t.Errorf("request sizes %v", lens)
	}
	for id, want := range map[string]int{orig: 3, forked: 2} {
		cps, err := b.Checkpoints(ctx, id)
		if err != nil || len(cps) != want {
			t.Errorf("%s: %d checkpoints (%v), want %d", id, len(cps), err, want)
		}
	}
	if len(head) != 1 || readFile(t, filepath.Join(f.workdir, "a.txt")) != "one" {
		t.Errorf("files changed by the fork")
	}
	if _, err := b.Fork(ctx, "no-such-session", liteagent.ForkAtHead); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("fork of a missing session: %v", err)
	}
	if _, err := b.Restore(ctx, orig, 2, liteagent.RestoreOptions{}); !errors.Is(err, rewind.ErrBadSequence) {
		t.Errorf("restore splitting a call: %v", err)
	}
}

// No prompt starts on a session while a restore changes it.
func TestPromptDuringARestoreIsRefused(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	writePrompt(t, f, a, "first", "a.txt", "one")
	id := a.SessionID()
	var during error
	unsub, _ := a.Subscribe(func(n liteagent.Notice) {
		if n.Event.Type == liteagent.EventCheckpointRestore && n.Event.Restore.Phase == "start" {
			_, during = a.Send(context.Background(), "sneak in")
		}
	})
	defer unsub()
	if _, err := a.Restore(t.Context(), id, 0, liteagent.RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	var busy *liteagent.SessionBusyError
	if !errors.As(during, &busy) || !busy.Op {
		t.Errorf("prompt during the restore: %v", during)
	}
	if cps, err := a.Checkpoints(t.Context(), id); !errors.Is(err, session.ErrNotFound) && len(cps) != 0 {
		t.Errorf("after restoring to 0: %+v %v", cps, err)
	}
}

func TestRewindNeedsPersistence(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.DisableSessions = true
	a := f.agent(t, opts)
	if _, err := a.Checkpoints(t.Context(), "x"); !errors.Is(err, liteagent.ErrNoSessions) {
		t.Errorf("Checkpoints: %v", err)
	}
	if _, err := a.Restore(t.Context(), "x", 0, liteagent.RestoreOptions{}); !errors.Is(err, liteagent.ErrNoSessions) {
		t.Errorf("Restore: %v", err)
	}
	if _, err := a.Fork(t.Context(), "x", liteagent.ForkAtHead); !errors.Is(err, liteagent.ErrNoSessions) {
		t.Errorf("Fork: %v", err)
	}
}

// TestRestoreErrorEventCarriesTheTypedError changes a file once the
// restore has started: the error event's Err is the restore's error, which
// errors.As reaches as a *rewind.FileError naming the file.
func TestRestoreErrorEventCarriesTheTypedError(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	writePrompt(t, f, a, "first", "a.txt", "one")
	id := a.SessionID()
	var events []liteagent.Event
	unsub, _ := a.Subscribe(func(n liteagent.Notice) {
		if n.Event.Type != liteagent.EventCheckpointRestore {
			return
		}
		events = append(events, n.Event)
		if n.Event.Restore.Phase == "start" {
			if err := os.WriteFile(filepath.Join(f.workdir, "a.txt"), []byte("meanwhile"), 0o644); err != nil {
				t.Error(err)
			}
		}
	})
	defer unsub()
	_, err := a.Restore(t.Context(), id, 0, liteagent.RestoreOptions{})
	if !errors.Is(err, rewind.ErrChangedDuring) {
		t.Fatalf("restore: %v, want a file changed during it", err)
	}
	if len(events) != 2 || events[1].Restore.Phase != "error" {
		t.Fatalf("events %+v, want start and error", events)
	}
	ev := events[1]
	var fe *rewind.FileError
	if !errors.As(ev.Err, &fe) || fe.Path != "a.txt" || !errors.Is(ev.Err, rewind.ErrChangedDuring) {
		t.Errorf("error event's Err = %#v, want the *rewind.FileError of a.txt", ev.Err)
	}
	if ev.Err == nil || ev.Restore.Message != ev.Err.Error() {
		t.Errorf("message %q, Err %v: want the error's text", ev.Restore.Message, ev.Err)
	}
}

// A caller's RestoreOptions.Check runs on the head the restore read, and
// its refusal leaves the files and the log as they were.
func TestRestoreRunsTheCallersCheck(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	ctx := t.Context()
	target := filepath.Join(f.workdir, "a.txt")
	writePrompt(t, f, a, "first", "a.txt", "one")
	writePrompt(t, f, a, "second", "a.txt", "two")
	id := a.SessionID()
	cps, err := a.Checkpoints(ctx, id)
	if err != nil || len(cps) != 2 {
		t.Fatalf("checkpoints %+v, %v", cps, err)
	}
	refused := errors.New("not now")
	var seen int64 = -1
	_, err = a.Restore(ctx, id, cps[0].Seq, liteagent.RestoreOptions{Check: func(head int64) error {
		seen = head
		return refused
	}})
	if !errors.Is(err, refused) || seen <= cps[1].Seq {
		t.Fatalf("restore with a refusing check: %v, head seen %d; want its error and a head past %d", err, seen, cps[1].Seq)
	}
	if got := readFile(t, target); got != "two" {
		t.Errorf("a refused restore changed a.txt to %q", got)
	}
	after, err := a.Checkpoints(ctx, id)
	if err != nil || len(after) != 2 {
		t.Errorf("a refused restore changed the log: %+v, %v", after, err)
	}
}
