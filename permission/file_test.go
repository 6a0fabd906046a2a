package permission_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
)

// project is a workdir and a data home in a temporary directory.
type project struct {
	t             *testing.T
	root          string
	workdir, home string
}

func newProject(t *testing.T) *project {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, root: root, workdir: filepath.Join(root, "work"), home: filepath.Join(root, "home")}
	for _, d := range []string{p.workdir, p.home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(permission.ManagedEnv, "")
	return p
}

// write writes a file below root, creating its directory.
func (p *project) write(rel, content string) string {
	p.t.Helper()
	name := filepath.Join(p.root, rel)
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		p.t.Fatal(err)
	}
	return name
}

// rules returns a rule file holding the given rule objects.
func rules(rs ...string) string {
	return `{"version":1,"rules":[` + strings.Join(rs, ",") + `]}`
}

func (p *project) opts() permission.FileOptions {
	return permission.FileOptions{Workdir: p.workdir, Storage: storage.Options{Home: p.home}, HomeDir: filepath.Join(p.root, "userhome")}
}

func (p *project) policy(opts permission.FileOptions) *permission.FilePolicy {
	p.t.Helper()
	fp, err := permission.NewFilePolicy(opts)
	if err != nil {
		p.t.Fatal(err)
	}
	return fp
}

func TestFilePolicyLayersAndIDs(t *testing.T) {
	p := newProject(t)
	managed := p.write("etc/managed.json", rules(`{"id":"m","tool":"mgd","effect":"deny"}`))
	p.write("home/permissions.json", rules(`{"tool":"usr","effect":"deny"}`, `{"id":"ok","tool":"read_file","effect":"allow"}`))
	p.write("work/.lite-agent/permissions.json", rules(`{"tool":"prj","effect":"ask","description":"careful"}`))
	opts := p.opts()
	opts.ManagedFile = managed
	opts.Base = []permission.Rule{{Tool: []string{"bse"}, Effect: deny}}
	opts.Inline = []permission.Rule{{ID: "x", Tool: []string{"inl"}, Effect: deny}, {Tool: []string{"bash"}, Effect: allow}}
	opts.Default = allow
	fp := p.policy(opts)
	tests := []struct {
		tool string
		want permission.Verdict
	}{
		{"mgd", permission.Verdict{Decision: deny, RuleID: "managed:m", Reason: "managed permission rule", Layer: "managed"}},
		{"usr", permission.Verdict{Decision: deny, RuleID: "user:0", Reason: "user permission rule", Layer: "user"}},
		{"read_file", permission.Verdict{Decision: allow, RuleID: "user:ok", Reason: "user permission rule", Layer: "user"}},
		{"prj", permission.Verdict{Decision: ask, RuleID: "project:0", Reason: "careful", Layer: "project"}},
		{"bse", permission.Verdict{Decision: deny, RuleID: "base:0", Reason: "base permission rule", Layer: "base"}},
		{"inl", permission.Verdict{Decision: deny, RuleID: "inline:x", Reason: "inline permission rule", Layer: "inline"}},
		{"bash", permission.Verdict{Decision: allow, RuleID: "inline:1", Reason: "inline permission rule", Layer: "inline"}},
		{"other", permission.Verdict{Decision: allow, Layer: "default"}},
	}
	for _, tt := range tests {
		if got := check(t, fp, call(tt.tool, `{"path":"a"}`)); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.tool, got, tt.want)
		}
	}
	st := fp.Status()
	want := []string{managed, filepath.Join(p.home, "permissions.json"), filepath.Join(p.workdir, ".lite-agent", "permissions.json")}
	if !slices.Equal(st.Files, want) || st.Err != nil || st.Reloads != 0 || st.LoadedAt.IsZero() {
		t.Errorf("status %+v, want files %q", st, want)
	}
	var layers []string
	for _, s := range fp.Sources() {
		layers = append(layers, s.Layer)
	}
	if !slices.Equal(layers, []string{"managed", "user", "project"}) {
		t.Errorf("sources %v", fp.Sources())
	}
}

