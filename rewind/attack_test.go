package rewind_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/testcodec"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/rewind"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// forged appends, after a checkpoint, one tool call whose snapshot is ev as
// an attacker wrote it into the log, and returns the checkpoint.
func (w *world) forged(ev session.FileSnapshotEvent) int64 {
	w.t.Helper()
	cp := w.prompt("go")
	w.calls++
	id := "call_forged_" + strings.Repeat("x", w.calls)
	w.append(session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, ID: id, Name: "write_file"}}}},
		ev,
		session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: id, Content: "ok"}},
		session.AssistantEvent{Message: model.AssistantText("done")})
	return cp
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func ptr(s string) *string { return &s }

// TestForgedSnapshotsAreRefused: a log an attacker wrote names files and
// contents the restore must not act on. Every case is refused, by a
// *FileError, with the workspace (and what lies outside it) unchanged and
// the log not truncated.
func TestForgedSnapshotsAreRefused(t *testing.T) {
	cases := []struct {
		name  string
		setup func(w *world, outside string)
		snap  func(w *world, outside string) session.FileSnapshotEvent
	}{
		{"absolute path outside", nil, func(w *world, outside string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: filepath.Join(outside, "secret.txt"), After: sha("x")}
		}},
		{"dot-dot escape", nil, func(w *world, outside string) session.FileSnapshotEvent {
			rel, _ := filepath.Rel(w.dir, filepath.Join(outside, "secret.txt"))
			return session.FileSnapshotEvent{Path: rel, After: sha("x")}
		}},
		{"protected .git/hooks", func(w *world, _ string) {
			os.MkdirAll(filepath.Join(w.dir, ".git", "hooks"), 0o755)
		}, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: ".git/hooks/pre-commit", Before: ptr("#!/bin/sh\ntouch pwned\n"), Encoding: "utf8", Deleted: true}
		}},
		{"protected data home", func(w *world, _ string) {
			os.MkdirAll(filepath.Join(w.dir, ".lite-agent"), 0o755)
		}, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: ".lite-agent/hooks.json", Before: ptr(`{"x":1}`), Encoding: "utf8", Deleted: true}
		}},
		{"symlinked parent", func(w *world, outside string) {
			os.Symlink(outside, filepath.Join(w.dir, "link"))
		}, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "link/secret.txt", Before: ptr("owned"), Encoding: "utf8", Deleted: true}
		}},
		{"symlink itself", func(w *world, outside string) {
			os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(w.dir, "s.txt"))
		}, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "s.txt", Deleted: true}
		}},
		{"NUL byte", nil, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "user.txt\x00.bak", Deleted: true}
		}},
		{"very long path", nil, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: strings.Repeat("d/", 3000) + "f", Deleted: true}
		}},
		{"workspace itself", nil, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: ".", Deleted: true}
		}},
		{"directory as the file", func(w *world, _ string) {
			os.MkdirAll(filepath.Join(w.dir, "dir", "inner"), 0o755)
			w.write("dir/inner/keep.txt", "keep")
		}, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "dir", Deleted: true}
		}},
		{"FIFO as the file", func(w *world, _ string) {
			if err := syscall.Mkfifo(filepath.Join(w.dir, "fifo"), 0o644); err != nil {
				w.t.Skip("mkfifo:", err)
			}
		}, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "fifo", Before: ptr("x"), Encoding: "utf8", Deleted: true}
		}},
		{"bad base64", nil, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "user.txt", Before: ptr("!!not base64!!"), Encoding: "base64", After: sha("mine")}
		}},
		{"unknown encoding", nil, func(w *world, _ string) session.FileSnapshotEvent {
			// "hex" is no encoding the log format has: its text must
			// not be written as if it were the content.
			return session.FileSnapshotEvent{Path: "user.txt", Before: ptr(hex.EncodeToString([]byte("evil"))), Encoding: "hex", After: sha("mine")}
		}},
		{"after not a sha256", nil, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "user.txt", Before: ptr("mine"), Encoding: "utf8", After: "lie"}
		}},
		{"truncated snapshot with content", nil, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "user.txt", Before: ptr("evil"), Encoding: "utf8", Truncated: true, After: sha("mine")}
		}},
		{"before:null, no after: a user's file the agent never created", nil, func(w *world, _ string) session.FileSnapshotEvent {
			// Neither after nor deleted: nothing says what the operation
			// left, so nothing shows the file on disk is the agent's.
			return session.FileSnapshotEvent{Path: "user.txt"}
		}},
		{"no after over a user's file", nil, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "user.txt", Before: ptr("evil"), Encoding: "utf8"}
		}},
		{"after lies about a user's file", nil, func(w *world, _ string) session.FileSnapshotEvent {
			return session.FileSnapshotEvent{Path: "user.txt", After: sha("what the agent wrote")}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			outside := t.TempDir()
			if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o600); err != nil {
				t.Fatal(err)
			}
			w := newWorld(t, nil)
			fr, err := builtin.NewFileRestorer(builtin.FileOptions{Workdir: w.dir, MaxSnapshotBytes: 64,
				Protected: []string{filepath.Join(w.dir, ".lite-agent"), filepath.Join(w.dir, ".git", "hooks")}})
			if err != nil {
				t.Fatal(err)
			}
			w.files = fr
			w.write("user.txt", "mine")
			if tc.setup != nil {
				tc.setup(w, outside)
			}
			cp := w.forged(tc.snap(w, outside))
			head := w.head()
			before := w.disk()

			for _, dry := range []bool{true, false} {
				res, err := w.restore(cp, rewind.Options{DryRun: dry})
				if err == nil {
					t.Fatalf("dry run %v: restore succeeded: %+v", dry, res)
				}
				var fe *rewind.FileError
				if !errorsAs(err, &fe) {
					t.Errorf("dry run %v: error %T %v, want a *rewind.FileError", dry, err, err)
				}
				// What the log alone condemns, the checkpoint list says
				// before anyone tries.
				if errors.Is(err, rewind.ErrTruncatedSnapshot) || errors.Is(err, rewind.ErrUnverifiableSnapshot) || errors.Is(err, rewind.ErrBadSnapshot) {
					cps, lerr := rewind.Checkpoints(t.Context(), w.cp, w.id)
					if lerr != nil {
						t.Fatal(lerr)
					}
					if last := cps[len(cps)-1]; last.Seq != cp || !slices.Contains(last.UnavailableFiles, tc.snap(w, outside).Path) {
						t.Errorf("refused with %v, but the checkpoint lists unavailable files %q", err, last.UnavailableFiles)
					}
				}
			}
			if got := w.disk(); !reflect.DeepEqual(got, before) {
				t.Errorf("workspace changed: %q, was %q", got, before)
			}
			if b, err := os.ReadFile(filepath.Join(outside, "secret.txt")); err != nil || string(b) != "secret" {
				t.Errorf("outside file: %q %v", b, err)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 1 {
				t.Errorf("outside dir has %d entries", len(ents))
			}
			if h := w.head(); h != head {
				t.Errorf("log truncated to %d, was %d", h, head)
			}
		})
	}
}

