package storage_test

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

func asStorageError(t *testing.T, err error) *storage.Error {
	t.Helper()
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *storage.Error", err, err)
	}
	return se
}

func TestNamespaceMustMatchPattern(t *testing.T) {
	rejected := map[string]string{
		"parent escape": "../escape",
		"absolute":      "/root",
		"dot dir":       ".git",
		"empty":         "",
		"slash":         "a/b",
		"backslash":     `a\b`,
		"uppercase":     "Mixed",
		"65 letters":    strings.Repeat("a", 65),
		"digit first":   "1abc",
		"hyphen first":  "-abc",
		"space":         "a b",
		"non-ascii":     "ünicode",
		"trailing nl":   "acme\n",
	}
	for name, ns := range rejected {
		t.Run("rejects "+name, func(t *testing.T) {
			err := storage.ValidateNamespace(ns)
			if err == nil {
				t.Fatalf("ValidateNamespace(%q) = nil, want error", ns)
			}
			if se := asStorageError(t, err); !strings.Contains(se.Error(), "namespace") {
				t.Errorf("message %q does not mention the namespace", se.Error())
			}
			home := t.TempDir()
			_, err = storage.ResolveProjectPaths(storage.PathsOptions{Workdir: home, Storage: storage.Options{Namespace: ns, Home: filepath.Join(home, "h")}})
			if ns == "" {
				if err != nil {
					t.Fatalf("empty namespace in Options means the default, got %v", err)
				}
				return
			}
			asStorageError(t, err)
			assertEmptyDir(t, home)
		})
	}
	for _, ns := range []string{"a", "acme", "lite-agent", "a_b-9", strings.Repeat("a", 64)} {
		if err := storage.ValidateNamespace(ns); err != nil {
			t.Errorf("ValidateNamespace(%q) = %v, want nil", ns, err)
		}
	}
}

func assertEmptyDir(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 0 {
		t.Fatalf("%s is not empty: %v", dir, ents)
	}
}

func TestDefaultHomeHonorsEnvOnlyForDefaultNamespace(t *testing.T) {
	user := t.TempDir()
	t.Setenv("HOME", user)
	env := filepath.Join(t.TempDir(), "envhome")
	t.Setenv(storage.HomeEnv, env)

	for _, tc := range []struct{ ns, want string }{
		{"", env},
		{storage.DefaultNamespace, env},
		{"acme", filepath.Join(user, ".acme")},
	} {
		got, err := storage.DefaultHome(tc.ns)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("DefaultHome(%q) = %q, want %q", tc.ns, got, tc.want)
		}
	}
	t.Setenv(storage.HomeEnv, "")
	got, err := storage.DefaultHome("")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(user, ".lite-agent"); got != want {
		t.Errorf("DefaultHome without env = %q, want %q", got, want)
	}
	if _, err := storage.DefaultHome("Bad"); err == nil {
		t.Error("DefaultHome validates the namespace")
	}
}

func TestCustomNamespaceIgnoresHomeEnvAndNeverFallsBack(t *testing.T) {
	user := t.TempDir()
	t.Setenv("HOME", user)
	t.Setenv(storage.HomeEnv, filepath.Join(user, "env"))
	wd := t.TempDir()
	// A .lite-agent directory must not be picked up for another namespace.
	if err := os.MkdirAll(filepath.Join(wd, ".lite-agent", "skills"), 0o700); err != nil {
		t.Fatal(err)
	}
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: storage.Options{Namespace: "acme"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Home != filepath.Join(user, ".acme") {
		t.Errorf("home = %q", p.Home)
	}
	for _, dir := range []string{p.ProjectConfigDir, p.ProjectSkillsDir, p.ProjectAgentsDir} {
		if strings.Contains(dir, ".lite-agent") {
			t.Errorf("custom namespace path %q falls back to .lite-agent", dir)
		}
	}
}

func TestResolveProjectPathsFillsEveryField(t *testing.T) {
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: "/srv/app",
		Storage: storage.Options{Namespace: "acme", Home: "/data/acme"},
	})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha1.Sum([]byte("/srv/app"))
	hash := hex.EncodeToString(sum[:])[:16]
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
	if p != want {
		t.Errorf("got  %+v\nwant %+v", p, want)
	}
}