func TestFilePolicyDefaultIsDenyAndMissingFilesAreSkipped(t *testing.T) {
	p := newProject(t)
	fp := p.policy(p.opts())
	if v := check(t, fp, call("read_file", `{"path":"a"}`)); v.Decision != deny || v.Layer != "default" {
		t.Errorf("no files: %+v, want the default deny", v)
	}
	if st := fp.Status(); len(st.Files) != 0 {
		t.Errorf("files %q, want none", st.Files)
	}
	opts := p.opts()
	opts.Default = allow
	if v := check(t, p.policy(opts), call("read_file", `{"path":"a"}`)); v.Decision != allow {
		t.Errorf("default allow: %+v", v)
	}
}

func TestFilePolicyErrorsNameTheFile(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"UnknownKey", `{"version":1,"rules":[],"extra":1}`, "unknown key"},
		{"DuplicateKey", `{"version":1,"rules":[],"rules":[]}`, "duplicate key"},
		{"NonUTF8", "{\"version\":1,\"rules\":[{\"id\":\"\xc3\x28\",\"effect\":\"deny\"}]}", "UTF-8"},
		{"WrongVersion", `{"version":3,"rules":[]}`, "unsupported version"},
		{"BadEffect", rules(`{"effect":"always"}`), "effect"},
		{"BadRegex", rules(`{"when":{"a":{"regex":"("}},"effect":"deny"}`), "invalid regex"},
		{"TildeWithoutHome", rules(`{"when":{"path":{"glob":"~/x"}},"effect":"deny"}`), "home directory is unknown"},
	}
	for _, layer := range []string{"user", "project", "managed"} {
		for _, tt := range tests {
			t.Run(layer+"/"+tt.name, func(t *testing.T) {
				p := newProject(t)
				opts := p.opts()
				var name string
				switch layer {
				case "user":
					name = p.write("home/permissions.json", tt.content)
				case "project":
					name = p.write("work/.lite-agent/permissions.json", tt.content)
				default:
					name = p.write("managed.json", tt.content)
					opts.ManagedFile = name
				}
				if tt.name == "TildeWithoutHome" {
					opts.HomeDir = ""
					t.Setenv("HOME", "")
				}
				_, err := permission.NewFilePolicy(opts)
				var ce *permission.ConfigError
				if !errors.As(err, &ce) || ce.File != name {
					t.Fatalf("error %v, want a *ConfigError naming %s", err, name)
				}
				if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error %q, want it to name the file and mention %q", err, tt.want)
				}
			})
		}
	}
}

func TestManagedEnvIsHonoredOnlyForTheDefaultNamespace(t *testing.T) {
	p := newProject(t)
	managed := p.write("managed.json", rules(`{"tool":"bash","effect":"deny"}`))
	t.Setenv(permission.ManagedEnv, managed)
	tests := []struct {
		name    string
		ns      string
		file    string
		disable bool
		want    permission.Decision
	}{
		{"DefaultNamespaceReadsTheEnv", "", "", false, deny},
		{"ExplicitDefaultNamespaceReadsTheEnv", "lite-agent", "", false, deny},
		{"CustomNamespaceIgnoresTheEnv", "acme", "", false, allow},
		{"CustomNamespaceWithExplicitFile", "acme", managed, false, deny},
		{"DisabledIgnoresTheEnv", "", "", true, allow},
		{"DisabledIgnoresTheFile", "acme", managed, true, allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := p.opts()
			opts.Storage.Namespace = tt.ns
			opts.ManagedFile = tt.file
			opts.DisableManaged = tt.disable
			opts.Inline = []permission.Rule{{Tool: []string{"bash"}, Effect: allow}}
			if v := check(t, p.policy(opts), bash("ls")); v.Decision != tt.want {
				t.Errorf("%+v, want %s", v, tt.want)
			}
		})
	}
}