// TestHardLinkedOutsideFileIsNotWrittenThrough: a workspace file that is
// a hard link to a file outside is replaced, not written through.
func TestHardLinkedOutsideFileIsNotWrittenThrough(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, nil)
	if err := os.Link(outside, filepath.Join(w.dir, "h.txt")); err != nil {
		t.Skip("hard link:", err)
	}
	cp := w.forged(session.FileSnapshotEvent{Path: "h.txt", Before: ptr("evil"), Encoding: "utf8", After: sha("secret")})
	if _, err := w.restore(cp, rewind.Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "secret" {
		t.Errorf("the outside file became %q", b)
	}
}

// TestTwoSpellingsOfOneFileAreOnePlan: "a.txt", "./a.txt" and
// "sub/../a.txt" are one file, restored once to its earliest content.
func TestTwoSpellingsOfOneFileAreOnePlan(t *testing.T) {
	w := newWorld(t, nil)
	os.Mkdir(filepath.Join(w.dir, "sub"), 0o755)
	w.write("a.txt", "v0")
	cp := w.prompt("go")
	for i, p := range []string{"a.txt", "./a.txt", "sub/../a.txt", filepath.Join(w.dir, "a.txt")} {
		prev, next := "v"+string(rune('0'+i)), "v"+string(rune('1'+i))
		w.calls++
		id := "c" + strings.Repeat("x", w.calls)
		w.append(session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, ID: id}}}},
			session.FileSnapshotEvent{Path: p, Before: ptr(prev), Encoding: "utf8", After: sha(next)},
			session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: id}})
		w.write("a.txt", next)
	}
	res, err := w.restore(cp, rewind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Path != "a.txt" {
		t.Errorf("files %+v", res.Files)
	}
	if got := w.disk(); got["a.txt"] != "v0" {
		t.Errorf("disk %q", got)
	}
}

