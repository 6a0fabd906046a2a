package main

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/otelenv"
	"github.com/lite-agent/lite-agent-go/storage"
)

// result is what one in-process run of lite-agent produced.
type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs lite-agent in-process with args.
func runCLI(t *testing.T, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), args, &stdout, &stderr)
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// isolateEnv points HOME at a fresh directory and clears LITE_AGENT_HOME, so
// that default homes never reach the real user's files. It returns HOME.
func isolateEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(storage.HomeEnv, "")
	t.Setenv(liteagent.TaskListEnv, "")
	t.Setenv(storeEnv, "")
	// Spans and metrics would go to standard error or a collector.
	t.Setenv(otelenv.TracesEnv, "")
	t.Setenv(otelenv.MetricsEnv, "")
	return home
}

// tree lists every path under root with its type and size, to detect
// anything a command created, removed or changed.
func tree(t *testing.T, root string) []string {
	t.Helper()
	var entries []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		entries = append(entries, rel+" "+info.Mode().String()+" "+info.ModTime().String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// wantOneErrorLine checks that r wrote nothing to stdout and exactly one
// "lite-agent: " line to stderr.
func wantOneErrorLine(t *testing.T, r result) {
	t.Helper()
	if r.stdout != "" {
		t.Errorf("stdout = %q, want nothing", r.stdout)
	}
	if !strings.HasPrefix(r.stderr, "lite-agent: ") || !strings.HasSuffix(r.stderr, "\n") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr = %q, want one line starting with \"lite-agent: \"", r.stderr)
	}
}

var pathsKeys = []string{
	"home", "namespace", "projectConfigDir", "hash", "sessionsDir", "tasksDir", "spillDir",
	"globalSkillsDir", "projectSkillsDir", "globalAgentsDir", "projectAgentsDir",
}

func TestPathsJSONForCustomNamespaceAndHome(t *testing.T) {
	isolateEnv(t)
	r := runCLI(t, "paths", "--json", "--namespace", "acme", "--home", "/data/acme", "--workdir", "/srv/app")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("code = %d, stderr = %q; want 0 and nothing", r.code, r.stderr)
	}

	hash, err := storage.ProjectHash("/srv/app")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha1.Sum([]byte("/srv/app"))
	if want := hex.EncodeToString(sum[:])[:16]; hash != want {
		t.Fatalf("storage.ProjectHash(/srv/app) = %s, want %s", hash, want)
	}
	want := storage.ProjectPaths{
		Home:             "/data/acme",
		Namespace:        "acme",
		ProjectConfigDir: "/srv/app/.acme",
		Hash:             hash,
		SessionsDir:      "/data/acme/projects/" + hash + "/sessions",
		TasksDir:         "/data/acme/projects/" + hash + "/tasks",
		SpillDir:         "/data/acme/projects/" + hash + "/spill",
		GlobalSkillsDir:  "/data/acme/skills",
		ProjectSkillsDir: "/srv/app/.acme/skills",
		GlobalAgentsDir:  "/data/acme/agents",
		ProjectAgentsDir: "/srv/app/.acme/agents",
	}
	var got storage.ProjectPaths
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, r.stdout)
	}
	if got != want {
		t.Errorf("paths --json =\n%+v\nwant\n%+v", got, want)
	}
	wantText, _ := json.MarshalIndent(want, "", "  ")
	if r.stdout != string(wantText)+"\n" {
		t.Errorf("paths --json =\n%s\nwant two-space indentation and a trailing newline:\n%s", r.stdout, wantText)
	}
}

