package liteagent_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestAFilePolicyWithoutWorkdirOrStorageTakesTheAgents checks that a
// permission file policy made without Workdir and Storage reads the
// agent's files: the user file in the agent's data home and the project
// file in <workdir>/.<agent's namespace>, never those of the process's
// working directory or the default namespace.
func TestAFilePolicyWithoutWorkdirOrStorageTakesTheAgents(t *testing.T) {
	f := newFixture(t)
	// The user file allows bash; the project file denies read_file.
	writeFile(t, filepath.Join(f.home, "permissions.json"), `{"version":1,"rules":[{"tool":"bash","effect":"allow"}]}`)
	writeFile(t, filepath.Join(f.workdir, ".acme", "permissions.json"), `{"version":1,"rules":[{"tool":"read_file","effect":"deny"}]}`)
	policy, err := liteagent.PermissionFilePolicy(permission.FileOptions{Default: permission.Deny})
	if err != nil {
		t.Fatal(err)
	}
	opts := f.options(nil)
	opts.OnApproval = nil
	opts.Permission = policy
	a := f.agent(t, opts)

	want := []permission.Source{
		{Layer: permission.LayerUser, Path: filepath.Join(f.home, "permissions.json")},
		{Layer: permission.LayerProject, Path: filepath.Join(f.workdir, ".acme", "permissions.json")},
	}
	if got := policy.Sources(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Sources = %+v, want %+v", got, want)
	}
	if st := policy.Status(); len(st.Files) != 2 || st.Err != nil {
		t.Errorf("Status = %+v, want both files loaded", st)
	}
	f.p.Reply(modeltest.ToolCalls(
		call("b", "bash", `{"command":"echo hi > out.txt"}`),
		call("r", "read_file", `{"path":"out.txt"}`),
	))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	msgs := f.p.Requests()[1].Messages
	res := msgs[len(msgs)-1].Blocks
	if res[0].IsError {
		t.Errorf("the user file's allow was not applied: %+v", res[0])
	}
	if !strings.HasPrefix(res[1].Content, "Error: blocked by policy") {
		t.Errorf("the project file's deny was not applied: %+v", res[1])
	}
	// The agent's own tools cannot change the bound files.
	f.p.Reply(modeltest.ToolCalls(call("w", "write_file", `{"path":".acme/permissions.json","content":"{}"}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "again"); err != nil {
		t.Fatal(err)
	}
	msgs = f.p.Requests()[3].Messages
	if r := msgs[len(msgs)-1].Blocks[0]; !r.IsError {
		t.Errorf("a tool wrote the bound project file: %+v", r)
	}
}

// TestAFilePolicyForAnotherProjectIsRefused checks that New refuses, with
// an *OptionError for Permission wrapping the *permission.BindError, a
// file policy whose Workdir or Storage differs from the agent's, creates
// nothing, and leaves the policy as it was; and that a policy bound to one
// agent is refused for an agent of another project.
func TestAFilePolicyForAnotherProjectIsRefused(t *testing.T) {
	f := newFixture(t)
	other := t.TempDir()
	c := aeadCodec(t, "k1")
	for _, tc := range []struct {
		name  string
		opts  permission.FileOptions
		field string
	}{
		{"workdir", permission.FileOptions{Workdir: other}, "Workdir"},
		{"namespace", permission.FileOptions{Storage: storage.Options{Namespace: "other"}}, "Storage.Namespace"},
		{"home", permission.FileOptions{Storage: storage.Options{Home: other}}, "Storage.Home"},
		//lint:ignore SA1019 the deprecated Home is a home the policy was given too
		{"deprecated home", permission.FileOptions{Home: other}, "Storage.Home"},
		{"codec", permission.FileOptions{Storage: storage.Options{Codec: aeadCodec(t, "k2")}}, "Storage.Codec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			policy, err := liteagent.PermissionFilePolicy(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			before := policy.Sources()
			opts := f.options(c)
			opts.Permission = policy
			a, err := liteagent.New(t.Context(), opts)
			if err == nil {
				a.Close()
				t.Fatal("New accepted a file policy of another project")
			}
			oe, ok := errors.AsType[*liteagent.OptionError](err)
			be, ok2 := errors.AsType[*permission.BindError](err)
			if !ok || oe.Field != "Permission" || !ok2 || be.Field != tc.field {
				t.Fatalf("New = %v; want an *OptionError for Permission wrapping a *permission.BindError for %s", err, tc.field)
			}
			if got := policy.Sources(); len(got) != len(before) || got[0] != before[0] {
				t.Errorf("the refused policy changed: %+v, was %+v", got, before)
			}
			if _, err := os.Lstat(f.home); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("New created the data home: %v", err)
			}
		})
	}
	// The same values, given or left zero, are accepted; once bound, the
	// policy refuses an agent of another project.
	policy, err := liteagent.PermissionFilePolicy(permission.FileOptions{Workdir: f.workdir, Storage: storage.Options{Namespace: "acme"}})
	if err != nil {
		t.Fatal(err)
	}
	opts := f.options(c)
	opts.Permission = policy
	a := f.agent(t, opts)
	a.Close()
	a = f.agent(t, opts) // bound to the same values again
	a.Close()
	opts.Workdir = other
	if _, err := liteagent.New(t.Context(), opts); !errors.As(err, new(*permission.BindError)) {
		t.Errorf("New with a policy bound to another workdir = %v, want a *permission.BindError", err)
	}
}

// TestAFilePolicyReadsOnlyTheAgentsFiles checks that PermissionFilePolicy
// reads no rule file, so that broken files of the process's working
// directory and of the default namespace's home (which are not the agent's)
// neither fail it nor are read, while the agent's own project file, which
// the working directory lacks, is applied; and that a broken file of the
// agent is refused by New with an *OptionError for Permission wrapping the
// *permission.ConfigError naming it, before anything is created.
func TestAFilePolicyReadsOnlyTheAgentsFiles(t *testing.T) {
	f := newFixture(t)
	cwd := t.TempDir()
	defaultHome := t.TempDir()
	t.Setenv(storage.HomeEnv, defaultHome)
	t.Setenv(permission.ManagedEnv, "")
	broken := `{"version":1,"rules":[{"tool":`
	writeFile(t, filepath.Join(cwd, ".lite-agent", "permissions.json"), broken)
	writeFile(t, filepath.Join(cwd, ".acme", "permissions.json"), broken)
	writeFile(t, filepath.Join(defaultHome, "permissions.json"), broken)
	t.Chdir(cwd)

	policy, err := liteagent.PermissionFilePolicy(permission.FileOptions{Default: permission.Allow})
	if err != nil {
		t.Fatalf("PermissionFilePolicy read the files of the working directory or the default home: %v", err)
	}
	projectFile := filepath.Join(f.workdir, ".acme", "permissions.json")
	writeFile(t, projectFile, `{"version":1,"rules":[{"tool":"read_file","effect":"deny"}]}`)
	opts := f.options(nil)
	opts.OnApproval = nil
	opts.Permission = policy
	a := f.agent(t, opts)
	if st := policy.Status(); st.Err != nil || len(st.Files) != 1 || st.Files[0] != projectFile {
		t.Errorf("Status = %+v, want only %s loaded", st, projectFile)
	}
	writeFile(t, filepath.Join(f.workdir, "a.txt"), "secret")
	f.p.Reply(modeltest.ToolCalls(call("r", "read_file", `{"path":"a.txt"}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	msgs := f.p.Requests()[1].Messages
	if r := msgs[len(msgs)-1].Blocks[0]; !strings.HasPrefix(r.Content, "Error: blocked by policy") {
		t.Errorf("the agent's project rule was not applied: %+v", r)
	}
	a.Close()

	// A broken file of the agent's own: New names it.
	g := newFixture(t)
	t.Chdir(cwd)
	brokenFile := filepath.Join(g.workdir, ".acme", "permissions.json")
	writeFile(t, brokenFile, broken)
	policy, err = liteagent.PermissionFilePolicy(permission.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opts = g.options(nil)
	opts.Permission = policy
	b, err := liteagent.New(t.Context(), opts)
	if err == nil {
		b.Close()
		t.Fatal("New accepted an agent whose project permission file is broken")
	}
	oe, ok := errors.AsType[*liteagent.OptionError](err)
	ce, ok2 := errors.AsType[*permission.ConfigError](err)
	if !ok || oe.Field != "Permission" || !ok2 || ce.File != brokenFile {
		t.Errorf("New = %v; want an *OptionError for Permission wrapping a *permission.ConfigError for %s", err, brokenFile)
	}
	if _, err := os.Lstat(g.home); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("New created the data home: %v", err)
	}
}