func TestCustomNamespaceReadsItsOwnProjectDirOnly(t *testing.T) {
	p := newProject(t)
	p.write("work/.acme/permissions.json", rules(`{"tool":"bash","effect":"deny"}`))
	p.write("work/.lite-agent/permissions.json", rules(`{"tool":"read_file","effect":"deny"}`))
	p.write("home/permissions.json", rules(`{"tool":"*","effect":"allow"}`))
	opts := p.opts()
	opts.Storage.Namespace = "acme"
	fp := p.policy(opts)
	if v := check(t, fp, bash("ls")); v.Decision != deny || v.RuleID != "project:0" {
		t.Errorf("bash: %+v, want the .acme project deny", v)
	}
	if v := check(t, fp, file("read_file", "a")); v.Decision != allow {
		t.Errorf("read_file: %+v, want allow (the .lite-agent file must be ignored)", v)
	}
	want := []string{filepath.Join(p.home, "permissions.json"), filepath.Join(p.workdir, ".acme", "permissions.json")}
	if got := fp.Status().Files; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
}

func TestProjectRulesCanOnlyRestrict(t *testing.T) {
	tests := []struct {
		name    string
		user    string
		project string
		c       permission.Call
		want    permission.Decision
	}{
		{"ProjectAllowCannotBeatDefaultDeny", "", `{"tool":"bash","effect":"allow"}`, bash("ls"), deny},
		{"ProjectAllowEverythingCannotBeatDefaultDeny", "", `{"effect":"allow"}`, call("write_file", `{"path":"x"}`), deny},
		{"ProjectAllowCannotBeatUserDeny", `{"tool":"bash","effect":"deny"},{"effect":"allow"}`, `{"tool":"bash","effect":"allow"}`, bash("ls"), deny},
		{"ProjectAllowCannotBeatUserAsk", `{"tool":"bash","effect":"ask"}`, `{"tool":"bash","effect":"allow"}`, bash("ls"), ask},
		{"ProjectDenyRestricts", `{"effect":"allow"}`, `{"tool":"bash","when":{"command":{"startsWith":"rm"}},"effect":"deny"}`, bash("ls && rm x"), deny},
		{"ProjectAskRestricts", `{"effect":"allow"}`, `{"tool":"write_file","effect":"ask"}`, call("write_file", `{"path":"x"}`), ask},
		{"ProjectFileRuleRestrictsBash", `{"effect":"allow"}`, `{"tool":"read_file","when":{"path":{"glob":"secret/**"}},"effect":"deny"}`, bash("cat secret/key"), deny},
		{"ProjectLeavesTheRestAlone", `{"effect":"allow"}`, `{"tool":"write_file","effect":"deny"}`, bash("ls"), allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t)
			if tt.user != "" {
				p.write("home/permissions.json", rules(tt.user))
			}
			p.write("work/.lite-agent/permissions.json", rules(tt.project))
			if v := check(t, p.policy(p.opts()), tt.c); v.Decision != tt.want {
				t.Errorf("%+v, want %s", v, tt.want)
			}
		})
	}
}

func TestFilePolicyReloadsOnChange(t *testing.T) {
	p := newProject(t)
	const readOK = `{"tool":"read_file","effect":"allow"}`
	user := p.write("home/permissions.json", rules(`{"tool":"bash","effect":"allow"}`, readOK))
	var mu sync.Mutex
	var reloads []permission.Status
	opts := p.opts()
	opts.OnReload = func(s permission.Status) {
		mu.Lock()
		defer mu.Unlock()
		reloads = append(reloads, s)
	}
	fp := p.policy(opts)
	if v := check(t, fp, bash("ls")); v.Decision != allow {
		t.Fatalf("before: %+v", v)
	}
	if v := check(t, fp, bash("ls")); v.Decision != allow || fp.Status().Reloads != 0 {
		t.Fatalf("unchanged files reloaded: %+v", fp.Status())
	}
	p.write("home/permissions.json", rules(`{"tool":"bash","effect":"deny","id":"now"}`, readOK))
	if v := check(t, fp, bash("ls")); v.Decision != deny || v.RuleID != "user:now" {
		t.Errorf("after a change: %+v, want the new deny", v)
	}
	// A project file that appears is loaded too.
	p.write("work/.lite-agent/permissions.json", rules(`{"tool":"read_file","effect":"ask"}`))
	if v := check(t, fp, file("read_file", "a")); v.Decision != ask {
		t.Errorf("after a new project file: %+v, want ask", v)
	}
	// A file that goes away is dropped.
	if err := os.Remove(user); err != nil {
		t.Fatal(err)
	}
	if v := check(t, fp, bash("ls")); v.Decision != deny || v.Layer != "default" {
		t.Errorf("after removal: %+v, want the default", v)
	}
	st := fp.Status()
	if st.Reloads != 3 || len(st.Files) != 1 {
		t.Errorf("status %+v, want 3 reloads and the project file", st)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reloads) != 3 || reloads[2].Reloads != 3 {
		t.Errorf("OnReload calls %+v", reloads)
	}
}

