package hook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// allow is a Permit that grants every command hook.
func allow(context.Context, hook.PermitRequest) (bool, error) { return true, nil }

func identity() hook.Identity {
	return hook.Identity{RunID: "run-1", SessionID: "s1", Source: hook.SourceUser}
}

func toolStart(name, input string) hook.ToolStart {
	return hook.ToolStart{Identity: identity(), Call: hook.ToolCall{ID: "c1", Name: name, Input: json.RawMessage(input)}}
}

// fileHooks parses a project hooks file from content.
func fileHooks(t *testing.T, layer hook.Layer, file, content string) []hook.Hook {
	t.Helper()
	hooks, err := hook.Parse([]byte(content), file, layer)
	if err != nil {
		t.Fatal(err)
	}
	return hooks
}

// commandHooks builds one JSON hooks document with the given event's
// commands.
func commandHooks(event hook.Event, commands ...string) string {
	var entries []string
	for _, c := range commands {
		b, _ := json.Marshal(map[string]string{"command": c})
		entries = append(entries, string(b))
	}
	return fmt.Sprintf(`{"version":1,"hooks":{%q:[%s]}}`, event, strings.Join(entries, ","))
}

func newRunner(t *testing.T, cfg hook.Config, opts hook.Options) *hook.Runner {
	t.Helper()
	if opts.Workdir == "" {
		opts.Workdir = t.TempDir()
	}
	r, err := hook.New(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func TestHooksRunGlobalThenProjectThenProgrammatic(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	appendCmd := func(s string) string { return fmt.Sprintf("printf '%s\\n' >> '%s'", s, log) }
	var cfg hook.Config
	cfg.Hooks = append(cfg.Hooks, fileHooks(t, hook.LayerGlobal, "/home/hooks.json", commandHooks(hook.EventRunStart, appendCmd("global-1"), appendCmd("global-2")))...)
	cfg.Hooks = append(cfg.Hooks, fileHooks(t, hook.LayerProject, "/work/.acme/hooks.json", commandHooks(hook.EventRunStart, appendCmd("project-1")))...)
	goHook := func(s string) hook.Hook {
		return hook.Hook{Event: hook.EventRunStart, Func: func(ctx context.Context, p hook.Payload) error {
			f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString(s + "\n")
			return err
		}}
	}
	r := newRunner(t, cfg, hook.Options{
		Permit:       allow,
		Programmatic: []hook.Hook{goHook("prog-1"), {Event: hook.EventRunStart, Command: appendCmd("prog-2")}},
	})
	if _, err := r.Register(goHook("prog-3")); err != nil {
		t.Fatal(err)
	}
	// A hook for another event must not run.
	if _, err := r.Register(hook.Hook{Event: hook.EventRunEnd, Command: appendCmd("WRONG")}); err != nil {
		t.Fatal(err)
	}

	out := r.Fire(t.Context(), hook.RunStart{Identity: identity(), Input: json.RawMessage(`"hi"`)})
	if len(out.Diagnostics) != 0 || out.Ran != 6 {
		t.Fatalf("outcome = %+v", out)
	}
	want := "global-1\nglobal-2\nproject-1\nprog-1\nprog-2\nprog-3\n"
	if got := readFile(t, log); got != want {
		t.Fatalf("order:\n%s\nwant:\n%s", got, want)
	}
}

func TestRegisterAndUnregisterAreIndependent(t *testing.T) {
	var mu sync.Mutex
	var calls []string
	fn := func(name string) func(context.Context, hook.Payload) error {
		return func(context.Context, hook.Payload) error {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, name)
			return nil
		}
	}
	r := newRunner(t, hook.Config{}, hook.Options{})
	same := hook.Hook{Event: hook.EventRunEnd, Func: fn("same")}
	un1, err := r.Register(same)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Register(same); err != nil {
		t.Fatal(err)
	}
	un3, _ := r.Register(hook.Hook{Event: hook.EventRunEnd, Func: fn("other")})
	r.Fire(t.Context(), hook.RunEnd{Identity: identity(), Status: hook.StatusCompleted})
	un1()
	un1() // a second call does nothing
	un3()
	r.Fire(t.Context(), hook.RunEnd{Identity: identity(), Status: hook.StatusCompleted})
	if got := strings.Join(calls, ","); got != "same,same,other,same" {
		t.Fatalf("calls = %s", got)
	}
	if n := len(r.Hooks()); n != 1 {
		t.Fatalf("hooks left = %d", n)
	}
}

func TestDiagnosticLabelsNameTheSource(t *testing.T) {
	cfg := hook.Config{Hooks: append(
		fileHooks(t, hook.LayerGlobal, "/h/hooks.json", commandHooks(hook.EventRunEnd, "exit 1")),
		fileHooks(t, hook.LayerProject, "/w/.acme/hooks.json", commandHooks(hook.EventRunEnd, "exit 2"))...)}
	fail := hook.Hook{Event: hook.EventRunEnd, Func: func(context.Context, hook.Payload) error { return errors.New("boom") }}
	r := newRunner(t, cfg, hook.Options{Permit: allow, Programmatic: []hook.Hook{fail, fail}})
	out := r.Fire(t.Context(), hook.RunEnd{Identity: identity(), Status: hook.StatusFailed})
	var got []string
	for _, d := range out.Diagnostics {
		if d.Level != "error" || d.Code != "hook_failed" || d.Event != hook.EventRunEnd {
			t.Errorf("diagnostic = %+v", d)
		}
		got = append(got, d.Message)
	}
	want := []string{
		"run:end (global:/h/hooks.json): command exited with code 1",
		"run:end (project:/w/.acme/hooks.json): command exited with code 2",
		"run:end (programmatic:1): boom",
		"run:end (programmatic:2): boom",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCommandReadsExactPayloadJSONOnStdin(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "stdin")
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", commandHooks(hook.EventToolEnd, "cat > '"+out+"'"))}
	r := newRunner(t, cfg, hook.Options{Permit: allow})
	p := hook.ToolEnd{
		Identity: hook.Identity{RunID: "r", SessionID: "s", AgentID: "agent-general-purpose-0a1b2c3d", Source: hook.SourceBackground},
		Call:     hook.ToolCall{ID: "c9", Name: "bash", Input: json.RawMessage(`{"command":"ls -la"}`)},
		Result:   &hook.ToolResult{ID: "c9", Name: "bash", Content: "a\nb", IsError: true},
		Status:   hook.StatusFailed,
		Duration: 1500 * time.Millisecond,
	}
	if o := r.Fire(t.Context(), p); len(o.Diagnostics) != 0 {
		t.Fatal(o.Diagnostics)
	}
	want := `{"event":"tool:end","runId":"r","sessionId":"s","agentId":"agent-general-purpose-0a1b2c3d","source":"background",` +
		`"call":{"id":"c9","name":"bash","input":{"command":"ls -la"}},"result":{"id":"c9","name":"bash","content":"a\nb","isError":true},` +
		`"status":"failed","durationMs":1500}` + "\n"
	if got := readFile(t, out); got != want {
		t.Fatalf("stdin:\n%s\nwant:\n%s", got, want)
	}
}

func TestEventDataIsNeverInterpolatedIntoCommands(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	got := filepath.Join(dir, "stdin")
	prompt := "$(touch '" + marker + "') `touch '" + marker + "'` ; touch '" + marker + "' && touch \"" + marker + "\""
	input, _ := json.Marshal(prompt)
	// Hooks that pass the payload around the way scripts do.
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", commandHooks(hook.EventRunStart,
		"cat > '"+got+"'",
		`read -r line; printf '%s' "$line" > /dev/null`,
		`payload=$(cat); echo "$payload" > /dev/null`,
	))}
	r := newRunner(t, cfg, hook.Options{Permit: allow, Workdir: dir})
	o := r.Fire(t.Context(), hook.RunStart{Identity: identity(), Input: input})
	if len(o.Diagnostics) != 0 {
		t.Fatal(o.Diagnostics)
	}
	if exists(marker) {
		t.Fatal("event data was executed")
	}
	var p struct{ Input string }
	if err := json.Unmarshal([]byte(readFile(t, got)), &p); err != nil || p.Input != prompt {
		t.Fatalf("payload input = %q, %v", p.Input, err)
	}
}

