//go:build linux

package permission_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// rt132Snapshots keeps the snapshots the file tools record: what a
// session log holds, and what read_file shows the model through its
// session's read roots.
type rt132Snapshots struct {
	mu     sync.Mutex
	before []string
}

func (r *rt132Snapshots) RecordSnapshot(_ context.Context, _ *tool.Call, ev session.FileSnapshotEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Before != nil {
		r.before = append(r.before, *ev.Before)
	}
	return nil
}

func (r *rt132Snapshots) all() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.before, "\n")
}

// TestCanaryRT132ChangesOfCredentialsInHome (rt132files): in a workspace
// holding the home (an agent started in ~), read_file and grep of a
// credential location ask (round 98), and so do cat, sed -i, rm and
// echo >> in bash, but edit_file, write_file and delete_file of one were
// allowed: edit_file answers "Edited" or "Text not found", an oracle that
// gives the key away a character at a time (old_text = the known prefix
// plus a guess, new_text the same, nothing changes), and every change
// records the file's previous content in its snapshot, which the session
// log keeps and read_file reads back through the session's read roots.
// Each must ask now, and without an approval nothing is read or changed;
// the same tools on the home's other files stay allowed.
func TestCanaryRT132ChangesOfCredentialsInHome(t *testing.T) {
	t.Parallel()
	home, _ := round84Fixture(t)
	key := filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	snaps := &rt132Snapshots{}
	files, err := builtin.FileTools(builtin.FileOptions{Workdir: home, Snapshots: snaps})
	if err != nil {
		t.Fatal(err)
	}
	// The host allows every tool, as --allow write_file --allow edit_file
	// --allow delete_file do.
	policy, err := permission.New(permission.Options{Allow: []string{"*"}, Workdir: home, HomeDir: home})
	if err != nil {
		t.Fatal(err)
	}
	if policy, err = permission.Workspace(policy, permission.WorkspaceOptions{Workdir: home, HomeDir: home}); err != nil {
		t.Fatal(err)
	}
	gate := permission.NewGate(permission.GateOptions{Policy: policy, Workdir: home, HomeDir: home})
	tools := map[string]tool.Tool{}
	for _, tl := range gate.WrapAll(files) {
		tools[tl.Name()] = tl
	}
	run := func(name, input string) tool.Result {
		t.Helper()
		res, err := tools[name].Call(t.Context(), &tool.Call{ID: "c"}, json.RawMessage(input))
		if err != nil {
			t.Fatalf("%s %s: %v", name, input, err)
		}
		return res
	}
	for _, c := range [][2]string{
		{"edit_file", `{"path":".ssh/id_ed25519","old_text":"ROUND84-P","new_text":"ROUND84-P"}`},
		{"edit_file", `{"path":".ssh/id_ed25519","old_text":"ROUND84-Q","new_text":"ROUND84-Q"}`},
		{"edit_file", `{"path":"./.aws/../.ssh/id_ed25519","old_text":"","new_text":""}`},
		{"write_file", `{"path":".aws/credentials","content":"x"}`},
		{"write_file", `{"path":".ssh/authorized_keys","content":"ssh-ed25519 AAAA attacker"}`},
		{"delete_file", `{"path":".ssh/id_ed25519"}`},
	} {
		v, err := gate.Decide(t.Context(), permission.Call{Name: c[0], Input: json.RawMessage(c[1])})
		if err != nil {
			t.Fatal(err)
		}
		if v.Decision != permission.Ask || v.RuleID != permission.RuleFileSecretRead {
			t.Errorf("%s %s in the home: %v %s (%s), want an ask of %s", c[0], c[1], v.Decision, v.RuleID, v.Reason, permission.RuleFileSecretRead)
		}
		if res := run(c[0], c[1]); !res.IsError || strings.HasPrefix(res.Content, "Edited") || strings.Contains(res.Content, "Text not found") {
			t.Errorf("%s %s ran without an approval: %q", c[0], c[1], res.Content)
		}
	}
	if got := snaps.all(); strings.Contains(got, round84Key) {
		t.Errorf("a snapshot recorded the key: %q", got)
	}
	if data, err := os.ReadFile(key); err != nil || !strings.Contains(string(data), round84Key) {
		t.Errorf("the key is now %q (%v)", data, err)
	}
	if _, err := os.Lstat(filepath.Join(home, ".ssh", "authorized_keys")); err == nil {
		t.Error("write_file created .ssh/authorized_keys")
	}
	// The home's other files: allowed, changed, snapshotted.
	for _, c := range [][2]string{
		{"edit_file", `{"path":"notes.txt","old_text":"notes","new_text":"more notes"}`},
		{"write_file", `{"path":"notes2.txt","content":"n"}`},
		{"delete_file", `{"path":"notes2.txt"}`},
		{"write_file", `{"path":".sshx/config","content":"n"}`},
	} {
		if res := run(c[0], c[1]); res.IsError {
			t.Errorf("ordinary %s %s: %q", c[0], c[1], res.Content)
		}
	}
	if got := snaps.all(); !strings.Contains(got, "notes") {
		t.Errorf("the ordinary edit recorded %q", got)
	}
}