func TestResolveProjectPathsCreatesNothing(t *testing.T) {
	root := t.TempDir()
	wd := filepath.Join(root, "work")
	_, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: storage.Options{Home: filepath.Join(root, "home")}})
	if err != nil {
		t.Fatal(err)
	}
	assertEmptyDir(t, root)
}

func TestRelativeHomeBecomesAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: ".", Storage: storage.Options{Home: "data/../h"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Home != filepath.Join(real, "h") {
		t.Errorf("home = %q, want %q", p.Home, filepath.Join(real, "h"))
	}
	if !filepath.IsAbs(p.ProjectConfigDir) {
		t.Errorf("project config dir %q is not absolute", p.ProjectConfigDir)
	}
}

func TestWhitespaceHomeIsRejected(t *testing.T) {
	for _, h := range []string{" ", "\t", " \n "} {
		_, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: t.TempDir(), Storage: storage.Options{Home: h}})
		if se := asStorageError(t, err); !strings.Contains(se.Message, "must not be empty") {
			t.Errorf("home %q: %v", h, err)
		}
	}
}

// A LITE_AGENT_HOME of only whitespace is refused like a Storage.Home of
// only whitespace, instead of making a data home named "   " in the working
// directory (often the project itself). It still applies only to the default
// namespace: a custom namespace ignores it, whatever its value.
func TestWhitespaceHomeEnvIsRejected(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	wd := t.TempDir()
	t.Chdir(wd)
	for _, h := range []string{" ", "\t", " \n "} {
		t.Setenv(storage.HomeEnv, h)
		home, err := storage.DefaultHome("")
		if se := asStorageError(t, err); !strings.Contains(se.Message, storage.HomeEnv+" must not be empty") {
			t.Errorf("%s=%q: DefaultHome = %q, %v", storage.HomeEnv, h, home, err)
		}
		_, err = storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd})
		if se := asStorageError(t, err); !strings.Contains(se.Message, storage.HomeEnv) {
			t.Errorf("%s=%q: ResolveProjectPaths: %v", storage.HomeEnv, h, err)
		}
		if _, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: storage.Options{Home: filepath.Join(wd, "h")}}); err != nil {
			t.Errorf("an explicit home does not read %s: %v", storage.HomeEnv, err)
		}
		if _, err := storage.DefaultHome("acme"); err != nil {
			t.Errorf("a custom namespace ignores %s: %v", storage.HomeEnv, err)
		}
	}
	assertEmptyDir(t, wd)
}

func TestDeprecatedHomeConflictIsRejected(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	real, _ := filepath.EvalSymlinks(dir)
	_, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: dir, Home: "/a", Storage: storage.Options{Home: "/b"}})
	if se := asStorageError(t, err); !strings.Contains(se.Message, "conflict") {
		t.Errorf("message %q does not say conflict", se.Message)
	}
	// The same directory spelled two ways is accepted.
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: dir, Home: "h/", Storage: storage.Options{Home: filepath.Join(real, "h")}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Home != filepath.Join(real, "h") {
		t.Errorf("home = %q", p.Home)
	}
	// The deprecated home alone is used.
	p, err = storage.ResolveProjectPaths(storage.PathsOptions{Workdir: dir, Home: "/legacy"})
	if err != nil || p.Home != "/legacy" {
		t.Errorf("deprecated home alone: %q, %v", p.Home, err)
	}
}

func TestProjectHashIsSHA1OfCleanAbsolutePath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	real, _ := filepath.EvalSymlinks(dir)
	sum := sha1.Sum([]byte(real))
	want := hex.EncodeToString(sum[:])[:16]
	for _, spelling := range []string{".", real, real + "/", real + "//", real + "/./x/..", ""} {
		got, err := storage.ProjectHash(spelling)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("ProjectHash(%q) = %s, want %s", spelling, got, want)
		}
	}
	other, _ := storage.ProjectHash(filepath.Join(real, "other"))
	if other == want {
		t.Error("different paths hash the same")
	}
	upper, _ := storage.ProjectHash("/SRV/app")
	lower, _ := storage.ProjectHash("/srv/app")
	if upper == lower {
		t.Error("case must not be folded")
	}
}