func TestCommandEnvironmentIsFiltered(t *testing.T) {
	t.Setenv("SECRET_TOKEN", "hunter2-secret")
	t.Setenv("LANG", "C.UTF-8")
	dir := t.TempDir()
	envOut := filepath.Join(dir, "env")
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", commandHooks(hook.EventRunStart, "env > '"+envOut+"'"))}

	t.Run("default allow-list", func(t *testing.T) {
		r := newRunner(t, cfg, hook.Options{Permit: allow})
		if o := r.Fire(t.Context(), hook.RunStart{Identity: identity()}); len(o.Diagnostics) != 0 {
			t.Fatal(o.Diagnostics)
		}
		env := readFile(t, envOut)
		if strings.Contains(env, "SECRET_TOKEN") || strings.Contains(env, "hunter2") {
			t.Fatalf("secret inherited:\n%s", env)
		}
		if !strings.Contains(env, "LANG=C.UTF-8\n") || !strings.Contains(env, "PATH="+os.Getenv("PATH")+"\n") {
			t.Fatalf("allow-listed variables missing:\n%s", env)
		}
		allowed := map[string]bool{"PWD": true, "SHLVL": true, "_": true, "OLDPWD": true}
		for _, n := range hook.DefaultEnvNames() {
			allowed[n] = true
		}
		for _, line := range strings.Split(strings.TrimSpace(env), "\n") {
			name, _, _ := strings.Cut(line, "=")
			if !allowed[name] {
				t.Errorf("unexpected variable %s", name)
			}
		}
	})
	t.Run("explicit env replaces it", func(t *testing.T) {
		r := newRunner(t, cfg, hook.Options{Permit: allow, Env: []string{"ONLY=this"}})
		if o := r.Fire(t.Context(), hook.RunStart{Identity: identity()}); len(o.Diagnostics) != 0 {
			t.Fatal(o.Diagnostics)
		}
		env := readFile(t, envOut)
		if !strings.Contains(env, "ONLY=this\n") || strings.Contains(env, "SECRET_TOKEN") || strings.Contains(env, "LANG=") {
			t.Fatalf("env:\n%s", env)
		}
	})
}

