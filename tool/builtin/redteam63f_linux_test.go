//go:build linux

package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// The environment of the child process that swaps two names in a tight
// loop with renameat2(RENAME_EXCHANGE) until its standard input closes.
const (
	swapperA = "BUILTIN_TEST_SWAP_A"
	swapperB = "BUILTIN_TEST_SWAP_B"
)

func TestMain(m *testing.M) {
	if a := os.Getenv(swapperA); a != "" {
		os.Exit(runSwapper(a, os.Getenv(swapperB)))
	}
	os.Exit(m.Run())
}

// runSwapper exchanges a and b until its standard input closes and prints
// how many swaps it made on its standard error.
func runSwapper(a, b string) int {
	var done atomic.Bool
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		done.Store(true)
	}()
	fmt.Println("swapping")
	n := 0
	for !done.Load() {
		if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
			fmt.Fprintln(os.Stderr, "swap:", err)
			return 1
		}
		n++
	}
	fmt.Fprintln(os.Stderr, "swaps:", n)
	return 0
}

// startSwapper starts a child process that swaps a and b until the test
// ends.
func startSwapper(t *testing.T, a, b string) {
	t.Helper()
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		t.Skipf("renameat2(RENAME_EXCHANGE) is not supported here: %v", err)
	}
	c := childtest.Start(t, "swapping", swapperA+"="+a, swapperB+"="+b)
	t.Cleanup(func() { _ = c.Release() })
}

// TestSearchesAndReadsThroughSwappedDirectoryStayInside (redteam63f): a
// child process swaps the workspace directory "d" with a symbolic link to a
// directory outside the workspace that holds a private key, in a tight
// loop, while read_file, grep, glob and list_dir read through "d" and the
// workspace thousands of times, and write_file and edit_file change d/x.
// No result may show the outside key or name, and the outside files must
// keep their content. A tool that opened by path after checking it would
// leak here.
func TestSearchesAndReadsThroughSwappedDirectoryStayInside(t *testing.T) {
	const key = "-----BEGIN OPENSSH PRIVATE KEY----- outside"
	top := t.TempDir()
	ws, outside := filepath.Join(top, "ws"), filepath.Join(top, "home", ".ssh")
	d := filepath.Join(ws, "d")
	for _, dir := range []string{d, outside} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(outside, "id_ed25519"), key)
	writeFile(t, filepath.Join(outside, "x"), "outside x")
	writeFile(t, filepath.Join(d, "id_ed25519"), "inside")
	writeFile(t, filepath.Join(d, "x"), "inside x")
	symlink(t, outside, filepath.Join(ws, "swap"))
	all := fileAndSearchTools(t, ws)
	startSwapper(t, d, filepath.Join(ws, "swap"))

	steps := []struct {
		tool  string
		input map[string]any
	}{
		{"read_file", map[string]any{"path": "d/id_ed25519"}},
		{"grep", map[string]any{"pattern": "OPENSSH", "path": "d"}},
		{"grep", map[string]any{"pattern": "OPENSSH"}},
		{"glob", map[string]any{"pattern": "**/id_*"}},
		{"list_dir", map[string]any{"path": "d"}},
		{"write_file", map[string]any{"path": "d/x", "content": "written"}},
		{"edit_file", map[string]any{"path": "d/x", "old_text": "x", "new_text": "y"}},
		{"write_file", map[string]any{"path": "d/new", "content": "new"}},
	}
	var calls, ok, leaks int
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		for _, s := range steps {
			res := call(t, byName(t, all, s.tool), s.input)
			calls++
			if !res.IsError {
				ok++
			}
			if strings.Contains(res.Content, "OPENSSH") || strings.Contains(res.Content, outside) || strings.Contains(res.Content, "outside") {
				leaks++
				if leaks < 4 {
					t.Errorf("%s %v: %q", s.tool, s.input, res.Content)
				}
			}
		}
	}
	if got := readFile(t, filepath.Join(outside, "x")); got != "outside x" {
		t.Errorf("the outside x was changed to %q", got)
	}
	if _, err := os.Lstat(filepath.Join(outside, "new")); err == nil {
		t.Error("write_file created a file outside the workspace")
	}
	t.Logf("%d calls, %d succeeded, %d leaked", calls, ok, leaks)
	if leaks > 0 {
		t.Errorf("%d of %d calls showed what lies outside the workspace", leaks, calls)
	}
	if ok == 0 {
		t.Errorf("no call succeeded in %d: the test exercised nothing", calls)
	}
}