func TestBrokenFileAfterReloadFailsClosedUntilFixed(t *testing.T) {
	p := newProject(t)
	user := p.write("home/permissions.json", rules(`{"effect":"allow"}`))
	var last permission.Status
	opts := p.opts()
	opts.OnReload = func(s permission.Status) { last = s }
	fp := p.policy(opts)
	g := permission.NewGate(permission.GateOptions{Policy: fp})
	ft := &fakeTool{name: "read_file"}
	if res, _ := g.Wrap(ft).Call(t.Context(), nil, json.RawMessage(`{"path":"a"}`)); res.IsError {
		t.Fatalf("before: %+v", res)
	}
	p.write("home/permissions.json", `{"version":1,"rules":[{"effect":"allow","effect":"allow"}]}`)
	for range 2 { // a second check must fail too, without a change
		_, err := fp.Check(t.Context(), file("read_file", "a"))
		var ce *permission.ConfigError
		if !errors.As(err, &ce) || ce.File != user {
			t.Fatalf("check after breaking: %v, want a *ConfigError naming %s", err, user)
		}
	}
	res, _ := g.Wrap(ft).Call(t.Context(), nil, json.RawMessage(`{"path":"a"}`))
	if !res.IsError || !strings.HasPrefix(res.Content, "Error: blocked by policy: policy error: invalid permission configuration: "+user) {
		t.Errorf("gate with a broken file: %+v", res)
	}
	if ft.calls.Load() != 1 {
		t.Error("the tool ran with a broken permission file")
	}
	if last.Err == nil || fp.Status().Err == nil {
		t.Errorf("status does not record the error: %+v", last)
	}
	p.write("home/permissions.json", rules(`{"effect":"allow","id":"fixed"}`))
	if v := check(t, fp, file("read_file", "a")); v.Decision != allow || v.RuleID != "user:fixed" {
		t.Errorf("after fixing: %+v", v)
	}
	if fp.Status().Err != nil {
		t.Errorf("status still has an error: %+v", fp.Status())
	}
	if err := fp.Reload(); err != nil {
		t.Errorf("Reload: %v", err)
	}
	if fp.Status().Reloads != 3 {
		t.Errorf("reloads %d, want 3", fp.Status().Reloads)
	}
}

