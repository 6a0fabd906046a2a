package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The tests in this file come from a walkthrough of the README and the help
// text as an operator would follow them: each checks that what the command
// line prints tells the operator what went wrong and what to type next.

// TestInvalidIDsAreReportedInOneSentence: a rejected id is named once, with
// the rule it breaks, whichever flag or argument carried it.
func TestInvalidIDsAreReportedInOneSentence(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	const rule = "ids must contain only letters, digits, underscores or hyphens"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"sessions", "show", "a.b"}, `invalid session id "a.b": ` + rule},
		{[]string{"sessions", "delete", "a.b"}, `invalid session id "a.b": ` + rule},
		{[]string{"sessions", "checkpoints", "../x"}, `invalid session id "../x": ` + rule},
		{[]string{"sessions", "delete", "s1", "--task-list", "a.b"}, `invalid --task-list "a.b": ` + rule},
		{[]string{"tasks", "list", "--list", "a.b"}, `invalid --list "a.b": ` + rule},
		{[]string{"run", "--session-id", "a.b", "hi"}, `invalid --session-id "a.b": ` + rule},
		{[]string{"run", "--resume", "a b", "hi"}, `invalid --resume "a b": ` + rule},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runCLI(t, append([]string{"--home", home, "--workdir", work}, tt.args...)...)
			if want := "lite-agent: " + tt.want + "\n"; r.code != 2 || r.stderr != want {
				t.Errorf("code %d stderr %q, want 2 and %q", r.code, r.stderr, want)
			}
		})
	}
}

// TestCommandGroupsNameTheirCommands: a group run without a command, or with
// a mistyped one, names the group's commands, every one of them.
func TestCommandGroupsNameTheirCommands(t *testing.T) {
	isolateEnv(t)
	sessions := "checkpoints, compact, delete, fork, list, restore or show"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"sessions"}, "missing sessions command: want " + sessions},
		{[]string{"sessions", "lst"}, `unknown sessions command "lst": want ` + sessions},
		{[]string{"tasks"}, "missing tasks command: want list"},
		{[]string{"tasks", "show"}, `unknown tasks command "show": want list`},
		{[]string{"permissions"}, "missing permissions command: want check"},
		{[]string{"permissions", "chek"}, `unknown permissions command "chek": want check`},
		{[]string{"mcp"}, "missing mcp command: want list"},
		{[]string{"mcp", "connect"}, `unknown mcp command "connect": want list`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runCLI(t, append([]string{"--home", t.TempDir(), "--workdir", t.TempDir()}, tt.args...)...)
			if want := "lite-agent: " + tt.want + "\n"; r.code != 2 || r.stderr != want {
				t.Errorf("code %d stderr %q, want 2 and %q", r.code, r.stderr, want)
			}
		})
	}
	// The list in the message is the group's: a command added later
	// cannot be left out of it.
	root := newRoot(nil)
	for _, group := range []string{"sessions", "tasks", "permissions", "mcp"} {
		cmd, _, err := root.Find([]string{group})
		if err != nil {
			t.Fatal(err)
		}
		msg := runCLI(t, "--home", t.TempDir(), group).stderr
		for _, sub := range cmd.Commands() {
			if !strings.Contains(msg, sub.Name()) {
				t.Errorf("%s: %q does not name %s", group, msg, sub.Name())
			}
		}
	}
}