// TestSpecialFileSwappedInNeverHangs (redteam63f): a child process swaps
// the regular file "f" with a FIFO (and, in a second run, "d/f" with a
// directory holding a FIFO) in a tight loop while read_file, edit_file,
// write_file, grep and glob use it. Opening a FIFO for reading blocks
// until a writer comes, which none will: every call must return within
// seconds, and none may read the FIFO.
func TestSpecialFileSwappedInNeverHangs(t *testing.T) {
	ws := t.TempDir()
	f, fifo := filepath.Join(ws, "f"), filepath.Join(ws, "fifo")
	writeFile(t, f, "regular f")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	all := fileAndSearchTools(t, ws)
	startSwapper(t, f, fifo)
	steps := []struct {
		tool  string
		input map[string]any
	}{
		{"read_file", map[string]any{"path": "f"}},
		{"edit_file", map[string]any{"path": "f", "old_text": "regular", "new_text": "regular"}},
		{"grep", map[string]any{"pattern": "regular"}},
		{"grep", map[string]any{"pattern": "regular", "path": "f"}},
		{"read_file", map[string]any{"path": "fifo"}},
		{"glob", map[string]any{"pattern": "*"}},
	}
	var calls, ok, slow int
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		for _, s := range steps {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			start := time.Now()
			res := callBounded(t, ctx, byName(t, all, s.tool), s.input)
			cancel()
			calls++
			if time.Since(start) > 5*time.Second {
				slow++
				t.Errorf("%s %v took %v: %q", s.tool, s.input, time.Since(start), res.Content)
			}
			if !res.IsError && !strings.HasPrefix(res.Content, "Error") {
				ok++
			}
		}
	}
	t.Logf("%d calls, %d succeeded, %d took over 5s", calls, ok, slow)
	if ok == 0 {
		t.Errorf("no call succeeded in %d: the test exercised nothing", calls)
	}
}

// callBounded is callCtx that fails the test instead of waiting past ctx
// for a tool that ignores it (a blocked open does).
func callBounded(t *testing.T, ctx context.Context, tl tool.Tool, input any) tool.Result {
	t.Helper()
	done := make(chan tool.Result, 1)
	go func() {
		res, err := tl.Call(ctx, nil, marshal(t, input))
		if err != nil {
			res = tool.Result{Content: "Error: " + err.Error(), IsError: true}
		}
		done <- res
	}()
	select {
	case res := <-done:
		return res
	case <-time.After(30 * time.Second):
		t.Fatalf("%s %v hung", tl.Name(), input)
		return tool.Result{}
	}
}

// TestProcAndFdNamesAreOutside (redteam63f): names of the workspace's files
// through /proc/self/root, /proc/self/cwd, /proc/self/fd and /dev/fd
// spell paths outside the workspace, and so do symbolic links in it to
// them: every tool refuses them, and nothing outside changes.
func TestProcAndFdNamesAreOutside(t *testing.T) {
	top := t.TempDir()
	ws, outside := filepath.Join(top, "ws"), filepath.Join(top, "out")
	for _, dir := range []string{ws, outside} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(outside, "secret"), "OUTSIDE")
	od, err := os.Open(outside)
	if err != nil {
		t.Fatal(err)
	}
	defer od.Close()
	fd := fmt.Sprint(od.Fd())
	all := fileAndSearchTools(t, ws)
	names := []string{
		"/proc/self/root" + outside + "/secret",
		"/proc/self/fd/" + fd + "/secret",
		"/dev/fd/" + fd + "/secret",
		"/proc/" + fmt.Sprint(os.Getpid()) + "/root" + outside + "/secret",
	}
	for i, target := range []string{"/proc/self/fd/" + fd, "/dev/fd/" + fd, "/proc/self/root" + outside, "/proc/self/cwd"} {
		link := fmt.Sprintf("l%d", i)
		symlink(t, target, filepath.Join(ws, link))
		names = append(names, link+"/secret", link)
	}
	var calls, leaks int
	for _, n := range names {
		for _, s := range []struct {
			tool  string
			input map[string]any
		}{
			{"read_file", map[string]any{"path": n}},
			{"write_file", map[string]any{"path": n, "content": "x"}},
			{"edit_file", map[string]any{"path": n, "old_text": "OUTSIDE", "new_text": "CHANGED"}},
			{"delete_file", map[string]any{"path": n}},
			{"grep", map[string]any{"pattern": "OUTSIDE", "path": n}},
			{"list_dir", map[string]any{"path": n}},
			{"glob", map[string]any{"pattern": "*", "path": n}},
		} {
			res := call(t, byName(t, all, s.tool), s.input)
			calls++
			if !res.IsError || strings.Contains(res.Content, "OUTSIDE") || strings.Contains(res.Content, "secret") && s.tool != "read_file" && !strings.Contains(res.Content, n) {
				leaks++
				t.Errorf("%s %v: %q", s.tool, s.input, res.Content)
			}
		}
	}
	if got := readFile(t, filepath.Join(outside, "secret")); got != "OUTSIDE" {
		t.Errorf("the outside file is now %q", got)
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("the outside directory holds %d entries, want 1", len(entries))
	}
	t.Logf("%d calls on %d names, %d reached outside", calls, len(names), leaks)
}

// marshal returns input as JSON.
func marshal(t *testing.T, input any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fileAndSearchTools returns the file and search tools of the workspace ws.
func fileAndSearchTools(t *testing.T, ws string) []tool.Tool {
	t.Helper()
	files, err := builtin.FileTools(builtin.FileOptions{Workdir: ws})
	if err != nil {
		t.Fatal(err)
	}
	search, err := builtin.SearchTools(builtin.FileOptions{Workdir: ws}, builtin.SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return append(files, search...)
}