func TestSymlinkedProjectPermissionFilesAreRefused(t *testing.T) {
	t.Run("File", func(t *testing.T) {
		p := newProject(t)
		outside := p.write("outside/permissions.json", rules(`{"effect":"allow"}`))
		if err := os.MkdirAll(filepath.Join(p.workdir, ".lite-agent"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(p.workdir, ".lite-agent", "permissions.json")); err != nil {
			t.Fatal(err)
		}
		_, err := permission.NewFilePolicy(p.opts())
		if err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("error %v, want a refusal of the link", err)
		}
	})
	t.Run("Directory", func(t *testing.T) {
		p := newProject(t)
		p.write("outside/permissions.json", rules(`{"effect":"deny"}`))
		if err := os.Symlink(filepath.Join(p.root, "outside"), filepath.Join(p.workdir, ".lite-agent")); err != nil {
			t.Fatal(err)
		}
		if _, err := permission.NewFilePolicy(p.opts()); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("error %v, want a refusal of the linked directory", err)
		}
	})
	t.Run("DanglingFile", func(t *testing.T) {
		p := newProject(t)
		if err := os.MkdirAll(filepath.Join(p.workdir, ".lite-agent"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/nonexistent/x", filepath.Join(p.workdir, ".lite-agent", "permissions.json")); err != nil {
			t.Fatal(err)
		}
		if _, err := permission.NewFilePolicy(p.opts()); err == nil {
			t.Error("a dangling project link was accepted")
		}
	})
	t.Run("UserFileMayBeALink", func(t *testing.T) {
		p := newProject(t)
		target := p.write("etc/user.json", rules(`{"tool":"bash","effect":"allow"}`))
		if err := os.Symlink(target, filepath.Join(p.home, "permissions.json")); err != nil {
			t.Fatal(err)
		}
		if v := check(t, p.policy(p.opts()), bash("ls")); v.Decision != allow {
			t.Errorf("linked user file: %+v", v)
		}
	})
}

func TestNonRegularOrHugeRuleFilesAreRefused(t *testing.T) {
	p := newProject(t)
	if err := os.MkdirAll(filepath.Join(p.home, "permissions.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := permission.NewFilePolicy(p.opts()); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory as rule file: %v", err)
	}
	p = newProject(t)
	p.write("home/permissions.json", `{"version":1,"rules":[],"pad":"`+strings.Repeat("x", permission.MaxRuleFileSize)+`"}`)
	if _, err := permission.NewFilePolicy(p.opts()); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("huge rule file: %v", err)
	}
}

func TestPermissionFilesAreReadOnlyToTools(t *testing.T) {
	p := newProject(t)
	p.write("home/permissions.json", rules(`{"effect":"allow"}`))
	p.write("work/.lite-agent/permissions.json", rules(`{"tool":"nothing","effect":"deny"}`))
	managed := p.write("etc/managed.json", rules())
	opts := p.opts()
	opts.ManagedFile = managed
	fp := p.policy(opts)
	projectFile := filepath.Join(p.workdir, ".lite-agent", "permissions.json")
	userFile := filepath.Join(p.home, "permissions.json")
	tests := []struct {
		name string
		c    permission.Call
		want permission.Decision
	}{
		{"WriteRelative", file("write_file", ".lite-agent/permissions.json"), deny},
		{"WriteDotSlash", file("write_file", "./.lite-agent//permissions.json"), deny},
		{"WriteAbsolute", file("write_file", projectFile), deny},
		{"WriteDotDot", file("write_file", "src/../.lite-agent/permissions.json"), deny},
		{"EditUserFile", file("edit_file", userFile), deny},
		{"EditManagedFile", file("edit_file", managed), deny},
		{"DeleteProjectFile", file("delete_file", ".lite-agent/permissions.json"), deny},
		{"DeleteConfigDir", file("delete_file", ".lite-agent"), deny},
		{"DeleteWorkdir", file("delete_file", "."), deny},
		{"DeleteHome", file("delete_file", p.home), deny},
		{"DeleteAncestorAbsolute", file("delete_file", p.root), deny},
		{"WriteNeighbour", file("write_file", ".lite-agent/notes.md"), allow},
		{"DeleteNeighbour", file("delete_file", ".lite-agent/notes.md"), allow},
		{"ReadIsFine", file("read_file", ".lite-agent/permissions.json"), allow},
		{"BashRedirect", bash("echo '{}' > .lite-agent/permissions.json"), deny},
		{"BashAppendUserFile", bash("echo x >> " + userFile), deny},
		{"BashCp", bash("cp /tmp/evil.json .lite-agent/permissions.json"), deny},
		{"BashCpIntoConfigDir", bash("cp /tmp/permissions.json .lite-agent/"), deny},
		{"BashCpTreeIntoWorkdir", bash("cp -r /tmp/evil/.lite-agent ."), deny},
		{"BashMvTree", bash("mv /tmp/evil .lite-agent"), deny},
		{"BashRm", bash("rm -rf .lite-agent"), deny},
		{"BashRmWorkdir", bash("cd .. && rm -rf work"), deny},
		{"BashSedInPlace", bash("sed -i s/deny/allow/ .lite-agent/permissions.json"), deny},
		{"BashTee", bash("echo x | tee " + managed), deny},
		{"BashAfterCd", bash("cd .lite-agent && echo x > permissions.json"), deny},
		{"BashInsideShC", bash(`sh -c "echo x > .lite-agent/permissions.json"`), deny},
		{"BashUnanalyzableMention", bash(`python3 -c "open('.lite-agent/permissions.json','w')"`), ask},
		{"BashReadIsFine", bash("cat .lite-agent/permissions.json"), allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := check(t, fp, tt.c)
			if v.Decision != tt.want {
				t.Errorf("%+v, want %s", v, tt.want)
			}
			if tt.want == deny && (v.Reason != "permission configuration is read-only to tools" || v.Layer != "self-protection") {
				t.Errorf("verdict %+v, want the self-protection reason", v)
			}
		})
	}
}