// TestCodecHintWorksWhenFollowed: the note about records written under
// another codec says exactly which flags to pass, and passing them reads the
// records. A compressing codec takes no key (a key with it is refused), and
// an encrypting one needs --key-id when the records name another key version.
func TestCodecHintWorksWhenFollowed(t *testing.T) {
	isolateEnv(t)
	t.Setenv("K1", migKey1)
	for _, tt := range []struct {
		name    string
		written storage.Codec
		given   []string // the flags of the first try
		hint    string
		follow  []string // the flags the hint names
	}{
		{"gzip read as plaintext", migCodec(t, codecGzip, "", ""), nil,
			"records are encoded with gzip-v1; pass --codec gzip", []string{"--codec", "gzip"}},
		{"zstd read as gzip", migCodec(t, codecZstd, "", ""), []string{"--codec", "gzip"},
			"records are encoded with zstd-v1; pass --codec zstd", []string{"--codec", "zstd"}},
		{"key k1 read as plaintext", migCodec(t, codecXChaCha, "K1", "k1"), nil,
			"records are encoded with xchacha20poly1305.v1.k1; pass --codec xchacha20poly1305 and its key (--key-env or --key-file)",
			[]string{"--codec", codecXChaCha, "--key-env", "K1"}},
		{"key k2 read as k1", migCodec(t, codecAES256GCM, "K1", "k2"), []string{"--codec", codecAES256GCM, "--key-env", "K1"},
			"records are encoded with aes256gcm.v1.k2; pass --codec aes256gcm --key-id k2 and its key (--key-env or --key-file)",
			[]string{"--codec", codecAES256GCM, "--key-env", "K1", "--key-id", "k2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home, work := t.TempDir(), t.TempDir()
			migFixture(t, home, work, storage.DefaultNamespace, tt.written)
			base := []string{"--home", home, "--workdir", work}
			r := runCLI(t, append(append(base, tt.given...), "sessions", "list")...)
			if want := "note: 1 session: " + tt.hint + "\n"; r.code != 0 || r.stderr != want {
				t.Errorf("code %d stderr %q, want %q", r.code, r.stderr, want)
			}
			r = runCLI(t, append(append(base, tt.follow...), "sessions", "list")...)
			if r.code != 0 || r.stderr != "" || strings.Contains(r.stdout, "unreadable") {
				t.Errorf("following the hint: code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestCustomNamespaceNotesTheVariablesItIgnores: a custom namespace ignores
// the default namespace's variables, as the storage spec requires; the
// command line says so once on stderr, so that an operator who set, say,
// a managed permission file does not lose it without a word.
func TestCustomNamespaceNotesTheVariablesItIgnores(t *testing.T) {
	isolateEnv(t)
	managed := filepath.Join(t.TempDir(), "managed.json")
	if err := os.WriteFile(managed, []byte(`{"version":1,"rules":[{"id":"m","tool":"read_file","effect":"deny"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(permission.ManagedEnv, managed)
	t.Setenv(liteagent.TaskListEnv, "shared")
	work := t.TempDir()
	check := []string{"--home", t.TempDir(), "--workdir", work, "permissions", "check", "read_file", `{"path":"a"}`}

	r := runCLI(t, check...)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "deny (layer managed") || r.stderr != "" {
		t.Errorf("default namespace: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, append([]string{"--namespace", "acme"}, check...)...)
	want := "note: namespace acme ignores " + liteagent.TaskListEnv + " and " + permission.ManagedEnv + " (they apply to the default namespace only)\n"
	if r.code != 0 || !strings.HasPrefix(r.stdout, "allow") || r.stderr != want {
		t.Errorf("namespace acme: code %d stdout %q stderr %q, want the note %q", r.code, r.stdout, r.stderr, want)
	}
	// A variable a flag overrides anyway is not named.
	t.Setenv(storage.HomeEnv, t.TempDir())
	t.Setenv(permission.ManagedEnv, "")
	r = runCLI(t, "--namespace", "acme", "--home", t.TempDir(), "--workdir", work, "paths")
	if want := "note: namespace acme ignores " + liteagent.TaskListEnv + " (it applies to the default namespace only)\n"; r.code != 0 || r.stderr != want {
		t.Errorf("--home given: code %d stderr %q, want %q", r.code, r.stderr, want)
	}
	r = runCLI(t, "--namespace", "acme", "--workdir", work, "paths")
	if want := "note: namespace acme ignores " + storage.HomeEnv + " and " + liteagent.TaskListEnv + " (they apply to the default namespace only)\n"; r.code != 0 || r.stderr != want {
		t.Errorf("no --home: code %d stderr %q, want %q", r.code, r.stderr, want)
	}
	t.Setenv(permission.ManagedEnv, managed)
	// Naming the default namespace explicitly changes nothing.
	r = runCLI(t, append([]string{"--namespace", storage.DefaultNamespace}, check...)...)
	if r.stderr != "" || !strings.HasPrefix(r.stdout, "deny") {
		t.Errorf("--namespace lite-agent: stdout %q stderr %q", r.stdout, r.stderr)
	}
}

// TestVerifyOfAMissingHomeSaysSo: verify is the check step of every
// migration recipe; a mistyped --home must not pass it in silence.
func TestVerifyOfAMissingHomeSaysSo(t *testing.T) {
	isolateEnv(t)
	home := filepath.Join(t.TempDir(), "typo")
	for _, args := range [][]string{{"verify"}, {"verify", "--all"}, {"verify", "--json"}} {
		r := runCLI(t, append([]string{"--home", home, "--workdir", t.TempDir()}, args...)...)
		want := "note: the data home " + home + " does not exist\n"
		if r.code != 0 || r.stderr != want {
			t.Errorf("%v: code %d stderr %q, want %q", args, r.code, r.stderr, want)
		}
	}
	if ok, err := exists(home); err != nil || ok {
		t.Error("verify created the home")
	}
	// A home without the project: a mistyped --workdir.
	home, work := t.TempDir(), t.TempDir()
	migFixture(t, home, work, storage.DefaultNamespace, nil)
	other := filepath.Join(work, "elsewhere")
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: other, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--home", home, "--workdir", other, "verify")
	if want := "note: " + home + " holds no data of the project " + other + " (" + p.Hash + ")\n"; r.code != 0 || r.stderr != want {
		t.Errorf("other workdir: code %d stderr %q, want %q", r.code, r.stderr, want)
	}
	for _, args := range [][]string{{"--workdir", work, "verify"}, {"--workdir", other, "verify", "--all"}} {
		if r := runCLI(t, append([]string{"--home", home}, args...)...); r.code != 0 || r.stderr != "" {
			t.Errorf("%v: code %d stderr %q", args, r.code, r.stderr)
		}
	}
}

// TestPackageDocListsEveryCommand keeps the command list of the package
// documentation (go doc) in step with the command tree.
func TestPackageDocListsEveryCommand(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := strings.Cut(string(src), "\npackage main")
	for _, cmd := range newRoot(nil).Commands() {
		if cmd.Name() == "help" {
			continue
		}
		if !strings.Contains(doc, "\n//\t"+cmd.Name()+" ") {
			t.Errorf("the package documentation does not list %s", cmd.Name())
		}
	}
}

// TestListWithTheWrongKeySaysWhatItMayBe: records under the configured
// codec id that fail to decode are, under an encrypting codec, most often
// read with the wrong key; the listing says so once, besides each row.
func TestListWithTheWrongKeySaysWhatItMayBe(t *testing.T) {
	isolateEnv(t)
	t.Setenv("K1", migKey1)
	t.Setenv("K2", migKey2)
	home, work := t.TempDir(), t.TempDir()
	migFixture(t, home, work, storage.DefaultNamespace, migCodec(t, codecXChaCha, "K1", "k2"))
	base := []string{"--home", home, "--workdir", work, "--codec", codecXChaCha, "--key-id", "k2"}
	r := runCLI(t, append(base, "--key-env", "K2", "sessions", "list")...)
	want := "note: 1 session does not decode with the configured codec (a wrong key or --key-id, or records changed on disk); lite-agent verify lists the records\n"
	if r.code != 0 || r.stderr != want || !strings.Contains(r.stdout, "unreadable: Storage decode failed") {
		t.Errorf("code %d\nstdout %s\nstderr %q, want %q", r.code, r.stdout, r.stderr, want)
	}
	if r := runCLI(t, append(base, "--key-env", "K1", "sessions", "list")...); r.code != 0 || r.stderr != "" {
		t.Errorf("right key: code %d stderr %q", r.code, r.stderr)
	}
}

// TestTasksListOfNothingSaysSo: with no list the text listing notes it on
// stderr instead of printing nothing; the exit status stays 0 and the JSON
// stays []. A --list id that names no list (a typo) is an error, exit 1.
func TestTasksListOfNothingSaysSo(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"--home", home, "--workdir", work, "tasks", "list"}
	// The error says what to do too: see the lists there are.
	unknown := "lite-agent: no task list nope in project " + work + " (" + p.Hash + "); tasks list without --list shows the project's lists\n"
	for _, tt := range []struct {
		args         []string
		code         int
		stdout, note string
	}{
		{nil, exitOK, "", "note: no task lists in project " + work + " (" + p.Hash + ")\n"},
		{[]string{"--json"}, exitOK, "[]\n", ""},
		// A list that was never written is unknown, as a file ls is
		// asked for and does not find: one error line, exit 1.
		{[]string{"--list", "nope"}, exitFailure, "", unknown},
		{[]string{"--list", "nope", "--json"}, exitFailure, "", unknown},
	} {
		r := runCLI(t, append(base, tt.args...)...)
		if r.code != tt.code || r.stdout != tt.stdout || r.stderr != tt.note {
			t.Errorf("%v: code %d stdout %q stderr %q, want %d and %q", tt.args, r.code, r.stdout, r.stderr, tt.code, tt.note)
		}
	}
}

// TestMigrateWithoutADestinationNamesBoth: --to-store is a destination as
// much as --to-home is, so the usage error names both.
func TestMigrateWithoutADestinationNamesBoth(t *testing.T) {
	isolateEnv(t)
	r := runCLI(t, "--home", t.TempDir(), "migrate", "--all-projects")
	if want := "lite-agent: migrate needs a destination: --to-home DIR (a data home) or --to-store URL (a database)\n"; r.code != 2 || r.stderr != want {
		t.Errorf("code %d stderr %q, want 2 and %q", r.code, r.stderr, want)
	}
	r = runCLI(t, "migrate", "--help")
	if !strings.Contains(r.stdout, "lite-agent migrate --to-home DIR | --to-store URL [flags]") {
		t.Errorf("usage line: %s", r.stdout)
	}
}

// TestHomeWithAnUnexpandedTildeIsNoted: "--home=~/x" reaches the command
// as "~/x", a relative path; the command says where that is.
func TestHomeWithAnUnexpandedTildeIsNoted(t *testing.T) {
	isolateEnv(t)
	dir := t.TempDir()
	t.Chdir(dir)
	r := runCLI(t, "--home=~/x", "paths")
	want := `note: --home "~/x" is a relative path, ` + filepath.Join(dir, "~", "x") + ": the shell expands ~ only at the start of a word (--home ~/…, not --home=~/…)\n"
	if r.code != 0 || r.stderr != want {
		t.Errorf("code %d stderr %q, want %q", r.code, r.stderr, want)
	}
	src := t.TempDir()
	r = runCLI(t, "--home", src, "migrate", "--all-projects", "--dry-run", "--to-home=~/new")
	if !strings.Contains(r.stderr, `note: --to-home "~/new" is a relative path, `+filepath.Join(dir, "~", "new")) {
		t.Errorf("migrate: code %d stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, "--home", src, "paths"); r.stderr != "" {
		t.Errorf("an absolute home: stderr %q", r.stderr)
	}
}

// TestManagedPermissionsFlag: a custom namespace ignores
// LITE_AGENT_MANAGED_PERMISSIONS, and the storage spec says to pass the
// managed file explicitly instead; --managed-permissions is how, in any
// namespace, and it takes the place of the variable.
func TestManagedPermissionsFlag(t *testing.T) {
	isolateEnv(t)
	dir := t.TempDir()
	denyRead := filepath.Join(dir, "deny-read.json")
	denyBash := filepath.Join(dir, "deny-bash.json")
	for name, tool := range map[string]string{denyRead: "read_file", denyBash: "bash"} {
		if err := os.WriteFile(name, []byte(`{"version":1,"rules":[{"id":"m","tool":"`+tool+`","effect":"deny"}]}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	base := []string{"--home", t.TempDir(), "--workdir", t.TempDir()}
	for _, tt := range []struct {
		name        string
		env         string
		args        []string
		read, bash  string // the first word of each decision
		stderrEmpty bool
	}{
		{"acme with the flag", "", []string{"--namespace", "acme", "--managed-permissions", denyRead}, "deny", "ask", true},
		{"acme, variable set, with the flag", denyBash, []string{"--namespace", "acme", "--managed-permissions", denyRead}, "deny", "ask", true},
		{"default namespace, the flag wins over the variable", denyBash, []string{"--managed-permissions", denyRead}, "deny", "ask", true},
		{"default namespace, the variable", denyBash, nil, "allow", "deny", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(permission.ManagedEnv, tt.env)
			for tool, want := range map[string]string{"read_file": tt.read, "bash": tt.bash} {
				r := runCLI(t, append(append(append([]string{}, base...), tt.args...), "permissions", "check", tool, `{"path":"a","command":"ls"}`)...)
				if r.code != 0 || !strings.HasPrefix(r.stdout, want+" ") || (tt.stderrEmpty && r.stderr != "") {
					t.Errorf("%s: code %d stdout %q stderr %q, want %s", tool, r.code, r.stdout, r.stderr, want)
				}
			}
		})
	}
	r := runCLI(t, append(base, "--managed-permissions", filepath.Join(dir, "missing.json"), "permissions", "check", "bash")...)
	if r.code == 0 || !strings.Contains(r.stderr, "missing.json") {
		t.Errorf("a missing managed file: code %d stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, append(base, "--managed-permissions", " ", "paths")...); r.code != 2 {
		t.Errorf("an empty --managed-permissions: code %d stderr %q", r.code, r.stderr)
	}
}
