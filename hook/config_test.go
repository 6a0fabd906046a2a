package hook_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/storage"
)

// layout returns a fresh workdir, home and the paths of namespace ns.
func layout(t *testing.T, ns string) (workdir string, paths storage.ProjectPaths) {
	t.Helper()
	workdir = t.TempDir()
	home := filepath.Join(t.TempDir(), "home")
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: workdir,
		Storage: storage.Options{Namespace: ns, Home: home},
	})
	if err != nil {
		t.Fatal(err)
	}
	return workdir, paths
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLoadFilesReadsGlobalThenProjectOfTheNamespaceOnly(t *testing.T) {
	workdir, paths := layout(t, "acme")
	global := filepath.Join(paths.Home, "hooks.json")
	project := filepath.Join(workdir, ".acme", "hooks.json")
	writeFile(t, global, `{"version":1,"hooks":{"run:start":[{"command":"echo g1"},{"command":"echo g2"}]}}`)
	writeFile(t, project, `{"version":1,"hooks":{"tool:start":[{"command":"echo p1","match":"bash"}],"run:start":[{"command":"echo p2","timeoutMs":5000}]}}`)
	// The default namespace's directory beside it must be ignored.
	writeFile(t, filepath.Join(workdir, ".lite-agent", "hooks.json"), `{"version":1,"hooks":{"run:start":[{"command":"echo WRONG"}]}}`)

	cfg, err := hook.LoadFiles(t.Context(), paths)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{global, project}; strings.Join(cfg.Files, ",") != strings.Join(want, ",") {
		t.Fatalf("files = %v, want %v", cfg.Files, want)
	}
	var got []string
	for _, h := range cfg.Hooks {
		got = append(got, string(h.Layer)+"|"+string(h.Event)+"|"+h.Command+"|"+h.Match+"|"+h.Timeout.String()+"|"+filepath.Base(filepath.Dir(h.File)))
	}
	want := []string{
		"global|run:start|echo g1||0s|home",
		"global|run:start|echo g2||0s|home",
		"project|run:start|echo p2||5s|.acme",
		"project|tool:start|echo p1|bash|0s|.acme",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hooks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLoadFilesDefaultNamespaceReadsLiteAgentDir(t *testing.T) {
	workdir, paths := layout(t, "")
	writeFile(t, filepath.Join(workdir, ".lite-agent", "hooks.json"), `{"version":1,"hooks":{"run:end":[{"command":"true"}]}}`)
	writeFile(t, filepath.Join(workdir, ".acme", "hooks.json"), `not even json`)
	cfg, err := hook.LoadFiles(t.Context(), paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 1 || cfg.Hooks[0].Layer != hook.LayerProject {
		t.Fatalf("hooks = %+v", cfg.Hooks)
	}
}

func TestLoadFilesMissingFilesAreSkipped(t *testing.T) {
	_, paths := layout(t, "acme")
	cfg, err := hook.LoadFiles(t.Context(), paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 0 || len(cfg.Files) != 0 {
		t.Fatalf("cfg = %+v", cfg)
	}
}

func TestLoadFilesSameFileIsLoadedOnce(t *testing.T) {
	workdir := t.TempDir()
	// The data home is the project config directory itself.
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: workdir,
		Storage: storage.Options{Namespace: "acme", Home: filepath.Join(workdir, ".acme")},
	})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{"run:start":[{"command":"true"}]}}`)
	cfg, err := hook.LoadFiles(t.Context(), paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 1 || cfg.Hooks[0].Layer != hook.LayerGlobal || len(cfg.Files) != 1 {
		t.Fatalf("cfg = %+v", cfg)
	}
}

func TestLoadFilesProjectLinkToGlobalIsLoadedOnce(t *testing.T) {
	workdir, paths := layout(t, "acme")
	global := filepath.Join(paths.Home, "hooks.json")
	writeFile(t, global, `{"version":1,"hooks":{"run:start":[{"command":"true"}]}}`)
	if err := os.MkdirAll(paths.ProjectConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(global, filepath.Join(workdir, ".acme", "hooks.json")); err != nil {
		t.Fatal(err)
	}
	cfg, err := hook.LoadFiles(t.Context(), paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 1 || len(cfg.Files) != 1 {
		t.Fatalf("cfg = %+v", cfg)
	}
}

// TestBadHooksFileFailsNamingTheFile covers every way a hooks file can be
// rejected; the value "s3cret-VALUE" appears in each bad file and must never
// appear in the error.
func TestBadHooksFileFailsNamingTheFile(t *testing.T) {
	const secret = "s3cret-VALUE"
	cases := map[string]struct {
		content string
		detail  string
	}{
		"malformed json":         {`{"version":1,"hooks":{"run:start":[{"command":"` + secret + `"}]`, "invalid JSON"},
		"garbage":                {secret, "invalid JSON"},
		"trailing data":          {`{"version":1} {"x":"` + secret + `"}`, "after the top-level value"},
		"top level array":        {`["` + secret + `"]`, "must be an object"},
		"unknown top key":        {`{"version":1,"env":{"A":"` + secret + `"}}`, `unknown key "env"`},
		"missing version":        {`{"hooks":{"run:start":[{"command":"` + secret + `"}]}}`, "version is required"},
		"version 2":              {`{"version":2,"hooks":{"run:start":[{"command":"` + secret + `"}]}}`, "version must be 1"},
		"version string":         {`{"version":"1","hooks":{"run:start":[{"command":"` + secret + `"}]}}`, "version must be 1"},
		"hooks not object":       {`{"version":1,"hooks":["` + secret + `"]}`, "hooks must be an object"},
		"unknown event":          {`{"version":1,"hooks":{"run:begin":[{"command":"` + secret + `"}]}}`, `unknown event "run:begin"`},
		"event not array":        {`{"version":1,"hooks":{"run:start":{"command":"` + secret + `"}}}`, `hooks["run:start"] must be an array`},
		"entry not object":       {`{"version":1,"hooks":{"run:start":["` + secret + `"]}}`, `hooks["run:start"][0]: an entry must be an object`},
		"unknown entry key":      {`{"version":1,"hooks":{"run:start":[{"command":"` + secret + `","shell":"bash"}]}}`, `hooks["run:start"][0]: unknown key "shell"`},
		"missing command":        {`{"version":1,"hooks":{"tool:end":[{"match":"` + secret + `"}]}}`, `hooks["tool:end"][0].command: is required`},
		"blank command":          {`{"version":1,"hooks":{"run:start":[{"command":"   "}],"run:end":[{"command":"` + secret + `"}]}}`, ".command: must not be empty"},
		"command not string":     {`{"version":1,"hooks":{"run:start":[{"command":["` + secret + `"]}]}}`, ".command: must be a string"},
		"command with NUL":       {`{"version":1,"hooks":{"run:start":[{"command":"` + secret + `\u0000"}]}}`, "NUL"},
		"timeout zero":           {`{"version":1,"hooks":{"run:start":[{"command":"` + secret + `","timeoutMs":0}]}}`, ".timeoutMs: must be an integer from 1 to 120000"},
		"timeout too large":      {`{"version":1,"hooks":{"run:start":[{"command":"` + secret + `","timeoutMs":120001}]}}`, ".timeoutMs"},
		"timeout fraction":       {`{"version":1,"hooks":{"run:start":[{"command":"` + secret + `","timeoutMs":1.5}]}}`, ".timeoutMs"},
		"timeout string":         {`{"version":1,"hooks":{"run:start":[{"command":"` + secret + `","timeoutMs":"10"}]}}`, ".timeoutMs"},
		"match on run event":     {`{"version":1,"hooks":{"run:start":[{"command":"` + secret + `","match":"*"}]}}`, ".match: allowed only for tool events"},
		"empty match":            {`{"version":1,"hooks":{"tool:start":[{"command":"` + secret + `","match":""}]}}`, ".match: must be a non-empty string"},
		"malformed match":        {`{"version":1,"hooks":{"tool:start":[{"command":"` + secret + `","match":"[a-"}]}}`, ".match: malformed pattern"},
		"unbalanced brace match": {`{"version":1,"hooks":{"tool:start":[{"command":"` + secret + `","match":"{a,b"}]}}`, ".match: unbalanced braces"},
		"duplicate top key":      {`{"version":1,"hooks":{},"hooks":{"run:start":[{"command":"` + secret + `"}]}}`, `duplicate key "hooks"`},
		"duplicate entry key":    {`{"version":1,"hooks":{"run:start":[{"command":"true","command":"` + secret + `"}]}}`, `duplicate key "command"`},
		"duplicate event":        {`{"version":1,"hooks":{"run:start":[],"run:start":[{"command":"` + secret + `"}]}}`, `duplicate key "run:start"`},
		"invalid utf8":           {"{\"version\":1,\"hooks\":{\"run:start\":[{\"command\":\"" + secret + "\xff\"}]}}", "UTF-8"},
		"deep nesting":           {`{"version":1,"x":` + strings.Repeat("[", 100) + `"` + secret + `"` + strings.Repeat("]", 100) + `}`, "nesting deeper"},
		"oversized":              {`{"version":1,"hooks":{"run:start":[{"command":"` + secret + strings.Repeat(" ", hook.MaxFileBytes) + `"}]}}`, "larger than 262144 bytes"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, paths := layout(t, "acme")
			file := filepath.Join(paths.ProjectConfigDir, "hooks.json")
			writeFile(t, file, tc.content)
			_, err := hook.LoadFiles(t.Context(), paths)
			var ce *hook.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want *ConfigError", err)
			}
			if ce.File != file {
				t.Errorf("File = %q, want %q", ce.File, file)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "invalid hooks configuration "+file+": ") {
				t.Errorf("message %q does not name the file first", msg)
			}
			if !strings.Contains(msg, tc.detail) {
				t.Errorf("message %q does not contain %q", msg, tc.detail)
			}
			if strings.Contains(msg, secret) {
				t.Errorf("message %q echoes a value from the file", msg)
			}
		})
	}
}

func TestHooksFileThatIsNotARegularFileFails(t *testing.T) {
	cases := map[string]func(t *testing.T, file string){
		"directory": func(t *testing.T, file string) {
			if err := os.MkdirAll(file, 0o700); err != nil {
				t.Fatal(err)
			}
		},
		// Opening a FIFO for reading would block until a writer came.
		"fifo": func(t *testing.T, file string) {
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(file, 0o600); err != nil {
				t.Skip("no FIFOs:", err)
			}
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			_, paths := layout(t, "acme")
			file := filepath.Join(paths.Home, "hooks.json")
			plant(t, file)
			done := make(chan error, 1)
			go func() {
				_, err := hook.LoadFiles(t.Context(), paths)
				done <- err
			}()
			select {
			case err := <-done:
				var ce *hook.ConfigError
				if !errors.As(err, &ce) || ce.File != file || !strings.Contains(err.Error(), "not a regular file") {
					t.Fatalf("err = %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("LoadFiles blocked")
			}
		})
	}
}

func TestUnreadableHooksFileFails(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	_, paths := layout(t, "acme")
	file := filepath.Join(paths.Home, "hooks.json")
	writeFile(t, file, `{"version":1}`)
	if err := os.Chmod(file, 0); err != nil {
		t.Fatal(err)
	}
	_, err := hook.LoadFiles(t.Context(), paths)
	var ce *hook.ConfigError
	if !errors.As(err, &ce) || ce.File != file || !errors.Is(err, os.ErrPermission) {
		t.Fatalf("err = %v", err)
	}
}

func TestParseAcceptsMinimalAndEquivalentForms(t *testing.T) {
	cases := map[string]struct {
		content string
		want    int
		timeout time.Duration
	}{
		"version only":        {`{"version":1}`, 0, 0},
		"empty hooks":         {`{"version":1,"hooks":{}}`, 0, 0},
		"empty list":          {`{"version":1,"hooks":{"run:end":[]}}`, 0, 0},
		"exponent timeout":    {`{"version":1,"hooks":{"run:end":[{"command":"x","timeoutMs":1e3}]}}`, 1, time.Second},
		"whole float timeout": {`{"version":1,"hooks":{"run:end":[{"command":"x","timeoutMs":2000.0}]}}`, 1, 2 * time.Second},
		"max timeout":         {`{"version":1,"hooks":{"run:end":[{"command":"x","timeoutMs":120000}]}}`, 1, 2 * time.Minute},
		"whitespace around":   {" \n{\"version\":1}\n\t", 0, 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			hooks, err := hook.Parse([]byte(tc.content), "f.json", hook.LayerGlobal)
			if err != nil {
				t.Fatal(err)
			}
			if len(hooks) != tc.want {
				t.Fatalf("hooks = %+v", hooks)
			}
			if tc.want > 0 && hooks[0].Timeout != tc.timeout {
				t.Fatalf("timeout = %v, want %v", hooks[0].Timeout, tc.timeout)
			}
		})
	}
}

func TestParseOrdersEventsCanonically(t *testing.T) {
	hooks, err := hook.Parse([]byte(`{"version":1,"hooks":{
		"compact:end":[{"command":"6"}],"tool:end":[{"command":"4"}],"run:end":[{"command":"2"}],
		"compact:start":[{"command":"5"}],"tool:start":[{"command":"3a"},{"command":"3b"}],"run:start":[{"command":"1"}]}}`),
		"f.json", hook.LayerProject)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hooks {
		got = append(got, h.Command)
	}
	if strings.Join(got, " ") != "1 2 3a 3b 4 5 6" {
		t.Fatalf("order = %v", got)
	}
}

func TestLoadFilesStopsWhenTheContextIsDone(t *testing.T) {
	_, paths := layout(t, "acme")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := hook.LoadFiles(ctx, paths); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}
