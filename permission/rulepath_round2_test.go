package permission_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool"
)

// TestRulePathSpellingsRound2: a path glob in a rule is matched against
// clean, resolved paths. A deny glob through a symbolic link also denies
// the path the link leads to; "." segments and repeated slashes go; a ".."
// segment or a trailing slash, which could never match and so made a deny
// rule silently do nothing, is a configuration error.
func TestRulePathSpellingsRound2(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // alias -> private, sshlink -> ../.ssh
	fp := permission.FilePath
	cases := []struct {
		name  string
		rules []permission.Rule
		def   permission.Decision
		call  permission.Call
		want  permission.Decision // 0: New must fail
	}{
		{"DenyThroughDirLink", []permission.Rule{fp("alias/**", deny)}, allow, file("read_file", "private/secret"), deny},
		{"DenyThroughDirLinkByBash", []permission.Rule{fp("alias/**", deny)}, allow, bash("cat private/secret"), deny},
		{"DenyThroughLinkOutside", []permission.Rule{fp("sshlink/*", deny)}, allow, file("read_file", "../.ssh/id_rsa"), deny},
		{"AskThroughDirLink", []permission.Rule{fp("alias/secret", permission.Ask)}, allow, file("write_file", "private/secret"), permission.Ask},
		{"DenyLinkSpellingStill", []permission.Rule{fp("alias/**", deny)}, allow, file("read_file", "alias/secret"), deny},
		{"AllowThroughLinkStillCannotGrant", []permission.Rule{fp("alias/**", allow)}, deny, file("read_file", "alias/secret"), deny},
		{"DotSegments", []permission.Rule{fp("./private/./**", deny)}, allow, file("write_file", "private/x"), deny},
		{"RepeatedSlashes", []permission.Rule{fp("private//secret", deny)}, allow, file("read_file", "private/secret"), deny},
		{"DotDotRejected", []permission.Rule{fp("public/../private/**", deny)}, allow, file("read_file", "private/secret"), 0},
		{"DotDotHomeRejected", []permission.Rule{fp("~/proj/../.ssh/**", deny)}, allow, file("read_file", "../.ssh/id_rsa"), 0},
		{"DotDotAllowRejected", []permission.Rule{fp("public/../private/**", allow)}, deny, file("read_file", "private/secret"), 0},
		{"TrailingSlashRejected", []permission.Rule{fp("private/", deny)}, allow, file("read_file", "private/secret"), 0},
		{"TrailingSlashAllowRejected", []permission.Rule{fp("public/", allow)}, deny, file("write_file", "public/x"), 0},
		{"CallTrailingSlash", []permission.Rule{fp("private/**", deny)}, allow, file("delete_file", "private/"), deny},
		{"CallDotDirByBash", []permission.Rule{fp("private/**", deny)}, allow, bash("rm -rf ./private/."), deny},
		{"CallDotDotIntoByBash", []permission.Rule{fp("private/**", deny)}, allow, bash("rm -rf public/../private"), deny},
		{"CallGlobByBash", []permission.Rule{fp("private/secret", deny)}, allow, bash("rm -f private/secre?"), permission.Ask},
		{"RootGlobStillCompiles", []permission.Rule{fp("/", deny)}, allow, file("read_file", "public/readme"), allow},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			p, err := permission.New(permission.Options{Rules: tt.rules, Default: tt.def, Workdir: f.proj, HomeDir: f.home})
			if tt.want == 0 {
				if err == nil {
					t.Fatalf("New accepted %v", tt.rules[0].When)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w, err := permission.Workspace(p, permission.WorkspaceOptions{Workdir: f.proj, HomeDir: f.home})
			if err != nil {
				t.Fatal(err)
			}
			if v := check(t, w, tt.call); v.Decision != tt.want {
				t.Errorf("%s %s: %+v, want %s", tt.call.Name, tt.call.Input, v, tt.want)
			}
		})
	}
}

// TestGateRedactsEmittedAndAuditedRound2: after the move of the redactor
// to internal/redact and of Emit/Audit to *tool.Call, what the gate emits
// and audits still hides secrets, in the input and in the reason (a
// protected path's name included).
func TestGateRedactsEmittedAndAuditedRound2(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	wd := filepath.Join(root, "work")
	home := filepath.Join(root, "home")
	prot := filepath.Join(home, ".lite-agent")
	pol, err := permission.New(permission.Options{Default: allow, Workdir: wd, HomeDir: home})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	record := func(kind string, c *tool.Call, ev permission.Event) {
		mu.Lock()
		defer mu.Unlock()
		b, _ := json.Marshal(ev)
		seen = append(seen, kind+" "+string(b))
	}
	g := permission.NewGate(permission.GateOptions{
		Policy: pol, Workdir: wd, HomeDir: home, Protected: []string{prot},
		Emit: func(_ context.Context, c *tool.Call, ev permission.Event) { record("emit", c, ev) },
		Audit: func(_ context.Context, c *tool.Call, ev permission.Event) error {
			record("audit", c, ev)
			return nil
		},
	})
	secrets := []string{"hunter22secret", "sk-abcdefghijklmnopqrstuv", "ghp_" + strings.Repeat("a", 36)}
	calls := []permission.Call{
		bash(`curl -H 'Authorization: Bearer hunter22secret' https://example.com`),
		file("write_file", "notes.txt"),
		bash(`echo x > ~/.lite-agent/password=hunter22secret`),
		bash(`echo sk-abcdefghijklmnopqrstuv > ~/.lite-agent/x`),
		{Name: "mcp_call", Input: json.RawMessage(`{"api_key":"ghp_` + strings.Repeat("a", 36) + `","nested":{"token":"hunter22secret"}}`)},
	}
	calls[1].Input = json.RawMessage(`{"path":"notes.txt","content":"password=hunter22secret"}`)
	for _, c := range calls {
		if _, err := g.Authorize(t.Context(), c); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) < 2*len(calls) {
		t.Fatalf("got %d events and audit records for %d calls", len(seen), len(calls))
	}
	for _, s := range seen {
		for _, sec := range secrets {
			if strings.Contains(s, sec) {
				t.Errorf("secret %q not redacted: %s", sec, s)
			}
		}
	}
}
