package rewind_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/testcodec"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/rewind"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// world is a session and its workspace, driven the way the file tools
// drive them: a snapshot is appended, then the file changes.
type world struct {
	t     testing.TB
	cp    session.Checkpointer
	id    string
	dir   string
	files *builtin.FileRestorer
	calls int
}

func newWorld(t testing.TB, cp session.Checkpointer) *world {
	t.Helper()
	dir := t.TempDir()
	fr, err := builtin.NewFileRestorer(builtin.FileOptions{Workdir: dir, MaxSnapshotBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	if cp == nil {
		cp = session.NewMemoryCheckpointer()
	}
	return &world{t: t, cp: cp, id: "s1", dir: dir, files: fr}
}

func (w *world) append(evs ...session.Event) {
	w.t.Helper()
	if _, err := w.cp.Append(context.Background(), w.id, evs, session.AnyHead); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) head() int64 {
	w.t.Helper()
	h, err := w.cp.Head(context.Background(), w.id)
	if err != nil {
		w.t.Fatal(err)
	}
	return h
}

// prompt appends a real user prompt and returns the checkpoint before it.
func (w *world) prompt(text string) int64 {
	w.t.Helper()
	before := w.head()
	yes := true
	w.append(session.UserEvent{Message: model.UserText(text), Origin: session.OriginUser, Checkpoint: &yes})
	return before
}

// change runs one tool call that writes data to name (delete when data is
// nil), recording the snapshot as the tools do with a 64-byte limit.
func (w *world) change(name string, data []byte) {
	w.t.Helper()
	w.calls++
	id := "call_" + strings.Repeat("x", w.calls)
	w.append(session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, ID: id, Name: "write_file"}}}})
	p := filepath.Join(w.dir, name)
	old, err := os.ReadFile(p)
	ev := session.FileSnapshotEvent{Path: name}
	switch {
	case err == nil && len(old) > 64:
		ev.Truncated = true
	case err == nil && utf8.Valid(old):
		s := string(old)
		ev.Before, ev.Encoding = &s, "utf8"
	case err == nil:
		s := base64.StdEncoding.EncodeToString(old)
		ev.Before, ev.Encoding = &s, "base64"
	}
	if data == nil {
		ev.Deleted = true
	} else {
		sum := sha256.Sum256(data)
		ev.After = hex.EncodeToString(sum[:])
	}
	w.append(ev)
	if data == nil {
		os.Remove(p)
	} else {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			w.t.Fatal(err)
		}
	}
	w.append(session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: id, Content: "ok"}},
		session.AssistantEvent{Message: model.AssistantText("done")})
}