func TestCommandRunsInWorkdir(t *testing.T) {
	wd := t.TempDir()
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", commandHooks(hook.EventRunStart, "pwd > here"))}
	r := newRunner(t, cfg, hook.Options{Permit: allow, Workdir: wd})
	if o := r.Fire(t.Context(), hook.RunStart{Identity: identity()}); len(o.Diagnostics) != 0 {
		t.Fatal(o.Diagnostics)
	}
	real, _ := filepath.EvalSymlinks(wd)
	if got := strings.TrimSpace(readFile(t, filepath.Join(wd, "here"))); got != wd && got != real {
		t.Fatalf("pwd = %s, want %s", got, wd)
	}
}

// processGone reports whether pid has exited (a zombie counts as gone).
func processGone(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}

func TestTimeoutKillsTheProcessGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	after := filepath.Join(dir, "after")
	// The background sleep is a grandchild in the hook's group; it must die
	// with the shell.
	content := `{"version":1,"hooks":{"tool:start":[
		{"command":"sleep 60 & echo $! > '` + pidFile + `'; wait","timeoutMs":300},
		{"command":"touch '` + after + `'"}]}}`
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", content)}
	r := newRunner(t, cfg, hook.Options{Permit: allow})
	start := time.Now()
	o := r.Fire(t.Context(), toolStart("bash", `{}`))
	if el := time.Since(start); el > 20*time.Second {
		t.Fatalf("Fire took %v", el)
	}
	if len(o.Diagnostics) != 1 || !errors.Is(o.Diagnostics[0].Err, hook.ErrTimeout) {
		t.Fatalf("diagnostics = %+v", o.Diagnostics)
	}
	if want := "tool:start (project:/p/hooks.json): Hook timed out"; o.Diagnostics[0].Message != want {
		t.Fatalf("message = %q, want %q", o.Diagnostics[0].Message, want)
	}
	if !exists(after) {
		t.Fatal("the hook after the timed-out one did not run")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(readFile(t, pidFile)))
	if err != nil {
		t.Fatal(err)
	}
	// SIGKILL was sent to the group before Fire returned; the kernel
	// finishes it asynchronously.
	deadline := time.Now().Add(10 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived the timeout", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestThreeFailureKindsAreSeparateDiagnosticsAndLaterHooksRun(t *testing.T) {
	dir := t.TempDir()
	last := filepath.Join(dir, "last")
	content := `{"version":1,"hooks":{"tool:end":[
		{"command":"exit 3"},
		{"command":"sleep 30","timeoutMs":200},
		{"command":"yes"},
		{"command":"touch '` + last + `'"}]}}`
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerGlobal, "/h/hooks.json", content)}
	r := newRunner(t, cfg, hook.Options{Permit: allow})
	o := r.Fire(t.Context(), hook.ToolEnd{Identity: identity(), Call: hook.ToolCall{ID: "1", Name: "bash"}, Status: hook.StatusCompleted})
	if len(o.Diagnostics) != 3 || o.Ran != 4 {
		t.Fatalf("outcome = %+v", o)
	}
	var exit *hook.ExitError
	if !errors.As(o.Diagnostics[0].Err, &exit) || exit.Code != 3 {
		t.Errorf("first = %+v", o.Diagnostics[0])
	}
	if !errors.Is(o.Diagnostics[1].Err, hook.ErrTimeout) {
		t.Errorf("second = %+v", o.Diagnostics[1])
	}
	var over *hook.OutputLimitError
	if !errors.As(o.Diagnostics[2].Err, &over) || over.Limit != hook.DefaultMaxOutputBytes {
		t.Errorf("third = %+v", o.Diagnostics[2])
	}
	if want := "tool:end (global:/h/hooks.json): command output exceeded 65536 bytes"; o.Diagnostics[2].Message != want {
		t.Errorf("message = %q", o.Diagnostics[2].Message)
	}
	if !exists(last) {
		t.Fatal("the last hook did not run")
	}
}