func TestPathsJSONHasExactlyTheElevenKeysInOrder(t *testing.T) {
	isolateEnv(t)
	r := runCLI(t, "paths", "--json", "--workdir", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("code = %d, stderr = %q", r.code, r.stderr)
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("first token = %v, %v; want {", tok, err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var value string
		if err := dec.Decode(&value); err != nil || value == "" {
			t.Errorf("%s = %q, %v; want a non-empty string", tok, value, err)
		}
	}
	if !slices.Equal(keys, pathsKeys) {
		t.Errorf("keys = %q, want %q", keys, pathsKeys)
	}
}

func TestPathsTextListsEveryKeyAlignedAndInJSONOrder(t *testing.T) {
	isolateEnv(t)
	workdir := t.TempDir()
	text := runCLI(t, "paths", "--workdir", workdir)
	js := runCLI(t, "paths", "--json", "--workdir", workdir)
	if text.code != exitOK || js.code != exitOK {
		t.Fatalf("codes = %d, %d; stderr = %q, %q", text.code, js.code, text.stderr, js.stderr)
	}
	var want map[string]string
	if err := json.Unmarshal([]byte(js.stdout), &want); err != nil {
		t.Fatal(err)
	}

	lines := strings.Split(strings.TrimSuffix(text.stdout, "\n"), "\n")
	var keys []string
	column := -1
	for _, line := range lines {
		name, _, _ := strings.Cut(line, " ")
		value := strings.TrimLeft(line[len(name):], " ")
		keys = append(keys, name)
		if value != want[name] {
			t.Errorf("%s = %q, want %q as in --json", name, value, want[name])
		}
		if col := len(line) - len(value); column == -1 {
			column = col
		} else if col != column {
			t.Errorf("value of %s starts at column %d, want %d:\n%s", name, col, column, text.stdout)
		}
	}
	if !slices.Equal(keys, pathsKeys) {
		t.Errorf("names = %q, want %q", keys, pathsKeys)
	}
	if want := len("projectConfigDir") + 2; column != want {
		t.Errorf("values start at column %d, want %d (longest name + two spaces)", column, want)
	}
}

func TestLiteAgentHomeIsHonoredOnlyForTheDefaultNamespace(t *testing.T) {
	userHome := isolateEnv(t)
	envHome := filepath.Join(t.TempDir(), "env-home")
	t.Setenv(storage.HomeEnv, envHome)
	tests := []struct {
		name     string
		args     []string
		wantHome string
	}{
		{"default namespace", nil, envHome},
		{"default namespace named explicitly", []string{"--namespace", storage.DefaultNamespace}, envHome},
		{"custom namespace", []string{"--namespace", "acme"}, filepath.Join(userHome, ".acme")},
		{"explicit home", []string{"--home", "/data/x"}, "/data/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"paths", "--json", "--workdir", "/srv/app"}, tt.args...)
			r := runCLI(t, args...)
			if r.code != exitOK {
				t.Fatalf("code = %d, stderr = %q", r.code, r.stderr)
			}
			var p storage.ProjectPaths
			if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
				t.Fatal(err)
			}
			if p.Home != tt.wantHome {
				t.Errorf("home = %s, want %s", p.Home, tt.wantHome)
			}
		})
	}
}

func TestRelativeHomeAndWorkdirBecomeAbsolute(t *testing.T) {
	isolateEnv(t)
	dir := t.TempDir()
	t.Chdir(dir)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "paths", "--json", "--home", "data", "--workdir", "app")
	if r.code != exitOK {
		t.Fatalf("code = %d, stderr = %q", r.code, r.stderr)
	}
	var p storage.ProjectPaths
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(wd, "data"); p.Home != want {
		t.Errorf("home = %s, want %s", p.Home, want)
	}
	if want := filepath.Join(wd, "app", ".lite-agent"); p.ProjectConfigDir != want {
		t.Errorf("projectConfigDir = %s, want %s", p.ProjectConfigDir, want)
	}
}

func TestPathsCreatesNothing(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "user"))
	t.Setenv(storage.HomeEnv, "")
	if err := os.Mkdir(filepath.Join(root, "user"), 0o700); err != nil {
		t.Fatal(err)
	}
	workdir := filepath.Join(root, "project")
	if err := os.Mkdir(workdir, 0o700); err != nil {
		t.Fatal(err)
	}
	before := tree(t, root)
	for _, args := range [][]string{
		{"paths", "--workdir", workdir},
		{"paths", "--json", "--workdir", workdir},
		{"paths", "--workdir", workdir, "--namespace", "acme"},
		{"paths", "--workdir", workdir, "--home", filepath.Join(root, "data")},
		{"paths", "--workdir", filepath.Join(root, "missing")},
	} {
		if r := runCLI(t, args...); r.code != exitOK {
			t.Fatalf("%q: code = %d, stderr = %q", args, r.code, r.stderr)
		}
	}
	if after := tree(t, root); !slices.Equal(before, after) {
		t.Errorf("paths changed the disk:\nbefore %q\nafter  %q", before, after)
	}
}

