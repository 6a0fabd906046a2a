package rewind_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/rewind"
	"github.com/lite-agent/lite-agent-go/session"
)

// A spelled is one tool call on a file of the workspace, recorded under a
// spelling of its path.
type spelled struct {
	path string // as recorded
	file string // the file it names, written on disk
	// kind is the snapshot's shape: "ok" as the tools write it,
	// "truncated" without the content, "unverifiable" without the after
	// hash, "bad" with content that does not decode.
	kind string
}

// TestListAndRestoreAgreeOnSpellings: a log whose snapshots spell one file
// several ways lists it once, and lists it unavailable exactly when a
// restore refuses it for what its snapshots say, whichever spelling the
// deciding snapshot uses.
func TestListAndRestoreAgreeOnSpellings(t *testing.T) {
	for _, c := range []struct {
		name           string
		calls          []spelled
		files, unavail []string
		reason         error // of the refusal, when unavail is not empty
	}{
		{"spellings of one file are one file",
			[]spelled{{"a.txt", "a.txt", "ok"}, {"./b.txt", "b.txt", "ok"}, {"./a.txt", "a.txt", "ok"}, {"d/../a.txt", "a.txt", "ok"}, {"b.txt", "b.txt", "ok"}},
			[]string{"a.txt", "b.txt"}, []string{}, nil},
		{"the first snapshot, spelled otherwise, is truncated",
			[]spelled{{"./a.txt", "a.txt", "truncated"}, {"a.txt", "a.txt", "ok"}},
			[]string{"a.txt"}, []string{"a.txt"}, rewind.ErrTruncatedSnapshot},
		{"a later truncated snapshot, spelled otherwise, does not matter",
			[]spelled{{"a.txt", "a.txt", "ok"}, {"./a.txt", "a.txt", "truncated"}},
			[]string{"a.txt"}, []string{}, nil},
		{"the last snapshot, spelled otherwise, is unverifiable",
			[]spelled{{"a.txt", "a.txt", "ok"}, {"d/../a.txt", "a.txt", "unverifiable"}},
			[]string{"a.txt"}, []string{"a.txt"}, rewind.ErrUnverifiableSnapshot},
		{"an unverifiable snapshot followed by a verifiable one spelled otherwise",
			[]spelled{{"./a.txt", "a.txt", "unverifiable"}, {"a.txt", "a.txt", "ok"}},
			[]string{"a.txt"}, []string{}, nil},
		{"a bad snapshot under any spelling",
			[]spelled{{"./a.txt", "a.txt", "bad"}, {"a.txt", "a.txt", "ok"}, {"b.txt", "b.txt", "ok"}},
			[]string{"a.txt", "b.txt"}, []string{"a.txt"}, rewind.ErrBadSnapshot},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, nil)
			version := map[string]int{}
			content := func(file string) string { return file + " v" + string(rune('0'+version[file])) }
			for _, call := range c.calls {
				w.write(call.file, content(call.file))
			}
			cp := w.prompt("go")
			for _, call := range c.calls {
				prev := content(call.file)
				version[call.file]++
				next := content(call.file)
				snap := session.FileSnapshotEvent{Path: call.path, Before: ptr(prev), Encoding: "utf8", After: sha(next)}
				switch call.kind {
				case "truncated":
					snap.Before, snap.Encoding, snap.Truncated = nil, "", true
				case "unverifiable":
					snap.After = ""
				case "bad":
					snap.Before, snap.Encoding = ptr("!!"), "base64"
				}
				w.calls++
				id := "call_" + strings.Repeat("x", w.calls)
				w.append(session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, ID: id, Name: "write_file"}}}},
					snap,
					session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: id, Content: "ok"}})
				w.write(call.file, next)
			}
			events, err := w.cp.Read(context.Background(), w.id, 0)
			if err != nil {
				t.Fatal(err)
			}
			cps := rewind.List(events)
			if len(cps) != 1 || cps[0].Seq != cp {
				t.Fatalf("checkpoints %+v", cps)
			}
			if !reflect.DeepEqual(cps[0].Files, c.files) || !reflect.DeepEqual(cps[0].UnavailableFiles, c.unavail) {
				t.Errorf("listed files %q, unavailable %q; want %q, %q", cps[0].Files, cps[0].UnavailableFiles, c.files, c.unavail)
			}

			disk := w.disk()
			res, err := w.restore(cp, rewind.Options{})
			if len(c.unavail) > 0 {
				var fe *rewind.FileError
				if !errors.As(err, &fe) || !errors.Is(err, c.reason) || fe.Path != c.unavail[0] {
					t.Fatalf("restore: %v, want a refusal of %s for %v", err, c.unavail[0], c.reason)
				}
				if !reflect.DeepEqual(w.disk(), disk) {
					t.Errorf("a refused restore changed the disk: %q", w.disk())
				}
				return
			}
			if err != nil {
				t.Fatalf("restore of files listed available: %v", err)
			}
			var restored []string
			for _, f := range res.Files {
				restored = append(restored, f.Path)
			}
			if !reflect.DeepEqual(slices.Sorted(slices.Values(restored)), c.files) {
				t.Errorf("restored %q, listed %q", restored, c.files)
			}
			for _, f := range c.files {
				if got := w.disk()[f]; got != f+" v0" {
					t.Errorf("%s is %q after the restore", f, got)
				}
			}
		})
	}
}