// TestBeforeNullDeletesOnlyWhatTheAgentLeft: a before:null snapshot with
// a true after deletes the file the agent created, and is refused once the
// user has put content of their own there.
func TestBeforeNullDeletesOnlyWhatTheAgentLeft(t *testing.T) {
	w := newWorld(t, nil)
	cp := w.prompt("go")
	w.change("new.txt", []byte("agent"))
	w.write("new.txt", "user's own now")
	if _, err := w.restore(cp, rewind.Options{}); err == nil {
		t.Fatal("restore deleted a file the user rewrote")
	}
	if got := w.disk(); got["new.txt"] != "user's own now" {
		t.Errorf("disk %q", got)
	}
	_ = context.Background
}

func errorsAs(err error, target **rewind.FileError) bool { return errors.As(err, target) }

// swapping is the real file restorer with an attacker between a file's
// check and its write: after the restore's second read of path (the
// re-check in apply), the file's parent directory becomes a symbolic link
// to a directory outside the workspace that holds the same file.
type swapping struct {
	*builtin.FileRestorer
	t         *testing.T
	dir, path string
	outside   string
	reads     int
	swapped   bool
}

func (s *swapping) Read(ctx context.Context, p string) ([]byte, bool, error) {
	data, exists, err := s.FileRestorer.Read(ctx, p)
	if p == s.path {
		s.reads++
		if s.reads == 2 {
			parent := filepath.Join(s.dir, filepath.Dir(p))
			if err := os.Rename(parent, parent+".moved"); err != nil {
				s.t.Fatal(err)
			}
			if err := os.Symlink(s.outside, parent); err != nil {
				s.t.Fatal(err)
			}
			s.swapped = true
		}
	}
	return data, exists, err
}

func TestSymlinkSwappedInBetweenCheckAndWriteIsRefused(t *testing.T) {
	for _, del := range []bool{false, true} {
		t.Run(map[bool]string{false: "write", true: "delete"}[del], func(t *testing.T) {
			outside := t.TempDir()
			w := newWorld(t, nil)
			os.Mkdir(filepath.Join(w.dir, "sub"), 0o755)
			w.write("sub/a.txt", "v0")
			cp := w.prompt("go")
			if del {
				w.change("sub/b.txt", []byte("made"))
				os.WriteFile(filepath.Join(outside, "b.txt"), []byte("made"), 0o600)
			} else {
				w.change("sub/a.txt", []byte("v1"))
				os.WriteFile(filepath.Join(outside, "a.txt"), []byte("v1"), 0o600)
			}
			p := "sub/a.txt"
			if del {
				p = "sub/b.txt"
			}
			sw := &swapping{FileRestorer: w.files, t: t, dir: w.dir, path: p, outside: outside}
			head := w.head()
			_, err := rewind.Restore(context.Background(), w.cp, sw, w.id, cp, rewind.Options{}, nil)
			if !sw.swapped {
				t.Fatal("the swap did not happen")
			}
			if err == nil {
				t.Fatal("restore through a swapped-in symbolic link succeeded")
			}
			ents, _ := os.ReadDir(outside)
			if len(ents) != 1 {
				t.Errorf("outside holds %d entries", len(ents))
			}
			name := filepath.Join(outside, filepath.Base(p))
			if b, err := os.ReadFile(name); err != nil || (string(b) != "v1" && string(b) != "made") {
				t.Errorf("outside file %q %v", b, err)
			}
			if h := w.head(); h != head {
				t.Errorf("log truncated to %d, was %d", h, head)
			}
		})
	}
}