func TestSelfProtectionHoldsThroughSymlinksAndBrokenFiles(t *testing.T) {
	p := newProject(t)
	p.write("home/permissions.json", rules(`{"effect":"allow"}`))
	if err := os.Symlink(filepath.Join(p.workdir, ".lite-agent"), filepath.Join(p.workdir, "cfg")); err != nil {
		t.Fatal(err)
	}
	fp := p.policy(p.opts())
	if v := check(t, fp, file("write_file", "cfg/permissions.json")); v.Decision != deny {
		t.Errorf("write through a link: %+v", v)
	}
	// Self-protection runs before reloading, so a broken file cannot be
	// "repaired" by the agent either.
	p.write("home/permissions.json", "{broken")
	if v := check(t, fp, file("write_file", filepath.Join(p.home, "permissions.json"))); v.Decision != deny {
		t.Errorf("write of a broken file: %+v", v)
	}
	if _, err := fp.Check(context.Background(), file("read_file", "a")); err == nil {
		t.Error("a broken file did not fail the check")
	}
}

func TestFilePolicyPathsComeFromTheStorageLayout(t *testing.T) {
	p := newProject(t)
	t.Setenv(storage.HomeEnv, filepath.Join(p.root, "envhome"))
	p.write("envhome/permissions.json", rules(`{"tool":"bash","effect":"allow"}`))
	opts := permission.FileOptions{Workdir: p.workdir, HomeDir: p.root}
	fp := p.policy(opts)
	if v := check(t, fp, bash("ls")); v.Decision != allow {
		t.Errorf("LITE_AGENT_HOME user file: %+v", v)
	}
	opts.Storage.Namespace = "acme"
	opts.Storage.Home = p.home
	if v := check(t, p.policy(opts), bash("ls")); v.Decision != deny {
		t.Errorf("acme ignores LITE_AGENT_HOME: %+v", v)
	}
	opts.Storage.Home = "   "
	if _, err := permission.NewFilePolicy(opts); err == nil {
		t.Error("a blank storage home was accepted")
	}
	opts = p.opts()
	opts.UserFile = p.write("custom/user.json", rules(`{"tool":"bash","effect":"ask"}`))
	opts.ProjectFile = p.write("custom/project.json", rules(`{"tool":"bash","effect":"deny"}`))
	fp = p.policy(opts)
	if v := check(t, fp, bash("ls")); v.Decision != deny || v.Layer != "project" {
		t.Errorf("explicit files: %+v", v)
	}
	opts.DisableProject, opts.DisableUser = true, true
	if got := p.policy(opts).Sources(); len(got) != 0 {
		t.Errorf("sources with every layer disabled: %v", got)
	}
}

func storageHome(home string) storage.Options { return storage.Options{Home: home} }
