//go:build unix

package mcphost_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/tool"
)

// toolByName returns the tool called name, failing the test without it.
func toolByName(t *testing.T, tools []tool.Tool, name string) tool.Tool {
	t.Helper()
	for _, tl := range tools {
		if tl.Name() == name {
			return tl
		}
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name())
	}
	t.Fatalf("no tool %s among %v", name, names)
	return nil
}

// callOK calls tl with input and returns the result, failing on a runtime
// error.
func callOK(t *testing.T, tl tool.Tool, input string) tool.Result {
	t.Helper()
	res, err := tl.Call(t.Context(), nil, json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s: %v", tl.Name(), err)
	}
	return res
}

// fileArchive returns a real archive in a temp dir and the Options.Archive
// callback returning it.
func fileArchive(t *testing.T) (*archive.FileArchive, func(context.Context, string) (archive.Archive, error)) {
	t.Helper()
	a, err := archive.NewFileArchive(filepath.Join(t.TempDir(), "s1.context"), archive.Options{SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	return a, func(context.Context, string) (archive.Archive, error) { return a, nil }
}

// archivedRef extracts the ref of an archived-result note.
func archivedRef(t *testing.T, content string) string {
	t.Helper()
	const prefix = "MCP result archived: "
	if !strings.HasPrefix(content, prefix) {
		t.Fatalf("result is not an archived-result note: %.300q", content)
	}
	ref, _, ok := strings.Cut(content[len(prefix):], ".")
	if !ok || len(ref) != 64 {
		t.Fatalf("no ref in %.300q", content)
	}
	if !strings.Contains(content, `Read with context({ref: "`+ref+`", offset: 0})`) {
		t.Fatalf("note does not say how to read the ref: %.300q", content)
	}
	return ref
}

// readArchived reads the first page of ref.
func readArchived(t *testing.T, a *archive.FileArchive, ref string) string {
	t.Helper()
	out, err := a.Read(t.Context(), archive.ReadRequest{Ref: ref, Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// exerciseEverything runs the checks shared by the stdio and the HTTP
// transports against server-everything.
func exerciseEverything(t *testing.T, cfg mcphost.ServerConfig) {
	a, archiveOf := fileArchive(t)
	var mu sync.Mutex
	var progress []mcphost.ProgressEvent
	h := newHost(t, map[string]mcphost.ServerConfig{"everything": cfg}, mcphost.Options{
		Connect: allow,
		Archive: archiveOf,
		OnProgress: func(_ context.Context, _ *tool.Call, ev mcphost.ProgressEvent) {
			mu.Lock()
			progress = append(progress, ev)
			mu.Unlock()
		},
	})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if !strings.HasPrefix(tl.Name(), "mcp__everything__") {
			t.Errorf("tool %s lacks the mcp__everything__ prefix", tl.Name())
		}
		if err := tool.ValidateName(tl.Name()); err != nil {
			t.Error(err)
		}
	}

	t.Run("EchoReturnsText", func(t *testing.T) {
		res := callOK(t, toolByName(t, tools, "mcp__everything__echo"), `{"message":"hello, mcp"}`)
		if res.IsError || res.Content != "Echo: hello, mcp" {
			t.Fatalf("echo = %+v", res)
		}
	})
	t.Run("InputIsValidatedAgainstTheRemoteSchema", func(t *testing.T) {
		res := callOK(t, toolByName(t, tools, "mcp__everything__echo"), `{"message":42}`)
		if !res.IsError || !strings.Contains(res.Content, "invalid input") {
			t.Fatalf("echo with a number = %+v", res)
		}
	})
	t.Run("GetSumAdds", func(t *testing.T) {
		res := callOK(t, toolByName(t, tools, "mcp__everything__get-sum"), `{"a":2,"b":40}`)
		if res.IsError || !strings.Contains(res.Content, "42") {
			t.Fatalf("get-sum = %+v", res)
		}
	})
	t.Run("ImageResultIsArchived", func(t *testing.T) {
		res := callOK(t, toolByName(t, tools, "mcp__everything__get-tiny-image"), `{}`)
		if res.IsError {
			t.Fatalf("get-tiny-image = %+v", res)
		}
		ref := archivedRef(t, res.Content)
		if !strings.Contains(res.Content, "image (image/png)") {
			t.Errorf("note does not name the image: %.300q", res.Content)
		}
		if body := readArchived(t, a, ref); !strings.Contains(body, `&quot;type&quot;:&quot;image&quot;`) && !strings.Contains(body, `"type":"image"`) {
			t.Errorf("archived content holds no image block: %.400q", body)
		}
	})
	t.Run("ResourceLinksAreRendered", func(t *testing.T) {
		res := callOK(t, toolByName(t, tools, "mcp__everything__get-resource-links"), `{"count":2}`)
		if res.IsError || strings.Count(res.Content, "[resource link] ") != 2 || !strings.Contains(res.Content, "demo://resource/") {
			t.Fatalf("get-resource-links = %q", res.Content)
		}
	})
	t.Run("EmbeddedResourceIsArchived", func(t *testing.T) {
		res := callOK(t, toolByName(t, tools, "mcp__everything__get-resource-reference"), `{"resourceType":"Text","resourceId":1}`)
		archivedRef(t, res.Content)
		if !strings.Contains(res.Content, "embedded resource") {
			t.Errorf("note does not name the embedded resource: %.300q", res.Content)
		}
	})
	t.Run("ProgressIsReportedInOrder", func(t *testing.T) {
		mu.Lock()
		progress = nil
		mu.Unlock()
		res := callOK(t, toolByName(t, tools, "mcp__everything__trigger-long-running-operation"), `{"duration":0.4,"steps":4}`)
		if res.IsError || !strings.Contains(res.Content, "Long running operation completed") {
			t.Fatalf("result = %+v", res)
		}
		mu.Lock()
		defer mu.Unlock()
		// The last notification races with the result, which the SDK
		// handles on another goroutine; the earlier ones came 100 ms
		// before it.
		if len(progress) < 3 || len(progress) > 4 {
			t.Fatalf("got %d progress events, want 3 or 4: %+v", len(progress), progress)
		}
		for i, ev := range progress {
			if ev.Progress != float64(i+1) || ev.Total != 4 || ev.Server != "everything" || ev.Tool != "mcp__everything__trigger-long-running-operation" {
				t.Errorf("event %d = %+v", i, ev)
			}
		}
	})
}

func TestEverythingOverStdio(t *testing.T) {
	t.Parallel()
	exerciseEverything(t, everythingStdio(t))
}

func TestEverythingOverStreamableHTTP(t *testing.T) {
	t.Parallel()
	url := everythingHTTP(t)
	exerciseEverything(t, mcphost.ServerConfig{Type: mcphost.TransportHTTP, URL: url})
}

func TestLargeTextResultIsArchivedWhole(t *testing.T) {
	t.Parallel()
	cfg := everythingStdio(t)
	big := strings.Repeat("0123456789abcdef", 1500) // 24000 bytes
	cfg.Env = map[string]string{"BIG_VALUE": big}
	a, archiveOf := fileArchive(t)
	h := newHost(t, map[string]mcphost.ServerConfig{"everything": cfg}, mcphost.Options{Connect: allow, Archive: archiveOf})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	res := callOK(t, toolByName(t, tools, "mcp__everything__get-env"), `{}`)
	if res.IsError || len(res.Content) > 4096 {
		t.Fatalf("get-env result is %d bytes, want a short note: %.200q", len(res.Content), res.Content)
	}
	ref := archivedRef(t, res.Content)
	// Page through the archive to the end and find the value whole.
	var all strings.Builder
	offset := 0
	for gen := int64(1); ; gen++ {
		page, err := a.Read(t.Context(), archive.ReadRequest{Ref: ref, Generation: gen, Offset: offset})
		if err != nil {
			t.Fatal(err)
		}
		_, rest, _ := strings.Cut(page, "nextOffset=")
		next, _, _ := strings.Cut(rest, ";")
		body := page[strings.Index(page, "totalChars=") : len(page)-len("\n</historical-context>")]
		body = body[strings.Index(body, "\n")+1:]
		body = strings.TrimSuffix(body, "\n[truncated] Continue with nextOffset.")
		all.WriteString(body)
		if next == "end" {
			break
		}
		if offset, err = strconv.Atoi(next); err != nil {
			t.Fatalf("bad nextOffset in %.200q", page)
		}
	}
	if !strings.Contains(all.String(), big) {
		t.Fatalf("the archived result does not hold the %d-byte value", len(big))
	}
}

func TestServerEnvironmentIsFiltered(t *testing.T) {
	t.Setenv("LITE_AGENT_TEST_SECRET", "hunter2-do-not-inherit")
	cfg := everythingStdio(t)
	cfg.Env = map[string]string{"GIVEN_VAR": "given-value"}
	h := newHost(t, map[string]mcphost.ServerConfig{"everything": cfg}, mcphost.Options{Connect: allow})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	res := callOK(t, toolByName(t, tools, "mcp__everything__get-env"), `{}`)
	var env map[string]string
	if err := json.Unmarshal([]byte(res.Content), &env); err != nil {
		t.Fatalf("get-env: %v in %.200q", err, res.Content)
	}
	if _, ok := env["LITE_AGENT_TEST_SECRET"]; ok {
		t.Error("the host's secret variable reached the server")
	}
	if env["GIVEN_VAR"] != "given-value" {
		t.Errorf("GIVEN_VAR = %q, want the configured value", env["GIVEN_VAR"])
	}
	if env["PATH"] != os.Getenv("PATH") {
		t.Error("PATH was not inherited")
	}
}

func TestFilesystemServerReadsTempDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("line one\nline two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("all work and no play\n", 2000)), 0o600); err != nil {
		t.Fatal(err)
	}
	a, archiveOf := fileArchive(t)
	h := newHost(t, map[string]mcphost.ServerConfig{"fs": filesystemStdio(t, dir)}, mcphost.Options{Connect: allow, Archive: archiveOf})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	read := toolByName(t, tools, "mcp__fs__read_text_file")

	res := callOK(t, read, `{"path":`+strconv.Quote(filepath.Join(dir, "notes.txt"))+`}`)
	if res.IsError || res.Content != "line one\nline two\n" {
		t.Fatalf("read_text_file = %+v", res)
	}

	res = callOK(t, read, `{"path":`+strconv.Quote(filepath.Join(dir, "big.txt"))+`}`)
	ref := archivedRef(t, res.Content)
	if body := readArchived(t, a, ref); !strings.Contains(body, "all work and no play") {
		t.Fatalf("archived file content missing: %.300q", body)
	}

	res = callOK(t, read, `{"path":"/etc/passwd"}`)
	if !res.IsError || !strings.HasPrefix(res.Content, "Error: ") {
		t.Fatalf("reading outside the allowed directory = %+v, want an error result", res)
	}
}

func TestCloseKillsStdioServers(t *testing.T) {
	t.Parallel()
	cfg := everythingStdio(t)
	h := newHost(t, map[string]mcphost.ServerConfig{"a": cfg, "b": cfg}, mcphost.Options{Connect: allow})
	if _, err := h.Tools(t.Context()); err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, s := range h.List() {
		if s.Status != mcphost.StatusReady || s.PID == 0 {
			t.Fatalf("server %s: status %s, pid %d", s.Name, s.Status, s.PID)
		}
		if processGone(s.PID) {
			t.Fatalf("server %s: process %d is not running", s.Name, s.PID)
		}
		pids = append(pids, s.PID)
	}
	start := time.Now()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %v", time.Since(start))
	for _, pid := range pids {
		if !processGone(pid) {
			t.Errorf("process %d still exists after Close", pid)
		}
	}
	for _, s := range h.List() {
		if s.Status != mcphost.StatusClosed {
			t.Errorf("server %s: status %s after Close", s.Name, s.Status)
		}
	}
	if _, err := h.Tools(t.Context()); err != mcphost.ErrClosed {
		t.Errorf("Tools after Close = %v, want ErrClosed", err)
	}
}

func TestListShowsToolsOnceConnected(t *testing.T) {
	t.Parallel()
	h := newHost(t, map[string]mcphost.ServerConfig{"everything": everythingStdio(t)}, mcphost.Options{Connect: allow})
	before := h.List()
	if len(before) != 1 || before[0].Status != mcphost.StatusConfigured || len(before[0].Tools) != 0 {
		t.Fatalf("List before Tools = %+v", before)
	}
	if _, err := h.Tools(t.Context()); err != nil {
		t.Fatal(err)
	}
	after := h.List()[0]
	var names []string
	for _, ti := range after.Tools {
		names = append(names, ti.Name)
	}
	if after.Status != mcphost.StatusReady || !slices.Contains(names, "mcp__everything__echo") {
		t.Fatalf("List after Tools = %+v", after)
	}
}