func TestOutputCapCountsCombinedOutput(t *testing.T) {
	cases := map[string]struct {
		command string
		fails   bool
	}{
		"exactly the limit":         {"printf 01234; printf 56789 >&2", false},
		"one byte over":             {"printf 01234; printf 567890 >&2", true},
		"stderr alone over":         {"printf 01234567890 >&2", true},
		"over then exit 0 promptly": {"printf 0123456789abcdef; exit 0", true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", commandHooks(hook.EventRunEnd, tc.command))}
			r := newRunner(t, cfg, hook.Options{Permit: allow, MaxOutputBytes: 10})
			o := r.Fire(t.Context(), hook.RunEnd{Identity: identity(), Status: hook.StatusCompleted})
			var over *hook.OutputLimitError
			failed := len(o.Diagnostics) == 1 && errors.As(o.Diagnostics[0].Err, &over) && over.Limit == 10
			if failed != tc.fails || (!tc.fails && len(o.Diagnostics) != 0) {
				t.Fatalf("diagnostics = %+v, want failure %v", o.Diagnostics, tc.fails)
			}
		})
	}
}

func TestSignalledCommandIsReported(t *testing.T) {
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", commandHooks(hook.EventRunEnd, "kill -TERM $$"))}
	r := newRunner(t, cfg, hook.Options{Permit: allow})
	o := r.Fire(t.Context(), hook.RunEnd{Identity: identity(), Status: hook.StatusCompleted})
	var exit *hook.ExitError
	if len(o.Diagnostics) != 1 || !errors.As(o.Diagnostics[0].Err, &exit) || exit.Signal != "SIGTERM" {
		t.Fatalf("diagnostics = %+v", o.Diagnostics)
	}
	if !strings.HasSuffix(o.Diagnostics[0].Message, ": command was killed by SIGTERM") {
		t.Fatalf("message = %q", o.Diagnostics[0].Message)
	}
}