func (w *world) write(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, name), []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// disk returns every file of the workspace and its content.
func (w *world) disk() map[string]string {
	w.t.Helper()
	m := map[string]string{}
	filepath.WalkDir(w.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(w.dir, p)
			m[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return m
}

func (w *world) restore(toSeq int64, opts rewind.Options) (rewind.Result, error) {
	return rewind.Restore(context.Background(), w.cp, w.files, w.id, toSeq, opts, nil)
}

func TestListAnchorsRealPromptsOnly(t *testing.T) {
	w := newWorld(t, nil)
	yes, no := true, false
	w.append(session.UserEvent{Message: model.UserText("legacy prompt")})
	w.append(session.UserEvent{Message: model.UserText("  <system-reminder>x")})
	w.append(session.UserEvent{Message: model.UserText("<background-task-completed>x")})
	w.append(session.UserEvent{Message: model.UserText("bg"), Origin: session.OriginBackground, Checkpoint: &no})
	w.append(session.UserEvent{Message: model.UserText("internal"), Origin: session.OriginInternal})
	w.append(session.UserEvent{Message: model.UserText("   "), Checkpoint: &yes})
	w.append(session.UserEvent{Message: model.Message{Role: model.RoleUser, Blocks: []model.Block{model.TextBlock("block"), model.TextBlock("prompt")}}, Checkpoint: &yes})
	w.change("b.txt", []byte("b"))
	w.prompt("third")
	w.write("big.txt", strings.Repeat("x", 100))
	w.change("big.txt", []byte("small"))
	w.change("b.txt", []byte("b2"))

	events, err := w.cp.Read(context.Background(), w.id, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := rewind.List(events)
	type anchor struct {
		seq            int64
		prompt         string
		files, unavail []string
	}
	want := []anchor{
		{0, "legacy prompt", []string{"b.txt", "big.txt"}, []string{"big.txt"}},
		{6, "block\nprompt", []string{"b.txt", "big.txt"}, []string{"big.txt"}},
		{11, "third", []string{"b.txt", "big.txt"}, []string{"big.txt"}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d anchors: %+v", len(got), got)
	}
	for i, a := range want {
		g := got[i]
		if g.Seq != a.seq || g.Prompt != a.prompt || !reflect.DeepEqual(g.Files, a.files) || !reflect.DeepEqual(g.UnavailableFiles, a.unavail) || g.Time.IsZero() {
			t.Errorf("anchor %d = %+v, want %+v", i, g, a)
		}
	}
}

func TestRestoreRevertsWritesAndDeletesAndTruncates(t *testing.T) {
	binary := []byte{0xff, 0x00, 0xfe, 'x'}
	w := newWorld(t, nil)
	w.write("kept.txt", "original\n")
	os.WriteFile(filepath.Join(w.dir, "bin.dat"), binary, 0o600)
	w.write("gone.txt", "was here")
	cp := w.prompt("change things")
	w.change("kept.txt", []byte("edited\n"))
	w.change("kept.txt", []byte("edited twice\n")) // the earliest snapshot wins
	w.change("bin.dat", nil)
	w.change("gone.txt", nil)
	w.change("sub/new.txt", []byte("created"))
	w.prompt("more")

	res, err := w.restore(cp, rewind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"kept.txt": "original\n", "bin.dat": string(binary), "gone.txt": "was here"}
	if got := w.disk(); !reflect.DeepEqual(got, want) {
		t.Errorf("disk %q, want %q", got, want)
	}
	if h := w.head(); h != cp || !res.ConversationRestored || res.DroppedEvents != res.Head-cp {
		t.Errorf("head %d, result %+v", h, res)
	}
	wantFiles := []rewind.FileChange{{Path: "kept.txt"}, {Path: "bin.dat"}, {Path: "gone.txt"}, {Path: "sub/new.txt", Delete: true}}
	if !reflect.DeepEqual(res.Files, wantFiles) {
		t.Errorf("files %+v, want %+v", res.Files, wantFiles)
	}
	// Restoring again to the same point finds nothing to do.
	if res, err := w.restore(cp, rewind.Options{}); err != nil || len(res.Files) != 0 || res.DroppedEvents != 0 {
		t.Errorf("second restore: %+v %v", res, err)
	}
}

func TestRestoreRefusalsChangeNothing(t *testing.T) {
	type setup struct {
		w     *world
		cp    int64
		split int64
	}
	build := func(t *testing.T) setup {
		w := newWorld(t, nil)
		w.write("a.txt", "a0")
		w.write("big.txt", strings.Repeat("x", 100))
		cp := w.prompt("go")
		w.change("a.txt", []byte("a1"))
		w.change("big.txt", []byte("small"))
		w.prompt("next")
		w.append(session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, ID: "open", Name: "bash"}}}})
		split := w.head()
		w.append(session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: "open", Content: "ok"}})
		return setup{w, cp, split}
	}
	for _, c := range []struct {
		name   string
		seq    func(s setup) int64
		opts   rewind.Options
		target any
		is     error
	}{
		{"negative", func(setup) int64 { return -1 }, rewind.Options{}, new(*rewind.SequenceError), rewind.ErrBadSequence},
		{"past the head", func(s setup) int64 { return s.w.head() + 1 }, rewind.Options{}, new(*rewind.SequenceError), rewind.ErrBadSequence},
		{"splits a tool call", func(s setup) int64 { return s.split }, rewind.Options{ConversationOnly: true}, new(*rewind.SequenceError), rewind.ErrBadSequence},
		{"truncated snapshot", func(s setup) int64 { return s.cp }, rewind.Options{}, new(*rewind.FileError), rewind.ErrTruncatedSnapshot},
		{"truncated snapshot, dry run", func(s setup) int64 { return s.cp }, rewind.Options{DryRun: true}, new(*rewind.FileError), rewind.ErrTruncatedSnapshot},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := build(t)
			head, disk := s.w.head(), s.w.disk()
			_, err := s.w.restore(c.seq(s), c.opts)
			if !errors.As(err, c.target) || !errors.Is(err, c.is) {
				t.Fatalf("err = %v, want %T matching %v", err, c.target, c.is)
			}
			if s.w.head() != head || !reflect.DeepEqual(s.w.disk(), disk) {
				t.Errorf("something changed: head %d→%d, disk %q→%q", head, s.w.head(), disk, s.w.disk())
			}
		})
	}
	t.Run("conversation only ignores a truncated snapshot", func(t *testing.T) {
		s := build(t)
		disk := s.w.disk()
		if _, err := s.w.restore(s.cp, rewind.Options{ConversationOnly: true}); err != nil {
			t.Fatal(err)
		}
		if s.w.head() != s.cp || !reflect.DeepEqual(s.w.disk(), disk) {
			t.Errorf("head %d disk %q", s.w.head(), s.w.disk())
		}
	})
	t.Run("zero works and is idempotent", func(t *testing.T) {
		s := build(t)
		for range 2 {
			if _, err := s.w.restore(0, rewind.Options{ConversationOnly: true}); err != nil || s.w.head() != 0 {
				t.Fatalf("restore to 0: %v, head %d", err, s.w.head())
			}
		}
	})
}

