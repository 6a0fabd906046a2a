package builtin_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// pathFixture lays out a workspace with links in and out:
//
//	inside.txt           "inside"
//	sub/inside.txt       "sub inside"
//	link_in      -> <ws>/inside.txt        (absolute, stays inside)
//	rel_in       -> inside.txt             (relative, stays inside)
//	link_out     -> <outside>/secret.txt
//	dir_out      -> <outside>
//	dangling     -> <ws>/nowhere.txt
//	dangling_out -> <outside>/new.txt
//	up_out       -> ../outside/secret.txt  (relative, escapes)
func pathFixture(t *testing.T, opts builtin.FileOptions) *fileEnv {
	t.Helper()
	e := newFileEnv(t, opts)
	writeFile(t, e.path("inside.txt"), "inside")
	writeFile(t, e.path("sub/inside.txt"), "sub inside")
	symlink(t, e.path("inside.txt"), e.path("link_in"))
	symlink(t, "inside.txt", e.path("rel_in"))
	symlink(t, filepath.Join(e.outside, "secret.txt"), e.path("link_out"))
	symlink(t, e.outside, e.path("dir_out"))
	symlink(t, e.path("nowhere.txt"), e.path("dangling"))
	symlink(t, filepath.Join(e.outside, "new.txt"), e.path("dangling_out"))
	symlink(t, "../outside/secret.txt", e.path("up_out"))
	return e
}