func TestCommandHooksNeedThePermission(t *testing.T) {
	uuid := regexp.MustCompile(`^hook-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	cases := map[string]struct {
		permit func(context.Context, hook.PermitRequest) (bool, error)
		runs   bool
		reason string
	}{
		"no permission check": {nil, false, "hook command denied: no permission check is configured"},
		"denied":              {func(context.Context, hook.PermitRequest) (bool, error) { return false, nil }, false, "hook command denied"},
		"check fails":         {func(context.Context, hook.PermitRequest) (bool, error) { return true, errors.New("queue closed") }, false, "hook command denied: permission check failed: queue closed"},
		"allowed":             {allow, true, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			marker := filepath.Join(dir, "marker")
			file := filepath.Join(dir, ".acme", "hooks.json")
			command := "touch '" + marker + "'"
			cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, file, `{"version":1,"hooks":{"tool:start":[{"command":"`+command+`","match":"bash"}]}}`)}
			var reqs []hook.PermitRequest
			permit := tc.permit
			if permit != nil {
				inner := permit
				permit = func(ctx context.Context, req hook.PermitRequest) (bool, error) {
					reqs = append(reqs, req)
					return inner(ctx, req)
				}
			}
			r := newRunner(t, cfg, hook.Options{Permit: permit})
			o := r.Fire(t.Context(), toolStart("bash", `{"command":"ls"}`))
			if exists(marker) != tc.runs {
				t.Fatalf("ran = %v, want %v", exists(marker), tc.runs)
			}
			if tc.runs {
				if len(o.Diagnostics) != 0 {
					t.Fatal(o.Diagnostics)
				}
			} else {
				if len(o.Diagnostics) != 1 || !errors.Is(o.Diagnostics[0].Err, hook.ErrDenied) {
					t.Fatalf("diagnostics = %+v", o.Diagnostics)
				}
				if want := "tool:start (project:" + file + "): " + tc.reason; o.Diagnostics[0].Message != want {
					t.Fatalf("message = %q, want %q", o.Diagnostics[0].Message, want)
				}
			}
			if tc.permit == nil {
				return
			}
			if len(reqs) != 1 {
				t.Fatalf("permit asked %d times", len(reqs))
			}
			req := reqs[0]
			// The input's keys come in this order: command, event,
			// source, configFile.
			wantInput := []byte(`{"command":` + mustJSON(command) + `,"event":"tool:start","source":"project","configFile":` + mustJSON(file) + `}`)
			if !bytes.Equal(req.Input, wantInput) {
				t.Errorf("input = %s, want %s", req.Input, wantInput)
			}
			if !uuid.MatchString(req.CallID) || req.Event != hook.EventToolStart || req.Hook.Command != command {
				t.Errorf("request = %+v", req)
			}
		})
	}
}

func mustJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestPermissionIsAskedEveryTimeAndNotForGoHooks(t *testing.T) {
	asked := 0
	permit := func(context.Context, hook.PermitRequest) (bool, error) { asked++; return true, nil }
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerGlobal, "/h/hooks.json", commandHooks(hook.EventRunStart, "true"))}
	goRan := 0
	r := newRunner(t, cfg, hook.Options{Permit: permit, Programmatic: []hook.Hook{{Event: hook.EventRunStart, Func: func(context.Context, hook.Payload) error { goRan++; return nil }}}})
	for range 3 {
		r.Fire(t.Context(), hook.RunStart{Identity: identity()})
	}
	if asked != 3 || goRan != 3 {
		t.Fatalf("asked %d, go hook ran %d", asked, goRan)
	}
}

func TestProgrammaticCommandPermitInputHasNoConfigFile(t *testing.T) {
	var input json.RawMessage
	r := newRunner(t, hook.Config{}, hook.Options{
		Permit: func(_ context.Context, req hook.PermitRequest) (bool, error) {
			input = req.Input
			return false, nil
		},
		Programmatic: []hook.Hook{{Event: hook.EventCompactStart, Command: "true"}},
	})
	r.Fire(t.Context(), hook.CompactStart{Identity: identity(), CompactionID: "k", Kind: hook.CompactAuto})
	if want := `{"command":"true","event":"compact:start","source":"host"}`; string(input) != want {
		t.Fatalf("input = %s, want %s", input, want)
	}
}

func TestPermissionWaitCountsAgainstTheTimeout(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", `{"version":1,"hooks":{"run:start":[{"command":"touch '`+marker+`'","timeoutMs":100}]}}`)}
	r := newRunner(t, cfg, hook.Options{Permit: func(ctx context.Context, _ hook.PermitRequest) (bool, error) {
		<-ctx.Done() // an approval that never comes
		return true, nil
	}})
	o := r.Fire(t.Context(), hook.RunStart{Identity: identity()})
	if len(o.Diagnostics) != 1 || !errors.Is(o.Diagnostics[0].Err, hook.ErrTimeout) || exists(marker) {
		t.Fatalf("diagnostics = %+v, ran = %v", o.Diagnostics, exists(marker))
	}
}

func TestOversizedPayloadRunsNothing(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	asked := false
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", commandHooks(hook.EventToolStart, "touch '"+marker+"'"))}
	r := newRunner(t, cfg, hook.Options{Permit: func(context.Context, hook.PermitRequest) (bool, error) { asked = true; return true, nil }})
	big, _ := json.Marshal(map[string]string{"content": strings.Repeat("x", hook.MaxPayloadBytes)})
	o := r.Fire(t.Context(), toolStart("write_file", string(big)))
	if len(o.Diagnostics) != 1 || !errors.Is(o.Diagnostics[0].Err, hook.ErrPayloadTooLarge) || exists(marker) || asked {
		t.Fatalf("diagnostics = %+v, ran = %v, asked = %v", o.Diagnostics, exists(marker), asked)
	}
	if !strings.HasSuffix(o.Diagnostics[0].Message, ": hook payload exceeds 256 KiB") {
		t.Fatalf("message = %q", o.Diagnostics[0].Message)
	}
}

func TestInvalidRawPayloadFailsCommandHooksOnly(t *testing.T) {
	goSaw := false
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", commandHooks(hook.EventToolStart, "true"))}
	r := newRunner(t, cfg, hook.Options{Permit: allow, Programmatic: []hook.Hook{{Event: hook.EventToolStart, Func: func(context.Context, hook.Payload) error { goSaw = true; return nil }}}})
	o := r.Fire(t.Context(), toolStart("bash", `{not json`))
	if len(o.Diagnostics) != 1 || o.Diagnostics[0].Label != "project:/p/hooks.json" || !goSaw {
		t.Fatalf("diagnostics = %+v, go hook ran = %v", o.Diagnostics, goSaw)
	}
}

func TestMatchSelectsToolHooks(t *testing.T) {
	cases := []struct {
		match string
		tool  string
		runs  bool
	}{
		{"", "anything", true},
		{"bash", "bash", true},
		{"bash", "bashful", false},
		{"ba*", "bash", true},
		{"Task*", "TaskCreate", true},
		{"mcp__*", "mcp__github__search", true},
		{"mcp__*", "read_file", false},
		{"{write_file,edit_file}", "edit_file", true},
		{"{write_file,edit_file}", "delete_file", false},
		{"*_file", "read_file", true},
		{"?ash", "bash", true},
		{"[bc]ash", "cash", true},
		{"[!b]ash", "bash", false},
		{"mcp__{a,b{1,2}}__*", "mcp__b2__x", true},
		{"mcp__{a,b{1,2}}__*", "mcp__b3__x", false},
		{"[]x]ash", "xash", true},
		// Braces without a comma are literal, as in permission rules
		// (before the one glob engine, "{bash}" matched bash).
		{"{bash}", "bash", false},
	}
	for _, tc := range cases {
		t.Run(tc.match+"~"+tc.tool, func(t *testing.T) {
			ran := false
			r := newRunner(t, hook.Config{}, hook.Options{Programmatic: []hook.Hook{{
				Event: hook.EventToolEnd, Match: tc.match,
				Func: func(context.Context, hook.Payload) error { ran = true; return nil },
			}}})
			r.Fire(t.Context(), hook.ToolEnd{Identity: identity(), Call: hook.ToolCall{ID: "1", Name: tc.tool}, Status: hook.StatusCompleted})
			if ran != tc.runs {
				t.Fatalf("ran = %v, want %v", ran, tc.runs)
			}
		})
	}
}

func TestEndEventsRunAfterCancellationStartEventsDoNot(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var ran []hook.Event
	fn := func(_ context.Context, p hook.Payload) error { ran = append(ran, p.Event()); return nil }
	var progs []hook.Hook
	for _, ev := range hook.Events() {
		progs = append(progs, hook.Hook{Event: ev, Func: fn})
	}
	r := newRunner(t, hook.Config{}, hook.Options{Programmatic: progs})
	payloads := []hook.Payload{
		hook.RunStart{Identity: identity()},
		hook.RunEnd{Identity: identity(), Status: hook.StatusCancelled},
		toolStart("bash", `{}`),
		hook.ToolEnd{Identity: identity(), Call: hook.ToolCall{ID: "1", Name: "bash"}, Status: hook.StatusCancelled},
		hook.CompactStart{Identity: identity(), CompactionID: "k", Kind: hook.CompactManual},
		hook.CompactEnd{Identity: identity(), CompactionID: "k", Kind: hook.CompactManual, Status: hook.StatusCancelled},
	}
	for _, p := range payloads {
		o := r.Fire(ctx, p)
		isEnd := strings.HasSuffix(string(p.Event()), ":end")
		if isEnd && len(o.Diagnostics) != 0 {
			t.Errorf("%s: %+v", p.Event(), o.Diagnostics)
		}
		if !isEnd && (len(o.Diagnostics) != 1 || !errors.Is(o.Diagnostics[0].Err, context.Canceled)) {
			t.Errorf("%s: %+v", p.Event(), o.Diagnostics)
		}
	}
	want := []hook.Event{hook.EventRunEnd, hook.EventToolEnd, hook.EventCompactEnd}
	if fmt.Sprint(ran) != fmt.Sprint(want) {
		t.Fatalf("ran = %v, want %v", ran, want)
	}
}

func TestCancellingAStartEventKillsTheCommand(t *testing.T) {
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", `{"version":1,"hooks":{"run:start":[{"command":"touch '`+started+`'; sleep 60","timeoutMs":120000}]}}`)}
	ctx, cancel := context.WithCancel(t.Context())
	r := newRunner(t, cfg, hook.Options{Permit: func(context.Context, hook.PermitRequest) (bool, error) {
		// Cancel once the command is about to start; the process is
		// killed when it notices.
		time.AfterFunc(200*time.Millisecond, cancel)
		return true, nil
	}})
	start := time.Now()
	o := r.Fire(ctx, hook.RunStart{Identity: identity()})
	if len(o.Diagnostics) != 1 || !errors.Is(o.Diagnostics[0].Err, context.Canceled) {
		t.Fatalf("diagnostics = %+v", o.Diagnostics)
	}
	if el := time.Since(start); el > 30*time.Second {
		t.Fatalf("Fire took %v", el)
	}
}

func TestGoHookTimeoutAndPanicAreDiagnostics(t *testing.T) {
	r := newRunner(t, hook.Config{}, hook.Options{Programmatic: []hook.Hook{
		{Event: hook.EventRunEnd, Timeout: 50 * time.Millisecond, Func: func(ctx context.Context, _ hook.Payload) error {
			<-ctx.Done()
			return nil // returning late is a timeout whatever it returns
		}},
		{Event: hook.EventRunEnd, Func: func(context.Context, hook.Payload) error { panic("kaboom") }},
	}})
	o := r.Fire(t.Context(), hook.RunEnd{Identity: identity(), Status: hook.StatusCompleted})
	if len(o.Diagnostics) != 2 {
		t.Fatalf("diagnostics = %+v", o.Diagnostics)
	}
	if o.Diagnostics[0].Message != "run:end (programmatic:1): Hook timed out" || !errors.Is(o.Diagnostics[0].Err, hook.ErrTimeout) {
		t.Errorf("timeout = %+v", o.Diagnostics[0])
	}
	if o.Diagnostics[1].Message != "run:end (programmatic:2): hook panicked: kaboom" {
		t.Errorf("panic = %+v", o.Diagnostics[1])
	}
}

func TestGoHooksGetIndependentCopies(t *testing.T) {
	var seen []string
	mutate := func(_ context.Context, p hook.Payload) error {
		e := p.(hook.ToolEnd)
		seen = append(seen, string(e.Call.Input)+"|"+e.Result.Content+"|"+e.Err.Message)
		e.Call.Input[2] = 'X'
		e.Result.Content = "changed"
		e.Err.Message = "changed"
		return nil
	}
	r := newRunner(t, hook.Config{}, hook.Options{Programmatic: []hook.Hook{{Event: hook.EventToolEnd, Func: mutate}, {Event: hook.EventToolEnd, Func: mutate}}})
	p := hook.ToolEnd{Identity: identity(), Call: hook.ToolCall{ID: "1", Name: "bash", Input: json.RawMessage(`{"a":1}`)},
		Result: &hook.ToolResult{Content: "orig"}, Status: hook.StatusFailed, Err: &hook.ErrorInfo{Name: "E", Message: "orig"}}
	r.Fire(t.Context(), p)
	if want := `{"a":1}|orig|orig`; len(seen) != 2 || seen[0] != want || seen[1] != want {
		t.Fatalf("seen = %v", seen)
	}
	if string(p.Call.Input) != `{"a":1}` || p.Result.Content != "orig" || p.Err.Message != "orig" {
		t.Fatalf("caller's payload changed: %+v", p)
	}
}

func TestFilesAreNotReloaded(t *testing.T) {
	workdir, paths := layout(t, "acme")
	log := filepath.Join(t.TempDir(), "log")
	file := filepath.Join(workdir, ".acme", "hooks.json")
	writeFile(t, file, commandHooks(hook.EventRunStart, "echo first >> '"+log+"'"))
	cfg, err := hook.LoadFiles(t.Context(), paths)
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, cfg, hook.Options{Permit: allow})
	writeFile(t, file, commandHooks(hook.EventRunStart, "echo second >> '"+log+"'"))
	r.Fire(t.Context(), hook.RunStart{Identity: identity()})
	if got := readFile(t, log); got != "first\n" {
		t.Fatalf("log = %q", got)
	}
}

func TestNewRejectsInvalidHooks(t *testing.T) {
	fn := func(context.Context, hook.Payload) error { return nil }
	cases := map[string]hook.Hook{
		"unknown event":         {Event: "run:begin", Func: fn},
		"neither":               {Event: hook.EventRunStart},
		"blank command":         {Event: hook.EventRunStart, Command: "  "},
		"both":                  {Event: hook.EventRunStart, Command: "true", Func: fn},
		"timeout too short":     {Event: hook.EventRunStart, Func: fn, Timeout: time.Microsecond},
		"timeout too long":      {Event: hook.EventRunStart, Func: fn, Timeout: 121 * time.Second},
		"negative timeout":      {Event: hook.EventRunStart, Func: fn, Timeout: -time.Second},
		"match on non-tool":     {Event: hook.EventCompactEnd, Func: fn, Match: "*"},
		"bad glob":              {Event: hook.EventToolStart, Func: fn, Match: "[x"},
		"negated glob":          {Event: hook.EventToolStart, Func: fn, Match: "!bash"},
		"too many alternatives": {Event: hook.EventToolStart, Func: fn, Match: strings.Repeat("{a,b,c}", 5)},
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := hook.New(hook.Config{}, hook.Options{Programmatic: []hook.Hook{h}}); err == nil {
				t.Fatal("New accepted the hook")
			}
			r := newRunner(t, hook.Config{}, hook.Options{})
			if _, err := r.Register(h); err == nil {
				t.Fatal("Register accepted the hook")
			}
		})
	}
	if _, err := hook.New(hook.Config{Hooks: []hook.Hook{{Event: hook.EventRunStart, Func: fn, Layer: hook.LayerGlobal}}}, hook.Options{}); err == nil {
		t.Fatal("New accepted a file hook with a func")
	}
	if _, err := hook.New(hook.Config{}, hook.Options{Shell: "/no/such/shell"}); err == nil {
		t.Fatal("New accepted a missing shell")
	}
	if _, err := hook.New(hook.Config{}, hook.Options{MaxOutputBytes: -1}); err == nil {
		t.Fatal("New accepted a negative limit")
	}
}

func TestNilRunnerRunsNothing(t *testing.T) {
	var r *hook.Runner
	if o := r.Fire(t.Context(), hook.RunStart{}); o.Ran != 0 || o.Diagnostics != nil || r.Hooks() != nil {
		t.Fatalf("outcome = %+v", o)
	}
}

func TestFireIsSafeForConcurrentUse(t *testing.T) {
	var mu sync.Mutex
	count := 0
	r := newRunner(t, hook.Config{}, hook.Options{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			un, err := r.Register(hook.Hook{Event: hook.EventToolStart, Func: func(context.Context, hook.Payload) error {
				mu.Lock()
				count++
				mu.Unlock()
				return nil
			}})
			if err != nil {
				t.Error(err)
				return
			}
			for range 50 {
				r.Fire(t.Context(), toolStart("bash", `{"i":`+strconv.Itoa(i)+`}`))
			}
			un()
		})
	}
	wg.Wait()
	if count < 8*50 {
		t.Fatalf("count = %d", count)
	}
}

// TestProcessLeavingTheGroupCannotStallFire starts a daemon that escapes the
// hook's process group (setsid) and keeps its standard input and output
// open; Fire must still return promptly.
func TestProcessLeavingTheGroupCannotStallFire(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "setsid")
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	t.Cleanup(func() {
		if pid, err := strconv.Atoi(strings.TrimSpace(readFileOrEmpty(pidFile))); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	// sh gives a background command /dev/null as standard input unless
	// it is redirected from another descriptor.
	command := "exec 3<&0; setsid sh -c 'echo $$ > \"" + pidFile + "\"; exec sleep 60' <&3 & while [ ! -s '" + pidFile + "' ]; do :; done"
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", commandHooks(hook.EventToolStart, command))}
	r := newRunner(t, cfg, hook.Options{Permit: allow})
	// A payload larger than a pipe's buffer, which nobody reads.
	big, _ := json.Marshal(map[string]string{"content": strings.Repeat("x", 200<<10)})
	start := time.Now()
	o := r.Fire(t.Context(), toolStart("write_file", string(big)))
	if el := time.Since(start); el > 15*time.Second {
		t.Fatalf("Fire took %v", el)
	}
	if len(o.Diagnostics) != 0 {
		t.Fatalf("diagnostics = %+v", o.Diagnostics)
	}
}

func readFileOrEmpty(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func TestPermitRequestCarriesThePayload(t *testing.T) {
	var got hook.Payload
	r := newRunner(t, hook.Config{}, hook.Options{
		Permit: func(_ context.Context, req hook.PermitRequest) (bool, error) {
			got = req.Payload
			return false, nil
		},
		Programmatic: []hook.Hook{{Event: hook.EventToolStart, Command: "true"}},
	})
	fired := hook.ToolStart{Identity: identity(), Call: hook.ToolCall{ID: "call-1", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)}}
	r.Fire(t.Context(), fired)
	ts, ok := got.(hook.ToolStart)
	if !ok {
		t.Fatalf("Payload = %#v, want the hook.ToolStart fired", got)
	}
	if ts.Identity != fired.Identity || ts.Call.ID != "call-1" {
		t.Fatalf("Payload identity %+v call %q, want %+v call-1", ts.Identity, ts.Call.ID, fired.Identity)
	}
	ts.Call.Input[0] = 'X' // a copy: the permit function cannot change what hooks see
	if fired.Call.Input[0] != '{' {
		t.Fatal("the permit function's payload shares memory with the fired one")
	}
}