func TestBadUsageExitsTwoWithOneLineAndCreatesNothing(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // a substring of the error line
	}{
		{"unknown flag", []string{"paths", "--bogus"}, "unknown flag: --bogus"},
		{"unknown global flag", []string{"--bogus", "paths"}, "unknown flag: --bogus"},
		{"unknown shorthand", []string{"paths", "-x"}, "unknown shorthand flag"},
		{"flag without value", []string{"paths", "--namespace"}, "flag needs an argument"},
		{"bad bool value", []string{"paths", "--json=maybe"}, `invalid --json "maybe": want true or false`},
		{"unknown command", []string{"pats"}, `unknown command "pats" (did you mean "paths"?)`},
		{"missing command", []string{}, "missing command"},
		{"extra argument", []string{"paths", "extra"}, `paths takes no arguments, got "extra"`},
		{"unknown help topic", []string{"help", "nope"}, `unknown help topic "nope"`},
		{"mixed-case namespace", []string{"paths", "--namespace", "Mixed"}, `invalid --namespace "Mixed"`},
		{"escaping namespace", []string{"paths", "--namespace", "../escape"}, `invalid --namespace "../escape"`},
		{"absolute namespace", []string{"paths", "--namespace", "/root"}, "invalid --namespace"},
		{"dot namespace", []string{"paths", "--namespace", ".git"}, "invalid --namespace"},
		{"empty namespace", []string{"paths", "--namespace", ""}, "invalid --namespace"},
		{"long namespace", []string{"paths", "--namespace", strings.Repeat("a", 65)}, "invalid --namespace"},
		{"whitespace home", []string{"paths", "--home", "   "}, "--home must not be empty"},
		{"empty home", []string{"paths", "--home", ""}, "--home must not be empty"},
		{"empty workdir", []string{"paths", "--workdir", ""}, "--workdir must not be empty"},
		{"unknown codec", []string{"paths", "--codec", "rot13"}, `invalid --codec "rot13"`},
		{"both key sources", []string{"paths", "--codec", "xchacha20poly1305", "--key-env", "K", "--key-file", "/k"}, "mutually exclusive"},
		{"both key sources without codec", []string{"paths", "--key-env", "K", "--key-file", "/k"}, "mutually exclusive"},
		{"aead codec without key", []string{"paths", "--codec", "aes256gcm"}, "needs a key"},
		{"key without aead codec", []string{"paths", "--codec", "gzip", "--key-env", "K"}, "need an encrypting --codec"},
		{"empty key env", []string{"paths", "--codec", "aes256gcm", "--key-env", ""}, "--key-env must name"},
		{"relative base url", []string{"run", "--base-url", "localhost:8080", "hi"}, `invalid --base-url "localhost:8080": want an absolute http:// or https:// URL`},
		{"unparsable base url", []string{"chat", "--base-url", "::"}, `invalid --base-url "::": want an absolute`},
		{"ftp base url", []string{"run", "--provider", "openai", "--base-url", "ftp://h/v1", "hi"}, `invalid --base-url "ftp://h/v1": want an absolute`},
		{"empty audit log", []string{"run", "--audit-log", "", "hi"}, "--audit-log must not be empty"},
		{"blank audit log", []string{"chat", "--audit-log", " "}, "--audit-log must not be empty"},
		{"bad key id", []string{"paths", "--codec", "aes256gcm", "--key-env", "K", "--key-id", "bad id"}, `invalid --key-id "bad id": want letters, digits`},
		{"empty key id", []string{"paths", "--codec", "aes256gcm", "--key-env", "K", "--key-id", ""}, `invalid --key-id "": want letters, digits`},
		{"bad destination key id", []string{"migrate", "--to-home", "elsewhere", "--to-codec", "xchacha20poly1305", "--to-key-env", "K", "--to-key-id", "k/2"}, `invalid --to-key-id "k/2": want letters, digits`},
		{"control characters", []string{"paths", "--bad\nflag"}, `unknown flag: --bad\nflag`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			t.Setenv("HOME", root)
			t.Setenv(storage.HomeEnv, "")
			t.Chdir(root)
			before := tree(t, root)

			r := runCLI(t, append([]string{"--workdir", root}, tt.args...)...)
			if r.code != exitUsage {
				t.Errorf("code = %d, want %d (stderr %q)", r.code, exitUsage, r.stderr)
			}
			wantOneErrorLine(t, r)
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr = %q, want it to contain %q", r.stderr, tt.want)
			}
			if after := tree(t, root); !slices.Equal(before, after) {
				t.Errorf("a rejected command line changed the disk:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

func TestFailedOperationExitsOne(t *testing.T) {
	isolateEnv(t)
	key := strings.Repeat("ab", 32)
	t.Setenv("TEST_LITE_AGENT_KEY", key)
	t.Setenv("TEST_LITE_AGENT_BADKEY", "abcd")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"malformed key", []string{"--codec", "xchacha20poly1305", "--key-env", "TEST_LITE_AGENT_BADKEY"}, "key must be 32 bytes"},
		{"unset key variable", []string{"--codec", "aes256gcm", "--key-env", "TEST_LITE_AGENT_UNSET"}, "key environment variable TEST_LITE_AGENT_UNSET is not set"},
		{"missing key file", []string{"--codec", "aes256gcm", "--key-file", filepath.Join(t.TempDir(), "nope")}, "read key file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"paths", "--workdir", "/srv/app"}, tt.args...)...)
			if r.code != exitFailure {
				t.Errorf("code = %d, want %d (stderr %q)", r.code, exitFailure, r.stderr)
			}
			wantOneErrorLine(t, r)
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr = %q, want it to contain %q", r.stderr, tt.want)
			}
			if strings.Contains(r.stderr, key) {
				t.Errorf("stderr shows the key: %q", r.stderr)
			}
		})
	}
}