func TestPathRules(t *testing.T) {
	type input = map[string]any
	tests := []struct {
		name  string
		tool  string
		input func(e *fileEnv) input
		want  func(e *fileEnv) string // the exact content
		isErr bool
	}{
		{"ReadRelative", "read_file", func(e *fileEnv) input { return input{"path": "inside.txt"} }, text("inside"), false},
		{"ReadAbsoluteInside", "read_file", func(e *fileEnv) input { return input{"path": e.path("inside.txt")} }, text("inside"), false},
		{"ReadDotDotStayingInside", "read_file", func(e *fileEnv) input { return input{"path": "sub/../sub/inside.txt"} }, text("sub inside"), false},
		{"ReadDotDotEscape", "read_file", func(e *fileEnv) input { return input{"path": "../outside/secret.txt"} }, text("Error: Path escapes workspace: ../outside/secret.txt"), true},
		{"ReadDeepDotDotEscape", "read_file", func(e *fileEnv) input { return input{"path": "sub/../../outside/secret.txt"} }, text("Error: Path escapes workspace: sub/../../outside/secret.txt"), true},
		{"ReadAbsoluteOutside", "read_file", func(e *fileEnv) input { return input{"path": filepath.Join(e.outside, "secret.txt")} },
			func(e *fileEnv) string {
				return "Error: Path escapes workspace: " + filepath.Join(e.outside, "secret.txt")
			}, true},
		{"ReadAbsoluteDotDotOutside", "read_file", func(e *fileEnv) input { return input{"path": e.dir + "/../outside/secret.txt"} },
			func(e *fileEnv) string { return "Error: Path escapes workspace: " + e.dir + "/../outside/secret.txt" }, true},
		{"ReadAbsoluteLinkInside", "read_file", func(e *fileEnv) input { return input{"path": "link_in"} }, text("inside"), false},
		{"ReadRelativeLinkInside", "read_file", func(e *fileEnv) input { return input{"path": "rel_in"} }, text("inside"), false},
		{"ReadLinkOut", "read_file", func(e *fileEnv) input { return input{"path": "link_out"} }, text("Error: Symlink escapes workspace: link_out"), true},
		{"ReadRelativeLinkOut", "read_file", func(e *fileEnv) input { return input{"path": "up_out"} }, text("Error: Symlink escapes workspace: up_out"), true},
		{"ReadThroughDirLinkOut", "read_file", func(e *fileEnv) input { return input{"path": "dir_out/secret.txt"} }, text("Error: Symlink escapes workspace: dir_out/secret.txt"), true},
		{"ReadWorkspaceItself", "read_file", func(e *fileEnv) input { return input{"path": "."} }, text("Error: Not a regular file: ."), true},
		{"ReadDirectory", "read_file", func(e *fileEnv) input { return input{"path": "sub"} }, text("Error: Not a regular file: sub"), true},

		{"WriteDotDotEscape", "write_file", func(e *fileEnv) input { return input{"path": "../outside/secret.txt", "content": "x"} }, text("Error: Path escapes workspace: ../outside/secret.txt"), true},
		{"WriteAbsoluteOutside", "write_file", func(e *fileEnv) input { return input{"path": filepath.Join(e.outside, "new.txt"), "content": "x"} },
			func(e *fileEnv) string {
				return "Error: Path escapes workspace: " + filepath.Join(e.outside, "new.txt")
			}, true},
		{"WriteAbsoluteInside", "write_file", func(e *fileEnv) input { return input{"path": e.path("abs.txt"), "content": "abc"} },
			func(e *fileEnv) string { return "Wrote 3 bytes to " + e.path("abs.txt") }, false},
		{"WriteLinkInside", "write_file", func(e *fileEnv) input { return input{"path": "link_in", "content": "x"} }, text("Error: Symlink paths are not allowed for write: link_in"), true},
		{"WriteLinkOut", "write_file", func(e *fileEnv) input { return input{"path": "link_out", "content": "x"} }, text("Error: Symlink paths are not allowed for write: link_out"), true},
		{"WriteDangling", "write_file", func(e *fileEnv) input { return input{"path": "dangling", "content": "x"} }, text("Error: Symlink paths are not allowed for write: dangling"), true},
		{"WriteDanglingOut", "write_file", func(e *fileEnv) input { return input{"path": "dangling_out", "content": "x"} }, text("Error: Symlink paths are not allowed for write: dangling_out"), true},
		{"WriteThroughDirLink", "write_file", func(e *fileEnv) input { return input{"path": "dir_out/new.txt", "content": "x"} }, text("Error: Symlink paths are not allowed for write: dir_out/new.txt"), true},
		{"WriteThroughDirLinkDeep", "write_file", func(e *fileEnv) input { return input{"path": "dir_out/a/b/new.txt", "content": "x"} }, text("Error: Symlink paths are not allowed for write: dir_out/a/b/new.txt"), true},
		{"WriteWorkspaceItself", "write_file", func(e *fileEnv) input { return input{"path": ".", "content": "x"} }, text("Error: Not a regular file: ."), true},
		{"WriteDirectory", "write_file", func(e *fileEnv) input { return input{"path": "sub", "content": "x"} }, text("Error: Not a regular file: sub"), true},

		{"EditLinkOut", "edit_file", func(e *fileEnv) input { return input{"path": "link_out", "old_text": "secret", "new_text": "x"} }, text("Error: Symlink paths are not allowed for write: link_out"), true},
		{"EditDotDotEscape", "edit_file", func(e *fileEnv) input {
			return input{"path": "../outside/secret.txt", "old_text": "secret", "new_text": "x"}
		}, text("Error: Path escapes workspace: ../outside/secret.txt"), true},

		{"DeleteLinkOut", "delete_file", func(e *fileEnv) input { return input{"path": "link_out"} }, text("Error: Symlink paths are not allowed for delete: link_out"), true},
		{"DeleteLinkInside", "delete_file", func(e *fileEnv) input { return input{"path": "link_in"} }, text("Error: Symlink paths are not allowed for delete: link_in"), true},
		{"DeleteThroughDirLink", "delete_file", func(e *fileEnv) input { return input{"path": "dir_out/secret.txt"} }, text("Error: Symlink paths are not allowed for delete: dir_out/secret.txt"), true},
		{"DeleteAbsoluteOutside", "delete_file", func(e *fileEnv) input { return input{"path": filepath.Join(e.outside, "secret.txt")} },
			func(e *fileEnv) string {
				return "Error: Path escapes workspace: " + filepath.Join(e.outside, "secret.txt")
			}, true},
		{"DeleteDirectory", "delete_file", func(e *fileEnv) input { return input{"path": "sub"} }, text("Error: Not a regular file: sub"), true},
		{"DeleteMissing", "delete_file", func(e *fileEnv) input { return input{"path": "missing.txt"} }, text("Error: File not found: missing.txt"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := pathFixture(t, builtin.FileOptions{})
			before := treeHash(t, e.outside)
			wsBefore := treeHash(t, e.dir)
			res := call(t, e.tool(t, tt.tool), tt.input(e))
			if want := tt.want(e); res.Content != want || res.IsError != tt.isErr {
				t.Errorf("got %q (isError %t), want %q (isError %t)", res.Content, res.IsError, want, tt.isErr)
			}
			if after := treeHash(t, e.outside); after != before {
				t.Errorf("the directory outside the workspace changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if tt.isErr {
				if after := treeHash(t, e.dir); after != wsBefore {
					t.Errorf("a refused call changed the workspace:\nbefore:\n%s\nafter:\n%s", wsBefore, after)
				}
				if n := len(e.rec.all()); n != 0 {
					t.Errorf("a refused call recorded %d snapshots", n)
				}
			}
		})
	}
}

func text(s string) func(*fileEnv) string { return func(*fileEnv) string { return s } }

func TestSymlinksDenyRefusesLinksForReading(t *testing.T) {
	e := pathFixture(t, builtin.FileOptions{Symlinks: builtin.SymlinksDeny})
	for _, p := range []string{"link_in", "rel_in", "link_out"} {
		res := call(t, e.tool(t, "read_file"), map[string]any{"path": p})
		if want := "Error: Symlink paths are not allowed for read: " + p; res.Content != want || !res.IsError {
			t.Errorf("read %s: got %q, want %q", p, res.Content, want)
		}
	}
	if res := call(t, e.tool(t, "read_file"), map[string]any{"path": "inside.txt"}); res.Content != "inside" {
		t.Errorf("plain file: got %q", res.Content)
	}
}

func TestSymlinkedWorkdirAcceptsBothSpellings(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "ws")
	symlink(t, real, link)
	writeFile(t, filepath.Join(real, "a.txt"), "a")
	tools, err := builtin.FileTools(builtin.FileOptions{Workdir: link})
	if err != nil {
		t.Fatal(err)
	}
	read := byName(t, tools, "read_file")
	for _, p := range []string{"a.txt", filepath.Join(link, "a.txt"), filepath.Join(real, "a.txt")} {
		if res := call(t, read, map[string]any{"path": p}); res.Content != "a" {
			t.Errorf("read %s: got %q", p, res.Content)
		}
	}
	write := byName(t, tools, "write_file")
	if res := call(t, write, map[string]any{"path": filepath.Join(link, "b.txt"), "content": "b"}); res.IsError {
		t.Fatalf("write through the workdir link: %q", res.Content)
	}
	if got := readFile(t, filepath.Join(real, "b.txt")); got != "b" {
		t.Errorf("b.txt = %q", got)
	}
}