// TestForkAttacksOnAFileStore: a fork's new id cannot name a file outside
// the store, overwrite a session, write through a symbolic link planted
// under the new id, or write an encoded session's records in plaintext.
func TestForkAttacksOnAFileStore(t *testing.T) {
	ctx := context.Background()
	fc, err := session.NewFileCheckpointer(t.TempDir(), session.FileOptions{Encoding: testcodec.Encoding(testcodec.AEAD("k1", "a"))})
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, fc)
	w.write("a.txt", "secret 0")
	w.prompt("go")
	w.change("a.txt", []byte("secret 1"))
	w.id = "other"
	w.prompt("the other session")
	w.id = "s1"
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.jsonl")
	os.WriteFile(victim, nil, 0o600)
	os.Symlink(victim, filepath.Join(fc.Dir(), "planted.jsonl"))
	otherLog, _ := os.ReadFile(filepath.Join(fc.Dir(), "other.jsonl"))

	for _, id := range []string{"../escape", filepath.Join(outside, "abs"), "a/b", "other", "planted", "s1", "", "x\x00y"} {
		if _, err := rewind.Fork(ctx, fc, "s1", rewind.AtHead, id); err == nil {
			t.Errorf("fork into %q succeeded", id)
		}
	}
	// Nor can a source id reach another namespace's logs.
	for _, id := range []string{"../other", "../../x/sessions/s1", filepath.Join(fc.Dir(), "s1")} {
		if _, err := rewind.Fork(ctx, fc, id, rewind.AtHead, "from-elsewhere"); err == nil {
			t.Errorf("fork of %q succeeded", id)
		}
		if _, err := rewind.Restore(ctx, fc, w.files, id, 0, rewind.Options{}, nil); err == nil {
			t.Errorf("restore of %q succeeded", id)
		}
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("outside holds %d entries", len(ents))
	}
	if b, _ := os.ReadFile(victim); len(b) != 0 {
		t.Errorf("written through the planted link: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(fc.Dir(), "other.jsonl")); !bytes.Equal(b, otherLog) {
		t.Error("the fork changed an existing session")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(fc.Dir()), "escape.jsonl")); err == nil {
		t.Error("a fork escaped the store")
	}
	if _, err := rewind.Fork(ctx, fc, "s1", rewind.AtHead, "copy"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(fc.Dir(), "copy.jsonl"))
	if len(b) == 0 || bytes.Contains(b, []byte("secret")) {
		t.Errorf("the fork of an encoded session is not encoded: %q", b)
	}
	orig, _ := fc.Read(ctx, "s1", 0)
	fork, err := fc.Read(ctx, "copy", 0)
	if err != nil || !reflect.DeepEqual(session.Fold(fork), session.Fold(orig)) {
		t.Errorf("fork reads back %v %v", len(fork), err)
	}
}