// TestListKeepsAnAbsoluteSpellingApart pins where List and Restore still
// differ, as List's doc says: an absolute path inside the workspace is
// one file with its relative spelling for the restore, which resolves it,
// and another file for List, which cannot.
func TestListKeepsAnAbsoluteSpellingApart(t *testing.T) {
	w := newWorld(t, nil)
	w.write("a.txt", "v0")
	cp := w.prompt("go")
	abs := filepath.Join(w.dir, "a.txt")
	for i, p := range []string{"a.txt", abs} {
		w.calls++
		id := "call_" + strings.Repeat("x", w.calls)
		prev, next := "v"+string(rune('0'+i)), "v"+string(rune('1'+i))
		w.append(session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, ID: id}}}},
			session.FileSnapshotEvent{Path: p, Before: ptr(prev), Encoding: "utf8", After: sha(next)},
			session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: id}})
		w.write("a.txt", next)
	}
	events, _ := w.cp.Read(context.Background(), w.id, 0)
	if cps := rewind.List(events); len(cps) != 1 || !reflect.DeepEqual(cps[0].Files, []string{filepath.ToSlash(abs), "a.txt"}) {
		t.Errorf("checkpoints %+v", cps)
	}
	res, err := w.restore(cp, rewind.Options{DryRun: true})
	if err != nil || len(res.Files) != 1 || res.Files[0].Path != "a.txt" {
		t.Errorf("restore plan %+v, %v", res, err)
	}
}

// partial is a checkpointer whose file snapshots read back in part, as
// a log's record with a member this version does not know does.
type partial struct{ session.Checkpointer }

func (p partial) Read(ctx context.Context, id string, after int64) ([]session.StoredEvent, error) {
	events, err := p.Checkpointer.Read(ctx, id, after)
	for i := range events {
		if _, ok := events[i].Event.(session.FileSnapshotEvent); ok {
			events[i].Raw = []byte(`{"type":"file_snapshot","unknown":1}`)
		}
	}
	return events, err
}

// TestFileErrorNamesTheResolvedPath: a refused file is named as the
// restore's files are, by its path resolved in the workspace, whichever
// spelling the log recorded; a path that does not resolve is named as
// recorded, and a snapshot read in part is refused for that first.
func TestFileErrorNamesTheResolvedPath(t *testing.T) {
	for _, c := range []struct{ recorded, want string }{
		{"./a.txt", "a.txt"},
		{"d/../a.txt", "a.txt"},
		{"../outside.txt", "../outside.txt"},
	} {
		t.Run(c.recorded, func(t *testing.T) {
			w := newWorld(t, partial{session.NewMemoryCheckpointer()})
			w.write("a.txt", "v0")
			cp := w.prompt("go")
			w.append(session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, ID: "call_1", Name: "write_file"}}}},
				session.FileSnapshotEvent{Path: c.recorded, Before: ptr("v0"), Encoding: "utf8", After: sha("v1")},
				session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: "call_1", Content: "ok"}})
			w.write("a.txt", "v1")
			_, err := w.restore(cp, rewind.Options{})
			var fe *rewind.FileError
			if !errors.As(err, &fe) || !errors.Is(err, rewind.ErrBadSnapshot) || fe.Path != c.want {
				t.Fatalf("restore: %v, want a refusal of %s for %v", err, c.want, rewind.ErrBadSnapshot)
			}
			if got := w.disk()["a.txt"]; got != "v1" {
				t.Errorf("a.txt is %q after a refused restore", got)
			}
		})
	}
}