func TestExternalChangeRefusedWithNoFileTouched(t *testing.T) {
	w := newWorld(t, nil)
	w.write("a.txt", "a0")
	w.write("b.txt", "b0")
	cp := w.prompt("go")
	w.change("a.txt", []byte("a1"))
	w.change("b.txt", []byte("b1"))
	w.write("b.txt", "edited by hand")
	head, disk := w.head(), w.disk()
	_, err := w.restore(cp, rewind.Options{})
	var fe *rewind.FileError
	if !errors.As(err, &fe) || fe.Path != "b.txt" || !errors.Is(err, rewind.ErrChangedOutside) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "b.txt") {
		t.Errorf("message does not name the file: %v", err)
	}
	if w.head() != head || !reflect.DeepEqual(w.disk(), disk) {
		t.Errorf("changed: %q", w.disk())
	}
	// The conversation alone can still go back.
	if _, err := w.restore(cp, rewind.Options{ConversationOnly: true}); err != nil || w.head() != cp {
		t.Fatalf("conversation only: %v", err)
	}
	if !reflect.DeepEqual(w.disk(), disk) {
		t.Errorf("conversation-only restore touched files: %q", w.disk())
	}
}

// failingFiles fails the nth Write (counting from 1), and every rollback
// write when failRollback is set.
type failingFiles struct {
	rewind.Files
	n, writes    int
	failRollback bool
	failing      bool
}

func (f *failingFiles) Write(ctx context.Context, p string, data []byte) error {
	f.writes++
	if f.writes == f.n || (f.failing && f.failRollback) {
		f.failing = true
		return errors.New("injected write failure")
	}
	return f.Files.Write(ctx, p, data)
}