func TestReadRootsAllowReadingOnly(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "notes", "a.md"), "root note")
	fileRoot := filepath.Join(t.TempDir(), "s1.jsonl")
	writeFile(t, fileRoot, "log line")
	writeFile(t, filepath.Join(filepath.Dir(fileRoot), "s2.jsonl"), "other session")
	symlink(t, filepath.Join(e.outside, "secret.txt"), filepath.Join(root, "escape"))
	tools, err := builtin.FileTools(builtin.FileOptions{
		Workdir:   e.dir,
		ReadRoots: []string{root, fileRoot, "/nonexistent/root"},
		Snapshots: e.rec,
	})
	if err != nil {
		t.Fatal(err)
	}
	read, write, del := byName(t, tools, "read_file"), byName(t, tools, "write_file"), byName(t, tools, "delete_file")
	before := treeHash(t, root)

	tests := []struct {
		name, path, want string
	}{
		{"FileInDirectoryRoot", filepath.Join(root, "notes", "a.md"), "root note"},
		{"FileRoot", fileRoot, "log line"},
		{"SiblingOfFileRoot", filepath.Join(filepath.Dir(fileRoot), "s2.jsonl"), "Error: Path escapes workspace: " + filepath.Join(filepath.Dir(fileRoot), "s2.jsonl")},
		{"DotDotOutOfRoot", root + "/../" + filepath.Base(e.outside), "Error: Path escapes workspace: " + root + "/../" + filepath.Base(e.outside)},
		{"LinkOutOfRoot", filepath.Join(root, "escape"), "Error: Symlink escapes workspace: " + filepath.Join(root, "escape")},
		{"MissingInRoot", filepath.Join(root, "nope.md"), "Error: File not found: " + filepath.Join(root, "nope.md")},
		{"RelativePathNeverReachesRoot", "notes/a.md", ""}, // a not-found hint in the workspace
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, read, map[string]any{"path": tt.path})
			if tt.want == "" {
				if !strings.HasPrefix(res.Content, "Error: File not found: notes/a.md\n") {
					t.Errorf("got %q", res.Content)
				}
				return
			}
			if res.Content != tt.want {
				t.Errorf("got %q, want %q", res.Content, tt.want)
			}
		})
	}
	for _, tl := range []struct {
		name  string
		input map[string]any
	}{
		{"write_file", map[string]any{"path": filepath.Join(root, "notes", "a.md"), "content": "x"}},
		{"write_file", map[string]any{"path": filepath.Join(root, "new.md"), "content": "x"}},
		{"delete_file", map[string]any{"path": fileRoot}},
	} {
		tlt := write
		if tl.name == "delete_file" {
			tlt = del
		}
		res := call(t, tlt, tl.input)
		if want := "Error: Path escapes workspace: " + tl.input["path"].(string); res.Content != want {
			t.Errorf("%s %v: got %q, want %q", tl.name, tl.input["path"], res.Content, want)
		}
	}
	if after := treeHash(t, root); after != before {
		t.Errorf("the read root changed")
	}
	if got := readFile(t, fileRoot); got != "log line" {
		t.Errorf("the file root changed: %q", got)
	}
}

