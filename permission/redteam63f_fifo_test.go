//go:build unix

package permission_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/permission"
)

// TestGateNeverWaitsOnAFIFO (redteam63f): the gate reads files of the
// workdir and the home to judge a bash line (package.json for npx, a
// virtual environment's pip and pyvenv.cfg, uv's settings, .npmrc, the git
// configuration). The model can put a FIFO at any of those names in the
// workdir (mkfifo is a plain write there) and then send the line: opening
// a FIFO for reading waits for a writer that never comes, and the call,
// the turn and the approval queue behind it hang, whatever the context
// says. Each line must be decided within seconds; what the gate could not
// read must not be allowed.
func TestGateNeverWaitsOnAFIFO(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, fifo, line string
		dirs, files      []string
	}{
		{"PackageJSON", "package.json", "npx mytool --version", []string{"node_modules/.bin"}, nil},
		{"PackageJSONAbove", "package.json", "cd sub && npx mytool --version", []string{"sub"}, nil},
		{"VenvPip", ".venv/bin/pip", ".venv/bin/pip install requests", []string{".venv/bin"}, []string{".venv/pyvenv.cfg"}},
		{"PyvenvCfg", ".venv/pyvenv.cfg", ".venv/bin/pip install requests", []string{".venv/bin"}, []string{".venv/bin/python"}},
		{"PyvenvCfgPython", ".venv/pyvenv.cfg", ".venv/bin/python -m pip install requests", []string{".venv/bin"}, []string{".venv/bin/python"}},
		{"UvToml", "uv.toml", "uv pip install --python .venv/bin/python requests", []string{".venv/bin"}, []string{".venv/pyvenv.cfg", ".venv/bin/python"}},
		{"PyprojectToml", "pyproject.toml", "uv pip install --python .venv/bin/python requests", []string{".venv/bin"}, []string{".venv/pyvenv.cfg", ".venv/bin/python"}},
		{"Npmrc", ".npmrc", "npm test", nil, []string{"package.json"}},
		{"GitConfig", ".git/config", "git push origin main", []string{".git"}, nil},
		{"GitConfigCommit", ".git/config", "git commit -m x", []string{".git"}, nil},
		{"GlobBelowFIFO", "f", "cat f/*", nil, nil},
		{"GlobBelowFIFOWrite", "f", "rm f/x*", nil, nil},
		{"GlobDeeper", "d/f", "cat d/f/*.go", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, home := t.TempDir(), t.TempDir()
			for _, d := range tc.dirs {
				if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range tc.files {
				content := "home = /usr/bin\ninclude-system-site-packages = false\n"
				switch filepath.Base(f) {
				case "python":
					content = "\x7fELF"
				case "package.json":
					content = `{"name":"x","scripts":{"test":"true"}}`
				}
				if err := os.WriteFile(filepath.Join(ws, f), []byte(content), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, tc.fifo)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(ws, tc.fifo), 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			policy, err := permission.New(permission.Options{Allow: []string{"*"}, Workdir: ws, HomeDir: home})
			if err != nil {
				t.Fatal(err)
			}
			g := permission.NewGate(permission.GateOptions{Policy: policy, Workdir: ws, HomeDir: home,
				BashEnv: func() []string { return []string{"HOME=" + home, "PATH=/usr/bin:/bin"} }})
			input, _ := json.Marshal(map[string]string{"command": tc.line})
			done := make(chan permission.Verdict, 1)
			go func() {
				v, _ := g.Decide(context.Background(), permission.Call{Name: "bash", Input: input})
				done <- v
			}()
			select {
			case v := <-done:
				t.Logf("%s with a FIFO at %s: %s %s", tc.line, tc.fifo, v.Decision, v.Reason)
				// git commit reads no file the gate needs for its verdict;
				// git itself would wait on the FIFO, which is no escape.
				if v.Decision == permission.Allow && tc.name != "GitConfigCommit" && !strings.HasPrefix(tc.name, "Glob") {
					t.Errorf("%s with a FIFO at %s: allowed, though the gate could not read it", tc.line, tc.fifo)
				}
			case <-time.After(10 * time.Second):
				// Let the blocked open go so the test binary can end.
				if f, err := os.OpenFile(filepath.Join(ws, tc.fifo), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Errorf("%s with a FIFO at %s: the gate still waits after 10s", tc.line, tc.fifo)
			}
		})
	}
}