func TestFailureAfterTheSecondOfThreeFilesRollsBackBoth(t *testing.T) {
	for _, failRollback := range []bool{false, true} {
		w := newWorld(t, nil)
		w.write("a.txt", "a0")
		w.write("b.txt", "b0")
		w.write("c.txt", "c0")
		cp := w.prompt("go")
		for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
			w.change(n, []byte(n[:1]+"1"))
		}
		head, disk := w.head(), w.disk()
		var phases []rewind.Phase
		var last rewind.Progress
		ff := &failingFiles{Files: w.files, n: 3, failRollback: failRollback}
		_, err := rewind.Restore(context.Background(), w.cp, ff, w.id, cp, rewind.Options{}, func(p rewind.Progress) {
			phases = append(phases, p.Phase)
			if p.Phase != rewind.PhaseError && p.Err != nil {
				t.Errorf("%s report with Err %v", p.Phase, p.Err)
			}
			last = p
		})
		if err == nil || !strings.Contains(err.Error(), "injected") {
			t.Fatalf("err = %v", err)
		}
		wantPhases := []rewind.Phase{rewind.PhaseStart, rewind.PhaseProgress, rewind.PhaseProgress, rewind.PhaseError}
		if !reflect.DeepEqual(phases, wantPhases) {
			t.Errorf("phases %v", phases)
		}
		// The error report carries the error Restore returns, typed.
		var fe *rewind.FileError
		if last.Err != err || !errors.As(last.Err, &fe) || fe.Path != "c.txt" || last.Message != err.Error() {
			t.Errorf("error report: Err %#v, Message %q; want %v", last.Err, last.Message, err)
		}
		if w.head() != head {
			t.Errorf("head %d, want %d", w.head(), head)
		}
		var rb *rewind.RollbackError
		if !failRollback {
			if errors.As(err, &rb) || !reflect.DeepEqual(w.disk(), disk) {
				t.Errorf("err %v, disk %q, want %q", err, w.disk(), disk)
			}
			continue
		}
		if !errors.As(err, &rb) || len(rb.Failed) != 2 || !strings.Contains(err.Error(), "b.txt") {
			t.Errorf("rollback failure not reported: %v", err)
		}
	}
}

// failingTruncate is a checkpointer whose Truncate to anything but the
// head fails with err.
type failingTruncate struct {
	session.Checkpointer
	err error
}

func (f failingTruncate) Truncate(ctx context.Context, id string, toSeq, expectedHead int64) error {
	if h, _ := f.Head(ctx, id); toSeq == h && !errors.Is(f.err, errors.ErrUnsupported) {
		return f.Checkpointer.Truncate(ctx, id, toSeq, expectedHead)
	}
	return f.err
}

func TestTruncateFailures(t *testing.T) {
	w := newWorld(t, nil)
	w.write("a.txt", "a0")
	cp := w.prompt("go")
	w.change("a.txt", []byte("a1"))
	head, disk := w.head(), w.disk()

	_, err := rewind.Restore(context.Background(), failingTruncate{w.cp, errors.New("disk gone")}, w.files, w.id, cp, rewind.Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), "disk gone") || w.head() != head || !reflect.DeepEqual(w.disk(), disk) {
		t.Fatalf("failed truncate: err %v, head %d, disk %q", err, w.head(), w.disk())
	}
	_, err = rewind.Restore(context.Background(), failingTruncate{w.cp, errors.ErrUnsupported}, w.files, w.id, cp, rewind.Options{}, nil)
	if !errors.Is(err, rewind.ErrNoTruncate) || !reflect.DeepEqual(w.disk(), disk) {
		t.Fatalf("no truncate: %v", err)
	}
	// Files only needs no truncate; afterwards the agent's log is intact.
	if _, err := rewind.Restore(context.Background(), failingTruncate{w.cp, errors.ErrUnsupported}, w.files, w.id, cp, rewind.Options{FilesOnly: true}, nil); err != nil {
		t.Fatal(err)
	}
	if w.head() != head || w.disk()["a.txt"] != "a0" {
		t.Errorf("files only: head %d disk %q", w.head(), w.disk())
	}
}

// growingHead appends a record to the log the first time Head is called,
// as another writer would between the plan and the apply.
type growingHead struct {
	session.Checkpointer
	grown bool
}