func TestSessionReadRootsAreResolvedPerCall(t *testing.T) {
	sessions := t.TempDir()
	writeFile(t, filepath.Join(sessions, "s1.jsonl"), "s1 log")
	writeFile(t, filepath.Join(sessions, "s1.context", "index.jsonl"), "s1 index")
	writeFile(t, filepath.Join(sessions, "s2.jsonl"), "s2 log")
	writeFile(t, filepath.Join(sessions, "s2.context", "index.jsonl"), "s2 index")
	tools, err := builtin.FileTools(builtin.FileOptions{
		Workdir: t.TempDir(),
		SessionReadRoots: func(ctx context.Context, id string) ([]string, error) {
			if id == "broken" {
				return nil, errors.New("no session")
			}
			return builtin.SessionDataRoots(sessions, id, storage.Encoding{}), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	read := byName(t, tools, "read_file")
	s1 := &tool.Call{SessionID: "s1"}
	for p, want := range map[string]string{
		filepath.Join(sessions, "s1.jsonl"):                  "s1 log",
		filepath.Join(sessions, "s1.context", "index.jsonl"): "s1 index",
		filepath.Join(sessions, "s2.jsonl"):                  "Error: Path escapes workspace: " + filepath.Join(sessions, "s2.jsonl"),
		filepath.Join(sessions, "s2.context", "index.jsonl"): "Error: Path escapes workspace: " + filepath.Join(sessions, "s2.context", "index.jsonl"),
	} {
		if res := callAs(t, t.Context(), s1, read, map[string]any{"path": p}); res.Content != want {
			t.Errorf("read %s as s1: got %q, want %q", p, res.Content, want)
		}
	}
	broken := &tool.Call{SessionID: "broken"}
	if res := callAs(t, t.Context(), broken, read, map[string]any{"path": filepath.Join(sessions, "s1.jsonl")}); res.Content != "Error: read roots: no session" || !res.IsError {
		t.Errorf("failing roots: got %q", res.Content)
	}
}

func TestSessionDataRootsWithACodecAreNone(t *testing.T) {
	sessions := t.TempDir()
	if got := builtin.SessionDataRoots(sessions, "s1", storage.Encoding{Codec: codec.Gzip()}); got != nil {
		t.Errorf("with a codec: %q", got)
	}
	if got := builtin.SessionDataRoots(sessions, "../s1", storage.Encoding{}); got != nil {
		t.Errorf("with a bad session id: %q", got)
	}
	if got := builtin.SessionDataRoots("relative", "s1", storage.Encoding{}); got != nil {
		t.Errorf("with a relative sessions dir: %q", got)
	}
	want := []string{filepath.Join(sessions, "s1.jsonl"), filepath.Join(sessions, "s1.context")}
	if got := builtin.SessionDataRoots(sessions, "s1", storage.Encoding{}); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("without a codec: %q, want %q", got, want)
	}
}

func TestFileToolsOptionsAreValidated(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	writeFile(t, file, "")
	for name, opts := range map[string]builtin.FileOptions{
		"RelativeWorkdir":     {Workdir: "ws"},
		"EmptyWorkdir":        {},
		"MissingWorkdir":      {Workdir: filepath.Join(dir, "missing")},
		"WorkdirIsAFile":      {Workdir: file},
		"RelativeReadRoot":    {Workdir: dir, ReadRoots: []string{"data"}},
		"UnknownPolicy":       {Workdir: dir, Symlinks: "sometimes"},
		"NegativeSnapshotMax": {Workdir: dir, MaxSnapshotBytes: -1},
		"NegativeFileMax":     {Workdir: dir, MaxFileBytes: -1},
	} {
		if _, err := builtin.FileTools(opts); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSnapshotsAreRecordedBeforeChanges(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	writeFile(t, e.path("a.txt"), "one two one")
	// At the moment the snapshot arrives, the file must still be as it
	// was.
	var seen []string
	e.rec.onEvent = func(ev session.FileSnapshotEvent) {
		b, err := os.ReadFile(e.path(ev.Path))
		if err != nil {
			seen = append(seen, "missing")
			return
		}
		seen = append(seen, string(b))
	}
	steps := []struct {
		tool  string
		input map[string]any
		want  string
	}{
		{"write_file", map[string]any{"path": "new/dir/b.txt", "content": "bee"}, "Wrote 3 bytes to new/dir/b.txt"},
		{"edit_file", map[string]any{"path": "a.txt", "old_text": "one", "new_text": "1"}, "Edited a.txt"},
		{"write_file", map[string]any{"path": "a.txt", "content": "replaced"}, "Wrote 8 bytes to a.txt"},
		{"delete_file", map[string]any{"path": "a.txt"}, "Deleted a.txt"},
	}
	for _, s := range steps {
		if res := call(t, e.tool(t, s.tool), s.input); res.Content != s.want || res.IsError {
			t.Fatalf("%s: got %q", s.tool, res.Content)
		}
	}
	if want := []string{"missing", "one two one", "1 two one", "replaced"}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("file contents when snapshots arrived: %q, want %q", seen, want)
	}
	old, edited := "one two one", "1 two one"
	want := []session.FileSnapshotEvent{
		{Path: "new/dir/b.txt", After: sha256Hex([]byte("bee"))},
		{Path: "a.txt", Before: &old, Encoding: "utf8", After: sha256Hex([]byte("1 two one"))},
		{Path: "a.txt", Before: &edited, Encoding: "utf8", After: sha256Hex([]byte("replaced"))},
		{Path: "a.txt", Before: ptr("replaced"), Encoding: "utf8", Deleted: true},
	}
	assertEvents(t, e.rec.all(), want)
	if _, err := os.Stat(e.path("a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a.txt was not deleted: %v", err)
	}
}

func ptr(s string) *string { return &s }

func assertEvents(t *testing.T, got, want []session.FileSnapshotEvent) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d snapshots, want %d: %+v", len(got), len(want), got)
	}
	for i := range got {
		g, w := got[i], want[i]
		gj, _ := g.MarshalJSON()
		wj, _ := w.MarshalJSON()
		if string(gj) != string(wj) {
			t.Errorf("snapshot %d:\n got %s\nwant %s", i, gj, wj)
		}
	}
}

func TestSnapshotEncodings(t *testing.T) {
	binary := string([]byte{0xff, 0x00, 0xfe, 'a'})
	tests := []struct {
		name     string
		old      string
		max      int64
		want     session.FileSnapshotEvent
		deleting bool
	}{
		{"UTF8", "héllo", 0, session.FileSnapshotEvent{Before: ptr("héllo"), Encoding: "utf8"}, false},
		{"Binary", binary, 0, session.FileSnapshotEvent{Before: ptr(base64.StdEncoding.EncodeToString([]byte(binary))), Encoding: "base64"}, false},
		{"Empty", "", 0, session.FileSnapshotEvent{Before: ptr(""), Encoding: "utf8"}, false},
		{"AtTheLimit", "0123456789abcdef", 16, session.FileSnapshotEvent{Before: ptr("0123456789abcdef"), Encoding: "utf8"}, false},
		{"OverTheLimit", "0123456789abcdefg", 16, session.FileSnapshotEvent{Truncated: true}, false},
		{"DeleteOverTheLimit", "0123456789abcdefg", 16, session.FileSnapshotEvent{Truncated: true, Deleted: true}, true},
		{"DeleteBinary", binary, 0, session.FileSnapshotEvent{Before: ptr(base64.StdEncoding.EncodeToString([]byte(binary))), Encoding: "base64", Deleted: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newFileEnv(t, builtin.FileOptions{MaxSnapshotBytes: tt.max})
			writeFile(t, e.path("f"), tt.old)
			want := tt.want
			want.Path = "f"
			var res tool.Result
			if tt.deleting {
				res = call(t, e.tool(t, "delete_file"), map[string]any{"path": "f"})
			} else {
				res = call(t, e.tool(t, "write_file"), map[string]any{"path": "f", "content": "new"})
				want.After = sha256Hex([]byte("new"))
			}
			if res.IsError {
				t.Fatal(res.Content)
			}
			events := e.rec.all()
			assertEvents(t, events[len(events)-1:], []session.FileSnapshotEvent{want})
		})
	}
}

func TestFailingRecorderChangesNothing(t *testing.T) {
	for _, panics := range []bool{false, true} {
		t.Run(fmt.Sprintf("panics=%t", panics), func(t *testing.T) {
			e := newFileEnv(t, builtin.FileOptions{})
			writeFile(t, e.path("a.txt"), "keep me")
			e.rec.fail = errors.New("log is full")
			e.rec.panics = panics
			before := treeHash(t, e.dir)
			for _, c := range []struct {
				tool  string
				input map[string]any
			}{
				{"write_file", map[string]any{"path": "a.txt", "content": "x"}},
				{"write_file", map[string]any{"path": "deep/new/b.txt", "content": "x"}},
				{"edit_file", map[string]any{"path": "a.txt", "old_text": "keep", "new_text": "lose"}},
				{"delete_file", map[string]any{"path": "a.txt"}},
			} {
				res := call(t, e.tool(t, c.tool), c.input)
				want := "Error: record snapshot of "
				if panics {
					want = "Error: tool " + c.tool + " panicked: recorder exploded"
				}
				if !res.IsError || !strings.HasPrefix(res.Content, want) {
					t.Errorf("%s: got %q, want an error starting %q", c.tool, res.Content, want)
				}
			}
			if after := treeHash(t, e.dir); after != before {
				t.Errorf("the workspace changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

func TestNoSnapshotsWithoutRecorder(t *testing.T) {
	dir := t.TempDir()
	tools, err := builtin.FileTools(builtin.FileOptions{Workdir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res := call(t, byName(t, tools, "write_file"), map[string]any{"path": "a", "content": "x"}); res.IsError {
		t.Fatal(res.Content)
	}
	if got := readFile(t, filepath.Join(dir, "a")); got != "x" {
		t.Errorf("a = %q", got)
	}
}

func TestAtomicWriteKeepsModeAndLeavesNoTempFiles(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	writeFile(t, e.path("run.sh"), "#!/bin/sh\n")
	if err := os.Chmod(e.path("run.sh"), 0o750); err != nil {
		t.Fatal(err)
	}
	writeFile(t, e.path("private"), "p")
	if err := os.Chmod(e.path("private"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool  string
		input map[string]any
	}{
		{"write_file", map[string]any{"path": "run.sh", "content": "#!/bin/sh\necho hi\n"}},
		{"edit_file", map[string]any{"path": "private", "old_text": "p", "new_text": "q"}},
		{"write_file", map[string]any{"path": "fresh/new.txt", "content": "n"}},
	} {
		if res := call(t, e.tool(t, c.tool), c.input); res.IsError {
			t.Fatalf("%s: %s", c.tool, res.Content)
		}
	}
	umask := currentUmask()
	for p, want := range map[string]os.FileMode{
		"run.sh":        0o750,
		"private":       0o600,
		"fresh/new.txt": 0o666 &^ umask,
		"fresh":         os.ModeDir | 0o777&^umask,
	} {
		info, err := os.Stat(e.path(p))
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode(); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
	}
	for _, d := range []string{".", "fresh"} {
		entries, err := os.ReadDir(e.path(d))
		if err != nil {
			t.Fatal(err)
		}
		for _, ent := range entries {
			if strings.HasSuffix(ent.Name(), ".tmp") {
				t.Errorf("temp file %s left in %s", ent.Name(), d)
			}
		}
	}
}

// currentUmask returns the process's umask. It changes it for an instant,
// so tests calling it do not run in parallel.
func currentUmask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}

func TestEditReplacesTheFirstOccurrenceLiterally(t *testing.T) {
	tests := []struct {
		name, old, oldText, newText, want string
	}{
		{"FirstOnly", "a b a b", "a", "c", "c b a b"},
		{"DollarPatternsAreLiteral", "x = y", "y", "$& $$ $1 $` $'", "x = $& $$ $1 $` $'"},
		{"MultiLine", "func a() {\n\treturn 1\n}\n", "\treturn 1\n", "\treturn 2\n", "func a() {\n\treturn 2\n}\n"},
		{"EmptyOldTextInsertsAtTheStart", "body", "", "head ", "head body"},
		{"KeepsInvalidBytesElsewhere", "ok \xff\xfe end", "end", "fin", "ok \xff\xfe fin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newFileEnv(t, builtin.FileOptions{})
			writeFile(t, e.path("f"), tt.old)
			res := call(t, e.tool(t, "edit_file"), map[string]any{"path": "f", "old_text": tt.oldText, "new_text": tt.newText})
			if res.Content != "Edited f" || res.IsError {
				t.Fatalf("got %q", res.Content)
			}
			if got := readFile(t, e.path("f")); got != tt.want {
				t.Errorf("content %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEditTextNotFoundIsNotAnErrorAndChangesNothing(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	writeFile(t, e.path("f"), "abc")
	res := call(t, e.tool(t, "edit_file"), map[string]any{"path": "f", "old_text": "xyz", "new_text": "q"})
	if res.Content != "Error: Text not found in f" || res.IsError {
		t.Errorf("got %q (isError %t)", res.Content, res.IsError)
	}
	if got := readFile(t, e.path("f")); got != "abc" {
		t.Errorf("content %q", got)
	}
	if n := len(e.rec.all()); n != 0 {
		t.Errorf("%d snapshots recorded", n)
	}
}

func TestConcurrentEditsOfOneFileAreNotLost(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	const n = 16
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "<%d>\n", i)
	}
	writeFile(t, e.path("f"), b.String())
	edit := e.tool(t, "edit_file")
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res := call(t, edit, map[string]any{"path": "f", "old_text": fmt.Sprintf("<%d>", i), "new_text": fmt.Sprintf("done %d", i)})
			if res.IsError {
				t.Errorf("edit %d: %s", i, res.Content)
			}
		})
	}
	wg.Wait()
	got := readFile(t, e.path("f"))
	for i := range n {
		if !strings.Contains(got, fmt.Sprintf("done %d\n", i)) {
			t.Errorf("edit %d lost:\n%s", i, got)
		}
	}
	if len(e.rec.all()) != n {
		t.Errorf("%d snapshots, want %d", len(e.rec.all()), n)
	}
}

func TestNotFoundHint(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	for _, p := range []string{
		"src/main.go", "src/text/strings.go", "src/.hidden", "lib/strings.go",
		"node_modules/x/strings.go", ".git/strings.go", "dist/strings.go", "coverage/strings.go", ".next/strings.go",
		"a/b/c/d/e/f/g/h/strings.go", // depth 8: not searched
		"notes.txt",
	} {
		writeFile(t, e.path(p), "x")
	}
	if err := os.Mkdir(e.path("empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tool, path, want string
	}{
		{"NestedMissingDirectory", "read_file", "src/util/strings.go",
			"Error: File not found: src/util/strings.go\n" +
				`Path "src/util" does not exist. Nearest existing directory "src" contains: main.go, text.` + "\n" +
				`A file named "strings.go" exists at: lib/strings.go, src/text/strings.go (relative to the workspace root).`},
		{"MissingFileInRoot", "edit_file", "readme.md",
			"Error: File not found: readme.md\n" +
				`Path "readme.md" does not exist. Nearest existing directory "." contains: a, coverage, dist, empty, lib, node_modules, notes.txt, src.`},
		{"EmptyDirectory", "read_file", "empty/x/y.txt",
			"Error: File not found: empty/x/y.txt\n" +
				`Path "empty/x" does not exist. Nearest existing directory "empty" contains: (empty).`},
		{"ParentIsAFile", "read_file", "notes.txt/inner",
			"Error: File not found: notes.txt/inner\n" +
				`Path "notes.txt/inner" does not exist. Nearest existing directory "." contains: a, coverage, dist, empty, lib, node_modules, notes.txt, src.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := map[string]any{"path": tt.path}
			if tt.tool == "edit_file" {
				input["old_text"], input["new_text"] = "a", "b"
			}
			res := call(t, e.tool(t, tt.tool), input)
			if res.Content != tt.want || !res.IsError {
				t.Errorf("got\n%s\nwant\n%s", res.Content, tt.want)
			}
		})
	}
}

func TestNotFoundHintListsAtMostThirtyNamesAndFiveHits(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	for i := range 40 {
		writeFile(t, e.path(fmt.Sprintf("d/f%02d", i)), "")
	}
	for i := range 7 {
		writeFile(t, e.path(fmt.Sprintf("hits/h%d/target.go", i)), "")
	}
	res := call(t, e.tool(t, "read_file"), map[string]any{"path": "d/none/target.go"})
	lines := strings.Split(res.Content, "\n")
	if len(lines) != 3 {
		t.Fatalf("got %q", res.Content)
	}
	var names []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("f%02d", i))
	}
	if want := `Path "d/none" does not exist. Nearest existing directory "d" contains: ` + strings.Join(names, ", ") + "."; lines[1] != want {
		t.Errorf("got  %s\nwant %s", lines[1], want)
	}
	if want := `A file named "target.go" exists at: hits/h0/target.go, hits/h1/target.go, hits/h2/target.go, hits/h3/target.go, hits/h4/target.go (relative to the workspace root).`; lines[2] != want {
		t.Errorf("got  %s\nwant %s", lines[2], want)
	}
}

func TestReadFileLimit(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	writeFile(t, e.path("f"), "1\n2\n3\n4\n5")
	writeFile(t, e.path("nl"), "a\nb\n")
	tests := []struct {
		path  string
		limit int
		want  string
	}{
		{"f", 2, "1\n2\n... (3 more lines)"},
		{"f", 4, "1\n2\n3\n4\n... (1 more lines)"},
		{"f", 5, "1\n2\n3\n4\n5"},
		{"f", 100, "1\n2\n3\n4\n5"},
		{"f", 0, "1\n2\n3\n4\n5"}, // omitted
		{"nl", 2, "a\nb\n... (1 more lines)"},
	}
	for _, tt := range tests {
		input := map[string]any{"path": tt.path}
		if tt.limit > 0 {
			input["limit"] = tt.limit
		}
		if res := call(t, e.tool(t, "read_file"), input); res.Content != tt.want {
			t.Errorf("%s limit %d: got %q, want %q", tt.path, tt.limit, res.Content, tt.want)
		}
	}
	for _, bad := range []string{`{"path":"f","limit":0}`, `{"path":"f","limit":-1}`, `{"path":"f","limit":1.5}`, `{"path":""}`} {
		if res := call(t, e.tool(t, "read_file"), bad); !res.IsError || !strings.HasPrefix(res.Content, "Error: invalid input for read_file: ") {
			t.Errorf("%s: got %q", bad, res.Content)
		}
	}
}

func TestReadFileCutsAt50000UTF16Units(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	exact := strings.Repeat("a", 50000)
	writeFile(t, e.path("exact"), exact)
	writeFile(t, e.path("ascii"), exact+"bcd")
	writeFile(t, e.path("emoji"), "a"+strings.Repeat("😀", 30000)) // 60,001 units
	if res := call(t, e.tool(t, "read_file"), map[string]any{"path": "exact"}); res.Content != exact {
		t.Errorf("a 50,000-character file was changed (%d bytes)", len(res.Content))
	}
	res := call(t, e.tool(t, "read_file"), map[string]any{"path": "ascii"})
	if want := exact + "\n[truncated: showing the first 50000 of 50003 characters; read the rest with limit or bash]"; res.Content != want {
		t.Errorf("ascii: got %d bytes ending %q", len(res.Content), res.Content[len(res.Content)-120:])
	}
	res = call(t, e.tool(t, "read_file"), map[string]any{"path": "emoji"})
	// "a" and 24,999 emoji make 49,999 units; the next emoji would split.
	if want := "a" + strings.Repeat("😀", 24999) + "\n[truncated: showing the first 49999 of 60001 characters; read the rest with limit or bash]"; res.Content != want {
		t.Errorf("emoji: got %d bytes ending %q", len(res.Content), res.Content[len(res.Content)-120:])
	}
}

func TestReadFileRefusesFIFOsWithoutBlocking(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	if err := syscall.Mkfifo(e.path("pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := call(t, e.tool(t, "read_file"), map[string]any{"path": "pipe"}); res.Content != "Error: Not a regular file: pipe" {
		t.Errorf("got %q", res.Content)
	}
	if res := call(t, e.tool(t, "write_file"), map[string]any{"path": "pipe", "content": "x"}); res.Content != "Error: Not a regular file: pipe" {
		t.Errorf("write: got %q", res.Content)
	}
}

func TestReadFileOverMaxFileBytes(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{MaxFileBytes: 10})
	writeFile(t, e.path("big"), "0123456789a")
	res := call(t, e.tool(t, "read_file"), map[string]any{"path": "big"})
	if !res.IsError || !strings.HasPrefix(res.Content, "Error: File too large: big is 11 bytes, over the limit of 10") {
		t.Errorf("got %q", res.Content)
	}
	res = call(t, e.tool(t, "edit_file"), map[string]any{"path": "big", "old_text": "0", "new_text": "x"})
	if !res.IsError || !strings.HasPrefix(res.Content, "Error: File too large") {
		t.Errorf("edit: got %q", res.Content)
	}
}

func TestWriteFileCountsUTF16Units(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	res := call(t, e.tool(t, "write_file"), map[string]any{"path": "u.txt", "content": "é😀"})
	if res.Content != "Wrote 3 bytes to u.txt" {
		t.Errorf("got %q", res.Content)
	}
	if got := readFile(t, e.path("u.txt")); got != "é😀" {
		t.Errorf("content %q", got)
	}
}

func TestCancelledCallChangesNothing(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.tool(t, "write_file").Call(ctx, nil, []byte(`{"path":"a","content":"x"}`))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	if _, err := os.Stat(e.path("a")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a was written")
	}
}