func TestProjectHashDoesNotResolveSymlinks(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "target")
	link := filepath.Join(root, "link")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	a, _ := storage.ProjectHash(target)
	b, _ := storage.ProjectHash(link)
	if a == b {
		t.Error("a symlinked workdir must hash by its own spelling")
	}
}

func TestMovingOnlyHomeKeepsProjectHash(t *testing.T) {
	a, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: "/data/one"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Namespace: "acme", Home: "/data/two"}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app2", Storage: storage.Options{Home: "/data/one"}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash != b.Hash {
		t.Error("home or namespace changed the project hash")
	}
	if a.Hash == c.Hash {
		t.Error("a different workdir kept the project hash")
	}
}

func TestIDsAreValidatedNeverRewritten(t *testing.T) {
	rejected := map[string]string{
		"empty":     "",
		"space":     "a b",
		"dotdot":    "..",
		"slash":     "a/b",
		"dot":       ".",
		"non-ascii": "séance",
		"backslash": `a\b`,
		"nul":       "a\x00b",
		"newline":   "a\n",
	}
	for name, id := range rejected {
		t.Run(name, func(t *testing.T) {
			asStorageError(t, storage.ValidateID(id))
		})
	}
	for _, id := range []string{"a", "A-1_b", "0f8e5c9a-1b2c-4d3e-8f9a-0b1c2d3e4f5a", "agent-explore-1a2b3c4d"} {
		if err := storage.ValidateID(id); err != nil {
			t.Errorf("ValidateID(%q) = %v", id, err)
		}
	}
}

func TestIDsAreAtMostMaxIDLength(t *testing.T) {
	long := strings.Repeat("a", storage.MaxIDLength)
	if err := storage.ValidateID(long); err != nil {
		t.Fatalf("ValidateID of %d characters = %v", len(long), err)
	}
	tests := []struct {
		name    string
		id      string
		tooLong bool
	}{
		{"one over", long + "b", true},
		{"300", strings.Repeat("x", 300), true},
		{"long and bad", long + "/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := storage.ValidateID(tt.id)
			asStorageError(t, err)
			if got := errors.Is(err, storage.ErrIDTooLong); got != tt.tooLong {
				t.Errorf("errors.Is(err, ErrIDTooLong) = %v, want %v (%v)", got, tt.tooLong, err)
			}
			if len(err.Error()) > 200 {
				t.Errorf("error text is %d bytes: the id is not clipped", len(err.Error()))
			}
		})
	}
	// A too-long id never names a context directory of its own.
	if got := storage.SessionContextDir("/h", long+"b"); !strings.HasPrefix(filepath.Base(got), "session-") {
		t.Errorf("context dir of a too-long id: %s", got)
	}
}

func TestSessionContextDirNeverAliases(t *testing.T) {
	dir := "/h/sessions"
	if got := storage.SessionContextDir(dir, "abc-1_2"); got != "/h/sessions/abc-1_2.context" {
		t.Errorf("valid id: %q", got)
	}
	a := storage.SessionContextDir(dir, "a/b")
	b := storage.SessionContextDir(dir, "a_b")
	c := storage.SessionContextDir(dir, "a b")
	if a == b || a == c || b == c {
		t.Errorf("aliased: %q %q %q", a, b, c)
	}
	if want := "/h/sessions/session-"; !strings.HasPrefix(a, want) || !strings.HasSuffix(a, ".context") || len(a) != len(want)+64+len(".context") {
		t.Errorf("invalid id: %q", a)
	}
	if filepath.Dir(storage.SessionContextDir(dir, "../../etc")) != dir {
		t.Error("an id escaped the sessions dir")
	}
}

func TestProjectPathsProtectedPaths(t *testing.T) {
	wd := t.TempDir()
	home := t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: storage.Options{Namespace: "acme", Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Workdir() != wd {
		t.Fatalf("Workdir() = %q, want %q", p.Workdir(), wd)
	}
	want := map[string]bool{
		home:                           true,
		wd + "/.acme/permissions.json": true,
		wd + "/.acme/hooks.json":       true,
		wd + "/.acme/mcps.json":        true,
		wd + "/.acme/agents":           true,
		wd + "/.acme/skills":           true,
		wd + "/.git/hooks":             true,
		wd + "/.git/config":            true,
		wd + "/.git/commondir":         true,
		wd + "/.git/config.worktree":   true,
	}
	got := p.ProtectedPaths()
	if len(got) != len(want) {
		t.Fatalf("ProtectedPaths() = %q", got)
	}
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected protected path %q", g)
		}
	}
}