func (g *growingHead) Head(ctx context.Context, id string) (int64, error) {
	if !g.grown {
		g.grown = true
		g.Checkpointer.Append(ctx, id, []session.Event{session.AssistantEvent{Message: model.AssistantText("late")}}, session.AnyHead)
	}
	return g.Checkpointer.Head(ctx, id)
}

func TestHeadMovedMeanwhileIsAConflict(t *testing.T) {
	w := newWorld(t, nil)
	w.write("a.txt", "a0")
	cp := w.prompt("go")
	w.change("a.txt", []byte("a1"))
	_, err := rewind.Restore(context.Background(), &growingHead{Checkpointer: w.cp}, w.files, w.id, cp, rewind.Options{}, nil)
	if !errors.Is(err, session.ErrConflict) || w.disk()["a.txt"] != "a1" {
		t.Fatalf("err %v disk %q", err, w.disk())
	}
}

func TestMissingSession(t *testing.T) {
	w := newWorld(t, nil)
	if _, err := w.restore(0, rewind.Options{}); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("restore: %v", err)
	}
	if _, err := rewind.Fork(context.Background(), w.cp, "s1", rewind.AtHead, "s2"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("fork: %v", err)
	}
}

func TestDryRunPlansWhatTheRestoreDoes(t *testing.T) {
	w := newWorld(t, nil)
	w.write("a.txt", "a0")
	cp := w.prompt("go")
	w.change("a.txt", []byte("a1"))
	w.change("new.txt", []byte("n"))
	head, disk := w.head(), w.disk()
	plan, err := w.restore(cp, rewind.Options{DryRun: true})
	if err != nil || w.head() != head || !reflect.DeepEqual(w.disk(), disk) {
		t.Fatalf("dry run: %v; head %d disk %q", err, w.head(), w.disk())
	}
	res, err := w.restore(cp, rewind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	plan.DryRun = false
	if !reflect.DeepEqual(plan, res) {
		t.Errorf("plan %+v, result %+v", plan, res)
	}
}

func TestRestoreOfAnEncodedSession(t *testing.T) {
	fc, err := session.NewFileCheckpointer(t.TempDir(), session.FileOptions{Encoding: testcodec.Encoding(testcodec.AEAD("k1", "a"))})
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, fc)
	w.write("a.txt", "secret 0")
	cp := w.prompt("go")
	w.change("a.txt", []byte("secret 1"))
	w.prompt("again")
	log, _ := os.ReadFile(filepath.Join(fc.Dir(), "s1.jsonl"))
	if bytes.Contains(log, []byte("secret")) {
		t.Fatal("the log is not encoded")
	}
	if _, err := w.restore(cp, rewind.Options{}); err != nil {
		t.Fatal(err)
	}
	if w.disk()["a.txt"] != "secret 0" || w.head() != cp {
		t.Errorf("disk %q head %d", w.disk(), w.head())
	}
	// A fresh checkpointer reads the truncated log.
	fc2, _ := session.NewFileCheckpointer(fc.Dir(), session.FileOptions{Encoding: testcodec.Encoding(testcodec.AEAD("k1", "a"))})
	if evs, err := fc2.Read(context.Background(), "s1", 0); err != nil || int64(len(evs)) != cp {
		t.Errorf("cold read: %d %v", len(evs), err)
	}
}

