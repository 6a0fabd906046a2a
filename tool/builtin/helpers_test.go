package builtin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// call runs tl with input (marshalled to JSON unless it is a string) and
// fails the test on a runtime error.
func call(t testing.TB, tl tool.Tool, input any) tool.Result {
	t.Helper()
	return callCtx(t, context.Background(), tl, input)
}

func callCtx(t testing.TB, ctx context.Context, tl tool.Tool, input any) tool.Result {
	t.Helper()
	return callAs(t, ctx, nil, tl, input)
}

// callAs is callCtx for the tool call c (such as one of a session).
func callAs(t testing.TB, ctx context.Context, c *tool.Call, tl tool.Tool, input any) tool.Result {
	t.Helper()
	raw, ok := input.(string)
	if !ok {
		b, err := json.Marshal(input)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(b)
	}
	res, err := tl.Call(ctx, c, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s(%s): runtime error %v", tl.Name(), raw, err)
	}
	return res
}

// byName returns the tool of tools named name.
func byName(t testing.TB, tools []tool.Tool, name string) tool.Tool {
	t.Helper()
	for _, tl := range tools {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// recorder is a SnapshotRecorder that keeps the events, can check the
// file's state when an event arrives, and fails or panics on demand.
type recorder struct {
	mu      sync.Mutex
	events  []session.FileSnapshotEvent
	fail    error
	panics  bool
	onEvent func(ev session.FileSnapshotEvent) // runs before the event is kept
}

var _ builtin.SnapshotRecorder = (*recorder)(nil)

func (r *recorder) RecordSnapshot(ctx context.Context, _ *tool.Call, ev session.FileSnapshotEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.panics {
		panic("recorder exploded")
	}
	if r.onEvent != nil {
		r.onEvent(ev)
	}
	if r.fail != nil {
		return r.fail
	}
	r.events = append(r.events, ev)
	return nil
}

func (r *recorder) all() []session.FileSnapshotEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]session.FileSnapshotEvent(nil), r.events...)
}

// fileEnv is a workspace with the file tools, a recorder and a decoy
// directory beside the workspace that no tool may touch.
type fileEnv struct {
	dir     string // the workspace
	outside string // the decoy
	rec     *recorder
	tools   []tool.Tool
}

// newFileEnv builds a file environment; opts.Workdir and opts.Snapshots
// are filled in unless set.
func newFileEnv(t testing.TB, opts builtin.FileOptions) *fileEnv {
	t.Helper()
	parent := t.TempDir()
	e := &fileEnv{dir: filepath.Join(parent, "ws"), outside: filepath.Join(parent, "outside"), rec: &recorder{}}
	for _, d := range []string{e.dir, e.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(e.outside, "secret.txt"), "secret")
	if opts.Workdir == "" {
		opts.Workdir = e.dir
	}
	if opts.Snapshots == nil {
		opts.Snapshots = e.rec
	}
	tools, err := builtin.FileTools(opts)
	if err != nil {
		t.Fatal(err)
	}
	e.tools = tools
	return e
}

func (e *fileEnv) tool(t testing.TB, name string) tool.Tool { return byName(t, e.tools, name) }

func (e *fileEnv) path(rel string) string { return filepath.Join(e.dir, filepath.FromSlash(rel)) }

// writeFile writes content to p, creating parent directories.
func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// treeHash describes everything under dir: each entry's path, type, mode,
// content digest or link target, so that any change shows.
func treeHash(t testing.TB, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " -> %s", target)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %s", sha256Hex(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