// TestCanaryRT132ChangesShowWhatReadingIsDeniedFor (rt132files): a policy
// that denies read_file of .env (and asks for *.pem) but allows the other
// tools denied read_file .env, while edit_file .env answered "Edited" or
// "Text not found" for a guessed prefix, an oracle for its content, and
// write_file and delete_file of it recorded its content in their
// snapshots, which the session log keeps. A change of a file the policy
// does not let read_file read now gets read_file's verdict; writing a new
// file there, and changing the other files, stay allowed.
func TestCanaryRT132ChangesShowWhatReadingIsDeniedFor(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	for name, content := range map[string]string{".env": "SECRET=env\n", "sub/.env": "SECRET=sub\n", "x.pem": "SECRET=pem\n", "main.go": "package main\n"} {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	policy, err := permission.New(permission.Options{
		Rules: []permission.Rule{
			{ID: "env", Tool: []string{"read_file"}, Effect: permission.Deny,
				When: map[string]permission.Condition{"path": permission.Glob("**/.env")}},
			{ID: "pem", Tool: []string{"read_file"}, Effect: permission.Ask,
				When: map[string]permission.Condition{"path": permission.Glob("**/*.pem")}},
		},
		Allow:   []string{"*"},
		Workdir: ws,
	})
	if err != nil {
		t.Fatal(err)
	}
	if policy, err = permission.Workspace(policy, permission.WorkspaceOptions{Workdir: ws}); err != nil {
		t.Fatal(err)
	}
	snaps := &rt132Snapshots{}
	files, err := builtin.FileTools(builtin.FileOptions{Workdir: ws, Snapshots: snaps})
	if err != nil {
		t.Fatal(err)
	}
	gate := permission.NewGate(permission.GateOptions{Policy: policy, Workdir: ws})
	tools := map[string]tool.Tool{}
	for _, tl := range gate.WrapAll(files) {
		tools[tl.Name()] = tl
	}
	run := func(name, input string) tool.Result {
		t.Helper()
		res, err := tools[name].Call(t.Context(), &tool.Call{ID: "c"}, json.RawMessage(input))
		if err != nil {
			t.Fatalf("%s %s: %v", name, input, err)
		}
		return res
	}
	for _, c := range []struct {
		tool, input string
		want        permission.Decision
	}{
		{"read_file", `{"path":".env"}`, permission.Deny},
		{"edit_file", `{"path":".env","old_text":"SECRET=e","new_text":"SECRET=e"}`, permission.Deny},
		{"edit_file", `{"path":".env","old_text":"SECRET=f","new_text":"SECRET=f"}`, permission.Deny},
		{"edit_file", `{"path":"sub/../.env","old_text":"","new_text":""}`, permission.Deny},
		{"write_file", `{"path":".env","content":"x"}`, permission.Deny},
		{"delete_file", `{"path":"sub/.env"}`, permission.Deny},
		{"edit_file", `{"path":"x.pem","old_text":"SECRET","new_text":"SECRET"}`, permission.Ask},
		{"delete_file", `{"path":"x.pem"}`, permission.Ask},
	} {
		v, err := gate.Decide(t.Context(), permission.Call{Name: c.tool, Input: json.RawMessage(c.input)})
		if err != nil {
			t.Fatal(err)
		}
		if v.Decision != c.want {
			t.Errorf("%s %s: %v %s (%s), want %v", c.tool, c.input, v.Decision, v.RuleID, v.Reason, c.want)
		}
		if res := run(c.tool, c.input); !res.IsError || strings.HasPrefix(res.Content, "Edited") || strings.Contains(res.Content, "Text not found") {
			t.Errorf("%s %s ran: %q", c.tool, c.input, res.Content)
		}
	}
	if got := snaps.all(); strings.Contains(got, "SECRET") {
		t.Errorf("a snapshot recorded a file read_file may not read: %q", got)
	}
	for name, want := range map[string]string{".env": "SECRET=env\n", "sub/.env": "SECRET=sub\n", "x.pem": "SECRET=pem\n"} {
		if got, err := os.ReadFile(filepath.Join(ws, name)); err != nil || string(got) != want {
			t.Errorf("%s is now %q (%v)", name, got, err)
		}
	}
	// Ordinary changes, and a new file where reading is denied: allowed.
	for _, c := range [][2]string{
		{"edit_file", `{"path":"main.go","old_text":"main","new_text":"app"}`},
		{"write_file", `{"path":"main.go","content":"package app\n"}`},
		{"write_file", `{"path":"new/.env","content":"TOKEN=new\n"}`},
		{"write_file", `{"path":"doc.txt","content":"d"}`},
		{"delete_file", `{"path":"doc.txt"}`},
	} {
		if res := run(c[0], c[1]); res.IsError {
			t.Errorf("ordinary %s %s: %q", c[0], c[1], res.Content)
		}
	}
	if got := snaps.all(); !strings.Contains(got, "package main") {
		t.Errorf("the ordinary edit recorded %q", got)
	}
}

// TestCanaryRT132OtherSessionsInHome (rt132files): in a workspace holding
// the home, and so the data home ~/.lite-agent, read_file and grep of
// another session's log were allowed while cat of it asks (a data home is
// a secret location for bash, round 98): the log keeps what that session
// read and its snapshots, from any project. They ask now; the calling
// session's own log and archive, which read_file reads through its read
// roots, stay allowed, and so do the home's other files.
func TestCanaryRT132OtherSessionsInHome(t *testing.T) {
	t.Parallel()
	home, _ := round84Fixture(t)
	dataHome := filepath.Join(home, ".lite-agent")
	sessions := filepath.Join(dataHome, "projects", "0123456789abcdef", "sessions")
	const own, other = "20260101-000000-own00000", "20260101-000000-other000"
	for name, content := range map[string]string{
		other + ".jsonl":                  `{"text":"OTHER-SESSION-SECRET"}` + "\n",
		own + ".jsonl":                    `{"text":"own record"}` + "\n",
		own + ".context/entries/e1.json":  `{"text":"own archive"}` + "\n",
		other + ".context/entries/e.json": `{"text":"OTHER-SESSION-SECRET"}` + "\n",
	} {
		p := filepath.Join(sessions, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	policy, err := permission.New(permission.Options{Allow: []string{"*"}, Workdir: home, HomeDir: home})
	if err != nil {
		t.Fatal(err)
	}
	if policy, err = permission.Workspace(policy, permission.WorkspaceOptions{Workdir: home, HomeDir: home}); err != nil {
		t.Fatal(err)
	}
	gate := permission.NewGate(permission.GateOptions{Policy: policy, Workdir: home, HomeDir: home, Protected: []string{dataHome}})
	files, err := builtin.FileTools(builtin.FileOptions{Workdir: home})
	if err != nil {
		t.Fatal(err)
	}
	search, err := builtin.SearchTools(builtin.FileOptions{Workdir: home}, builtin.SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]tool.Tool{}
	for _, tl := range gate.WrapAll(append(files, search...)) {
		tools[tl.Name()] = tl
	}
	rel := func(p string) string { r, _ := filepath.Rel(home, p); return r }
	call := func(name string, input map[string]string) (permission.Verdict, tool.Result) {
		t.Helper()
		raw, _ := json.Marshal(input)
		v, err := gate.Decide(t.Context(), permission.Call{Name: name, Input: raw, SessionID: own})
		if err != nil {
			t.Fatal(err)
		}
		res, err := tools[name].Call(t.Context(), &tool.Call{ID: "c", SessionID: own}, raw)
		if err != nil {
			t.Fatalf("%s %s: %v", name, raw, err)
		}
		return v, res
	}
	for _, c := range []struct {
		name  string
		input map[string]string
	}{
		{"read_file", map[string]string{"path": rel(filepath.Join(sessions, other+".jsonl"))}},
		{"read_file", map[string]string{"path": filepath.Join(sessions, other+".jsonl")}},
		{"read_file", map[string]string{"path": rel(filepath.Join(sessions, other+".context", "entries", "e.json"))}},
		{"grep", map[string]string{"pattern": "SECRET", "path": rel(sessions)}},
		{"grep", map[string]string{"pattern": "SECRET", "path": ".lite-agent"}},
	} {
		v, res := call(c.name, c.input)
		if v.Decision != permission.Ask || v.RuleID != permission.RuleFileSecretRead {
			t.Errorf("%s %v: %v %s (%s), want an ask of %s", c.name, c.input, v.Decision, v.RuleID, v.Reason, permission.RuleFileSecretRead)
		}
		if strings.Contains(res.Content, "OTHER-SESSION-SECRET") {
			t.Errorf("%s %v showed another session's record: %q", c.name, c.input, res.Content)
		}
	}
	for _, c := range []struct {
		name  string
		input map[string]string
		want  string
	}{
		{"read_file", map[string]string{"path": rel(filepath.Join(sessions, own+".jsonl"))}, "own record"},
		{"read_file", map[string]string{"path": filepath.Join(sessions, own+".jsonl")}, "own record"},
		{"read_file", map[string]string{"path": rel(filepath.Join(sessions, own+".context", "entries", "e1.json"))}, "own archive"},
		{"grep", map[string]string{"pattern": "own", "path": rel(filepath.Join(sessions, own+".context"))}, "own archive"},
		{"read_file", map[string]string{"path": "notes.txt"}, "notes"},
	} {
		v, res := call(c.name, c.input)
		if v.Decision != permission.Allow || res.IsError || !strings.Contains(res.Content, c.want) {
			t.Errorf("%s %v: %v %s (%s) %q, want it allowed and %q", c.name, c.input, v.Decision, v.RuleID, v.Reason, res.Content, c.want)
		}
	}
}