// TestRestoresRacingEachOtherAndATurn: two restores of one session through
// two file checkpointers (as two processes would), while a third appends
// as a turn does (with the head it read), end in one of two states: the
// checkpoint's files with the log cut there (and the turn's record, if
// it came after), or nothing restored. Never files restored with the log
// uncut, or half the files.
func TestRestoresRacingEachOtherAndATurn(t *testing.T) {
	dir := t.TempDir()
	open := func() *session.FileCheckpointer {
		fc, err := session.NewFileCheckpointer(dir, session.FileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return fc
	}
	for round := 0; round < 8; round++ {
		w := newWorld(t, open())
		w.id = "race" + strings.Repeat("x", round)
		w.write("a.txt", "a0")
		w.write("b.txt", "b0")
		cp := w.prompt("go")
		w.change("a.txt", []byte("a1"))
		w.change("b.txt", []byte("b1"))
		w.change("c.txt", []byte("c1"))
		ctx := context.Background()
		errs := make(chan error, 3)
		for i := 0; i < 2; i++ {
			fc := open()
			go func() {
				_, err := rewind.Restore(ctx, fc, w.files, w.id, cp, rewind.Options{}, nil)
				errs <- err
			}()
		}
		turn := open()
		go func() {
			h, err := turn.Head(ctx, w.id)
			if err == nil {
				_, err = turn.Append(ctx, w.id, []session.Event{session.AssistantEvent{Message: model.AssistantText("turn")}}, h)
			}
			errs <- err
		}()
		var ok int
		for i := 0; i < 3; i++ {
			err := <-errs
			var rb *rewind.RollbackError
			if errors.As(err, &rb) {
				t.Fatalf("round %d: %v", round, err)
			}
			if err == nil {
				ok++
			}
		}
		disk, head := w.disk(), w.head()
		restored := map[string]string{"a.txt": "a0", "b.txt": "b0"}
		untouched := map[string]string{"a.txt": "a1", "b.txt": "b1", "c.txt": "c1"}
		switch {
		case reflect.DeepEqual(disk, restored):
			if head != cp && head != cp+1 {
				t.Errorf("round %d: files restored, log head %d (checkpoint %d)", round, head, cp)
			}
		case reflect.DeepEqual(disk, untouched):
			if head <= cp {
				t.Errorf("round %d: log cut, files not restored", round)
			}
		default:
			t.Errorf("round %d: half restored: %q (head %d)", round, disk, head)
		}
		if ok == 0 {
			t.Errorf("round %d: nothing succeeded", round)
		}
	}
}

// TestSnapshotsReadLossilyAreRefused: a plaintext log edited by hand (an
// agent's bash, a cloned data home) holds a file_snapshot this version
// reads only in part: a member it does not know (which might change what
// before means) or a lone UTF-16 surrogate, read as U+FFFD. Writing what
// was understood would write something else than the log holds; the file
// restore is refused, nothing changed.
func TestSnapshotsReadLossilyAreRefused(t *testing.T) {
	cases := map[string]string{
		"unknown member": `{"type":"file_snapshot","path":"user.txt","before":"H4sIAAAAAAAA","encoding":"utf8","compression":"gzip","after":"%s","turn":1}`,
		"lone surrogate": `{"type":"file_snapshot","path":"user.txt","before":"\ud800mine","encoding":"utf8","after":"%s","turn":1}`,
	}
	for name, event := range cases {
		t.Run(name, func(t *testing.T) {
			fc, err := session.NewFileCheckpointer(t.TempDir(), session.FileOptions{})
			if err != nil {
				t.Fatal(err)
			}
			w := newWorld(t, fc)
			w.write("user.txt", "mine")
			cp := w.prompt("go")
			w.append(session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, ID: "c1", Name: "write_file"}}}})
			seq := w.head() + 1
			line := fmt.Sprintf(`{"seq":%d,"sessionId":"s1","parentSeq":%d,"ts":"2026-12-02T05:30:00.000Z","event":`+event+"}\n", seq, seq-1, sha("mine"))
			f, err := os.OpenFile(filepath.Join(fc.Dir(), "s1.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(line)
			f.Close()
			w.append(session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: "c1", Content: "ok"}})
			head := w.head()
			if head != seq+1 {
				t.Fatalf("head %d, want %d: the crafted line was not read", head, seq+1)
			}
			for _, dry := range []bool{true, false} {
				var fe *rewind.FileError
				if _, err := w.restore(cp, rewind.Options{DryRun: dry}); !errors.As(err, &fe) || !errors.Is(err, rewind.ErrBadSnapshot) {
					t.Errorf("dry run %v: %v, want a *FileError for ErrBadSnapshot", dry, err)
				}
			}
			if got := w.disk(); got["user.txt"] != "mine" || w.head() != head {
				t.Errorf("disk %q, head %d", got, w.head())
			}
		})
	}
}

// TestFileErrorQuotesAForgedPath: the path a FileError names comes from
// the log; a line break or terminal escape in it is shown quoted.
func TestFileErrorQuotesAForgedPath(t *testing.T) {
	msg := (&rewind.FileError{Path: "a\nb\x1b[2K", Reason: rewind.ErrChangedOutside}).Error()
	if strings.ContainsAny(msg, "\n\x1b") || !strings.Contains(msg, `"a\nb\x1b[2K"`) {
		t.Errorf("message %q", msg)
	}
	if msg := (&rewind.FileError{Path: "ok.txt", Reason: rewind.ErrChangedOutside}).Error(); !strings.HasPrefix(msg, "cannot restore ok.txt:") {
		t.Errorf("message %q", msg)
	}
}

// TestCraftedToolPairingStillSplits: a result placed before its call, or
// a call id reused after its first result, does not make a cut between a
// call and its result look whole.
func TestCraftedToolPairingStillSplits(t *testing.T) {
	call := func(id string) session.Event {
		return session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, ID: id, Name: "bash"}}}}
	}
	result := func(id string) session.Event {
		return session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: id, Content: "ok"}}
	}
	cases := map[string][]session.Event{
		"result before its call": {result("x"), call("x")},
		"call id reused":         {call("x"), result("x"), call("x")},
	}
	for name, evs := range cases {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, nil)
			w.prompt("go")
			w.append(evs...)
			cut := w.head()
			w.append(result("x"))
			for _, dry := range []bool{true, false} {
				if _, err := w.restore(cut, rewind.Options{DryRun: dry}); !errors.Is(err, rewind.ErrBadSequence) {
					t.Errorf("dry run %v: %v", dry, err)
				}
			}
			if _, err := rewind.Fork(context.Background(), w.cp, w.id, cut, "f"); !errors.Is(err, rewind.ErrBadSequence) {
				t.Errorf("fork: %v", err)
			}
		})
	}
}