func TestHelpExitsZero(t *testing.T) {
	isolateEnv(t)
	for _, args := range [][]string{
		{"--help"}, {"-h"}, {"help"}, {"paths", "--help"}, {"paths", "-h"}, {"help", "paths"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := runCLI(t, args...)
			if r.code != exitOK || r.stderr != "" {
				t.Errorf("code = %d, stderr = %q; want 0 and nothing", r.code, r.stderr)
			}
			for _, flag := range []string{"--workdir", "--namespace", "--home", "--codec", "--key-env", "--key-file"} {
				if !strings.Contains(r.stdout, flag) {
					t.Errorf("help does not mention %s:\n%s", flag, r.stdout)
				}
			}
		})
	}
}

func TestEachRunStartsFromDefaultFlags(t *testing.T) {
	isolateEnv(t)
	first := runCLI(t, "paths", "--json", "--namespace", "acme", "--workdir", "/srv/app")
	second := runCLI(t, "paths", "--json", "--workdir", "/srv/app")
	if first.code != exitOK || second.code != exitOK {
		t.Fatalf("codes = %d, %d", first.code, second.code)
	}
	var p storage.ProjectPaths
	if err := json.Unmarshal([]byte(second.stdout), &p); err != nil {
		t.Fatal(err)
	}
	if p.Namespace != storage.DefaultNamespace {
		t.Errorf("second run namespace = %s, want %s", p.Namespace, storage.DefaultNamespace)
	}
}

func TestOneLineEscapesControlCharacters(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain message", "plain message"},
		{"two\nlines", `two\nlines`},
		{"cr\r\x00nul", `cr\r\x00nul`},
		{"tab\there", `tab\there`},
		{"naïve ✓", "naïve ✓"},
	}
	for _, tt := range tests {
		if got := oneLine(tt.in); got != tt.want {
			t.Errorf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