func TestProjectPathsNameEveryDirectory(t *testing.T) {
	home, wd := t.TempDir(), t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(home, "projects", p.Hash)
	tests := []struct{ name, got, want string }{
		{"ProjectsDir", storage.ProjectsDir(home), filepath.Join(home, "projects")},
		{"ProjectDir", p.ProjectDir(), project},
		{"Workdir", p.Workdir(), wd},
		{"SessionsDir", p.SessionsDir, filepath.Join(project, storage.SessionsDirName)},
		{"TasksDir", p.TasksDir, filepath.Join(project, storage.TasksDirName)},
		{"SpillDir", p.SpillDir, filepath.Join(project, storage.SpillDirName)},
		{"ArchiveDir", p.ArchiveDir("s1"), filepath.Join(project, "sessions", "s1.context")},
		{"TaskListDir", p.TaskListDir("l1"), filepath.Join(project, "tasks", "l1")},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if !storage.IsProjectHash(p.Hash) {
		t.Errorf("IsProjectHash(%q) = false", p.Hash)
	}
}

func TestIsProjectHash(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"0123456789abcdef", true},
		{"0123456789ABCDEF", false},
		{"0123456789abcde", false},
		{"0123456789abcdefa", false},
		{"0123456789abcdeg", false},
		{"", false},
	} {
		if got := storage.IsProjectHash(tt.name); got != tt.want {
			t.Errorf("IsProjectHash(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseContextDirNameInvertsSessionContextDir(t *testing.T) {
	for _, id := range []string{"s1", "a-b_C", "with space", "../x", ""} {
		name := filepath.Base(storage.SessionContextDir("/d", id))
		got, hashed, ok := storage.ParseContextDirName(name)
		valid := storage.ValidateID(id) == nil
		if !ok || hashed == valid || valid && got != id {
			t.Errorf("ParseContextDirName(%q) = %q, %v, %v; want ok, hashed %v, id %q", name, got, hashed, ok, !valid, id)
		}
	}
	for _, name := range []string{"s1.jsonl", "s1.context.lock", ".context", "a b.context", "s1"} {
		if id, _, ok := storage.ParseContextDirName(name); ok {
			t.Errorf("ParseContextDirName(%q) = %q, true; want not an archive directory", name, id)
		}
	}
}

// Spec, "Migration and low-level APIs": "Changing the namespace selects
// another project config directory and, unless home is explicit, another
// global home." The project hash stays: neither the namespace nor the home
// is part of it.
func TestChangingTheNamespaceMovesConfigAndDefaultHomeOnly(t *testing.T) {
	user := t.TempDir()
	t.Setenv("HOME", user)
	t.Setenv(storage.HomeEnv, "")
	wd := t.TempDir()
	resolve := func(ns, home string) storage.ProjectPaths {
		t.Helper()
		p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: storage.Options{Namespace: ns, Home: home}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := resolve("alpha", ""), resolve("beta", "")
	if a.Home != filepath.Join(user, ".alpha") || b.Home != filepath.Join(user, ".beta") {
		t.Errorf("default homes %q %q", a.Home, b.Home)
	}
	if a.ProjectConfigDir != filepath.Join(wd, ".alpha") || b.ProjectConfigDir != filepath.Join(wd, ".beta") {
		t.Errorf("config dirs %q %q", a.ProjectConfigDir, b.ProjectConfigDir)
	}
	if a.Hash != b.Hash {
		t.Errorf("the namespace changed the project hash: %s %s", a.Hash, b.Hash)
	}
	home := filepath.Join(t.TempDir(), "data")
	a, b = resolve("alpha", home), resolve("beta", home)
	if a.Home != home || b.Home != home || a.SessionsDir != b.SessionsDir || a.ProjectConfigDir == b.ProjectConfigDir {
		t.Errorf("with an explicit home: %+v\n%+v", a, b)
	}
}