func TestForkCopiesThePrefixAndLeavesTheOriginal(t *testing.T) {
	w := newWorld(t, nil)
	w.write("a.txt", "a0")
	w.prompt("one")
	w.change("a.txt", []byte("a1"))
	at := w.prompt("two")
	w.change("a.txt", []byte("a2"))
	head, disk := w.head(), w.disk()
	ctx := context.Background()

	n, err := rewind.Fork(ctx, w.cp, "s1", at, "s2")
	if err != nil || n != at {
		t.Fatalf("fork: %d %v", n, err)
	}
	orig, _ := w.cp.Read(ctx, "s1", 0)
	fork, _ := w.cp.Read(ctx, "s2", 0)
	if int64(len(orig)) != head || !reflect.DeepEqual(w.disk(), disk) {
		t.Errorf("original changed: %d records, disk %q", len(orig), w.disk())
	}
	if !reflect.DeepEqual(session.Fold(fork), session.Fold(orig[:at])) {
		t.Errorf("fork folds to %v", session.Fold(fork))
	}
	if _, err := rewind.Fork(ctx, w.cp, "s1", at, "s2"); !errors.Is(err, session.ErrConflict) {
		t.Errorf("fork onto a used id: %v", err)
	}
	if _, err := rewind.Fork(ctx, w.cp, "s1", at+2, "s3"); !errors.Is(err, rewind.ErrBadSequence) {
		t.Errorf("fork splitting a call: %v", err)
	}
	if _, err := rewind.Fork(ctx, w.cp, "s1", 0, "s5"); !errors.Is(err, rewind.ErrBadSequence) || !strings.Contains(err.Error(), "copies nothing") {
		t.Errorf("fork at 0: %v", err)
	}
	if n, err := rewind.Fork(ctx, w.cp, "s1", rewind.AtHead, "s4"); err != nil || n != head {
		t.Errorf("fork at head: %d %v", n, err)
	}
}

// holding is a checkpointer that is a session.Holder.
type holding struct {
	session.Checkpointer
	holds, releases int
	releaseErr      error
}

func (h *holding) Hold(context.Context, string) (func() error, error) {
	h.holds++
	return func() error { h.releases++; return h.releaseErr }, nil
}

func TestRestoreHoldsTheSession(t *testing.T) {
	w := newWorld(t, nil)
	w.write("a.txt", "a0")
	cp := w.prompt("go")
	w.change("a.txt", []byte("a1"))
	h := &holding{Checkpointer: w.cp}
	if _, err := rewind.Restore(context.Background(), h, w.files, w.id, cp, rewind.Options{DryRun: true}, nil); err != nil || h.holds != 1 || h.releases != 1 {
		t.Fatalf("dry run: %v, %d holds, %d releases", err, h.holds, h.releases)
	}
	h.releaseErr = errors.New("lock compromised")
	if _, err := rewind.Restore(context.Background(), h, w.files, w.id, cp, rewind.Options{}, nil); err == nil || !strings.Contains(err.Error(), "compromised") {
		t.Errorf("a lost lock passed for a success: %v", err)
	}
}

// Restore calls Options.Check with the head it read while the session
// is held, and a check's error changes nothing.
func TestRestoreChecksUnderTheHold(t *testing.T) {
	w := newWorld(t, nil)
	w.write("a.txt", "a0")
	cp := w.prompt("go")
	w.change("a.txt", []byte("a1"))
	head, disk := w.head(), w.disk()
	h := &holding{Checkpointer: w.cp}
	refused := errors.New("not yours")
	var seen int64 = -1
	_, err := rewind.Restore(context.Background(), h, w.files, w.id, cp, rewind.Options{Check: func(n int64) error {
		if h.holds != 1 || h.releases != 0 {
			t.Errorf("the check ran with %d holds, %d releases; want it under the hold", h.holds, h.releases)
		}
		seen = n
		return refused
	}}, nil)
	if err != refused || seen != head {
		t.Errorf("a refusing check: %v, saw head %d; want its error as is and head %d", err, seen, head)
	}
	if w.head() != head || !reflect.DeepEqual(w.disk(), disk) || h.releases != 1 {
		t.Errorf("a refused restore changed the log (head %d, want %d) or files %q, or kept the hold (%d releases)", w.head(), head, w.disk(), h.releases)
	}
	if _, err := rewind.Restore(context.Background(), h, w.files, w.id, cp, rewind.Options{Check: func(int64) error { return nil }}, nil); err != nil || w.head() != cp {
		t.Errorf("a passing check: %v, head %d; want the restore to %d", err, w.head(), cp)
	}
}
