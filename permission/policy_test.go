package permission_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

const (
	allow = permission.Allow
	ask   = permission.Ask
	deny  = permission.Deny
)

// call builds a call from a name and a JSON input.
func call(name, input string) permission.Call {
	return permission.Call{ID: "c1", Name: name, Input: json.RawMessage(input)}
}

// bash builds a bash call.
func bash(cmd string) permission.Call {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return permission.Call{ID: "c1", Name: "bash", Input: b}
}

// file builds a call of a file tool on path.
func file(tool, path string) permission.Call {
	b, _ := json.Marshal(map[string]string{"path": path})
	return permission.Call{ID: "c1", Name: tool, Input: b}
}

func mustNew(t testing.TB, opts permission.Options) permission.Policy {
	t.Helper()
	if opts.HomeDir == "" {
		opts.HomeDir = "/home/u"
	}
	p, err := permission.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func check(t testing.TB, p permission.Policy, c permission.Call) permission.Verdict {
	t.Helper()
	v, err := p.Check(context.Background(), c)
	if err != nil {
		t.Fatalf("Check(%s %s): %v", c.Name, c.Input, err)
	}
	return v
}

func TestDecisionsAreOrderedDenyAskAllow(t *testing.T) {
	t.Parallel()
	if !(deny.Rank() > ask.Rank() && ask.Rank() > allow.Rank() && allow.Rank() > permission.Decision(0).Rank()) {
		t.Fatal("ranks out of order")
	}
	for _, d := range []permission.Decision{allow, ask, deny} {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back permission.Decision
		if err := json.Unmarshal(b, &back); err != nil || back != d {
			t.Errorf("round trip of %s: %s, %v", d, back, err)
		}
	}
	for _, s := range []string{"", "Allow", "DENY", "prompt", "allow "} {
		if _, err := permission.ParseDecision(s); err == nil {
			t.Errorf("ParseDecision(%q) succeeded", s)
		}
	}
	if _, err := json.Marshal(permission.Decision(0)); err == nil {
		t.Error("marshaling the zero decision succeeded")
	}
}

func TestDenyBeatsAskBeatsAllowWhateverTheOrder(t *testing.T) {
	t.Parallel()
	rules := []permission.Rule{
		{ID: "a", Tool: []string{"bash"}, Effect: allow},
		{ID: "q", Tool: []string{"bash"}, Effect: ask},
		{ID: "d", Tool: []string{"bash"}, Effect: deny},
	}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {0, 2, 1}} {
		var rs []permission.Rule
		for _, i := range order {
			rs = append(rs, rules[i])
		}
		v := check(t, mustNew(t, permission.Options{Rules: rs}), bash("ls"))
		if v.Decision != deny || v.RuleID != "d" {
			t.Errorf("order %v: %+v, want deny by d", order, v)
		}
	}
	v := check(t, mustNew(t, permission.Options{Rules: rules[:2]}), bash("ls"))
	if v.Decision != ask || v.RuleID != "q" {
		t.Errorf("allow+ask: %+v, want ask by q", v)
	}
}

func TestFirstMatchingRuleOfAnEffectIsTheProvenance(t *testing.T) {
	t.Parallel()
	p := mustNew(t, permission.Options{Rules: []permission.Rule{
		{Tool: []string{"read_file"}, Effect: deny},
		{ID: "first", Description: "no bash", Tool: []string{"b*"}, Effect: deny},
		{ID: "second", Tool: []string{"bash"}, Effect: deny},
		{Tool: []string{"bash"}, Effect: ask},
	}})
	v := check(t, p, bash("ls"))
	if v.RuleID != "first" || v.Reason != "no bash" {
		t.Errorf("verdict %+v, want rule first with its description", v)
	}
	v = check(t, p, file("read_file", "a"))
	if v.RuleID != "rule-0" {
		t.Errorf("unnamed rule id = %q, want rule-0", v.RuleID)
	}
}

func TestNameListsGiveBareVerdicts(t *testing.T) {
	t.Parallel()
	p := mustNew(t, permission.Options{Deny: []string{"delete_file"}, Ask: []string{"mcp__*"}, Allow: []string{"*"}, Default: deny})
	tests := []struct {
		name string
		want permission.Decision
	}{
		{"delete_file", deny},
		{"mcp__github__create_issue", ask},
		{"anything", allow},
	}
	for _, tt := range tests {
		v := check(t, p, call(tt.name, `{}`))
		if v != (permission.Verdict{Decision: tt.want}) {
			t.Errorf("%s: %+v, want the bare decision %s", tt.name, v, tt.want)
		}
	}
}

func TestDefaultDecisionWhenNoRuleMatches(t *testing.T) {
	t.Parallel()
	for _, def := range []permission.Decision{0, allow, ask, deny} {
		p := mustNew(t, permission.Options{Rules: []permission.Rule{{Tool: []string{"x"}, Effect: deny}}, Default: def})
		want := def
		if def == 0 {
			want = allow
		}
		v := check(t, p, call("y", `{}`))
		if v.Decision != want || v.Layer != "default" || v.RuleID != "" {
			t.Errorf("default %s: %+v", def, v)
		}
	}
	p, err := permission.Strict(permission.Options{HomeDir: "/h"})
	if err != nil {
		t.Fatal(err)
	}
	if v := check(t, p, call("y", `{}`)); v.Decision != deny {
		t.Errorf("Strict: %+v, want deny", v)
	}
}

func TestConditionsAreANDedAcrossKeys(t *testing.T) {
	t.Parallel()
	p := mustNew(t, permission.Options{Rules: []permission.Rule{{
		Tool:   []string{"deploy"},
		When:   map[string]permission.Condition{"env": permission.Equals("prod"), "opts.force": permission.Equals(true)},
		Effect: deny,
	}}})
	tests := []struct {
		input string
		want  permission.Decision
	}{
		{`{"env":"prod","opts":{"force":true}}`, deny},
		{`{"env":"prod","opts":{"force":false}}`, allow},
		{`{"env":"prod"}`, allow},
		{`{"env":"dev","opts":{"force":true}}`, allow},
		{`not json`, allow},
		{``, allow},
	}
	for _, tt := range tests {
		if v := check(t, p, call("deploy", tt.input)); v.Decision != tt.want {
			t.Errorf("input %s: %s, want %s", tt.input, v.Decision, tt.want)
		}
	}
}

func TestInvalidRulesFailConstructionNamingTheRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts permission.Options
		want string
	}{
		{"NoEffect", permission.Options{Rules: []permission.Rule{{ID: "x"}}}, "rule x"},
		{"BadEffect", permission.Options{Rules: []permission.Rule{{Effect: 9}}}, "rule rule-0"},
		{"EmptyToolGlob", permission.Options{Rules: []permission.Rule{{Tool: []string{""}, Effect: deny}}}, "tool glob"},
		{"ClaudeSyntax", permission.Options{Rules: []permission.Rule{{Tool: []string{"Bash(rm:*)"}, Effect: deny}}}, "tool name glob"},
		{"BadRegex", permission.Options{Rules: []permission.Rule{{When: map[string]permission.Condition{"a": permission.Regex("(")}, Effect: deny}}}, "invalid regex"},
		{"BadGlob", permission.Options{Rules: []permission.Rule{{When: map[string]permission.Condition{"path": permission.Glob("!x")}, Effect: deny}}}, "negated"},
		{"ZeroCondition", permission.Options{Rules: []permission.Rule{{When: map[string]permission.Condition{"a": {}}, Effect: deny}}}, "empty condition"},
		{"EmptyKeySegment", permission.Options{Rules: []permission.Rule{{When: map[string]permission.Condition{"a..b": permission.Equals(1)}, Effect: deny}}}, "empty path segment"},
		{"BadNameList", permission.Options{Deny: []string{"rm -rf"}}, "deny list"},
		{"BadDefault", permission.Options{Default: 7}, "default"},
		{"PWDWithoutWorkdir", permission.Options{Rules: []permission.Rule{permission.FilePath("$PWD/x", deny)}}, "$PWD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.HomeDir = "/home/u"
			_, err := permission.New(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New: %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

func TestRuleUsingTildeWithoutHomeFailsClosed(t *testing.T) {
	t.Setenv("HOME", "")
	for _, r := range []permission.Rule{
		permission.FilePath("~/.ssh/**", deny),
		permission.FilePath("$HOME/.ssh/**", deny),
		permission.BashCommand("rm -rf ~", deny),
	} {
		if _, err := permission.New(permission.Options{Rules: []permission.Rule{r}}); err == nil {
			t.Errorf("%s: New succeeded without a home", r.Description)
		}
	}
}

func TestComposeKeepsTheMostRestrictiveAndTheEarlierOnTies(t *testing.T) {
	t.Parallel()
	mk := func(id string, d permission.Decision) permission.Policy {
		return permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
			return permission.Verdict{Decision: d, RuleID: id}, nil
		})
	}
	tests := []struct {
		name string
		ps   []permission.Policy
		want permission.Verdict
	}{
		{"Empty", nil, permission.Verdict{Decision: allow}},
		{"One", []permission.Policy{mk("a", ask)}, permission.Verdict{Decision: ask, RuleID: "a"}},
		{"DenyWins", []permission.Policy{mk("a", allow), mk("b", deny), mk("c", ask)}, permission.Verdict{Decision: deny, RuleID: "b"}},
		{"AskBeatsAllow", []permission.Policy{mk("a", allow), mk("b", ask)}, permission.Verdict{Decision: ask, RuleID: "b"}},
		{"TieKeepsEarlierAllow", []permission.Policy{mk("a", allow), mk("b", allow)}, permission.Verdict{Decision: allow, RuleID: "a"}},
		{"TieKeepsEarlierDeny", []permission.Policy{mk("a", deny), mk("b", deny)}, permission.Verdict{Decision: deny, RuleID: "a"}},
		{"TieKeepsEarlierAsk", []permission.Policy{mk("x", allow), mk("a", ask), mk("b", ask)}, permission.Verdict{Decision: ask, RuleID: "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := check(t, permission.Compose(tt.ps...), bash("ls")); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestComposeFailsClosedOnErrorsAndMissingDecisions(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	failing := permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{}, boom
	})
	empty := permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{}, nil
	})
	if _, err := permission.Compose(permission.Default(), failing).Check(context.Background(), bash("ls")); !errors.Is(err, boom) {
		t.Errorf("error = %v, want boom", err)
	}
	if _, err := permission.Compose(empty).Check(context.Background(), bash("ls")); err == nil {
		t.Error("a policy without a decision was accepted")
	}
}

func TestCheckHonorsACancelledContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := permission.Default().Check(ctx, bash("ls")); !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
}

func TestDefaultPolicyAsksBeforeSideEffectsAndTrustsTheRest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want permission.Decision
	}{
		{"bash", ask},
		{"write_file", ask},
		{"edit_file", ask},
		{"delete_file", ask},
		{"hook", ask},
		{"mcp_connect", ask},
		{"mcp__github__create_issue", ask},
		{"mcp__x", ask},
		{"read_file", allow},
		{"glob", allow},
		{"grep", allow},
		{"list_dir", allow},
		{"TaskCreate", allow},
		{"context", allow},
		{"my_custom_tool", allow},
		{"mcp_other", allow},
	}
	for _, tt := range tests {
		if v := check(t, permission.Default(), call(tt.name, `{"command":"ls","path":"a"}`)); v.Decision != tt.want || (v.Decision == allow && v.Layer != "default") {
			t.Errorf("%s: %s (layer %q), want %s", tt.name, v.Decision, v.Layer, tt.want)
		}
	}
}

func TestBashCommandSpecifier(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec   string
		effect permission.Decision
		cmd    string
		match  bool
	}{
		{"git push:*", deny, "git push origin", true},
		{"git push:*", deny, "git pushx", true}, // a deny prefix is a string prefix
		{"rm -r:*", deny, "rm -rf /tmp/x", true},
		{"git push:*", allow, "git pushx", false}, // an allow prefix stops at a token boundary
		{"git push:*", deny, "git status && git push", true},
		{"ls:*", allow, "lsof", false},
		{"ls:*", allow, "ls -la", true},
		{"rm -rf", deny, "sudo rm -rf /", true},
		{"rm -rf", deny, "echo rm", false},
		{"go test ./...", allow, "go test ./...", true},
		{"go test ./...", allow, "go  test   ./...", true},
		{"go test ./...", allow, "go test ./... -run X", false}, // an allow without :* is exact
		{"go test ./...", allow, "rm -rf / go test ./...", false},
	}
	for _, tt := range tests {
		r := permission.BashCommand(tt.spec, tt.effect)
		if r.Description != "bash "+tt.spec {
			t.Errorf("description %q", r.Description)
		}
		other := ask
		if tt.effect == ask {
			other = deny
		}
		p := mustNew(t, permission.Options{Rules: []permission.Rule{r}, Default: other})
		v := check(t, p, bash(tt.cmd))
		if got := v.Decision == tt.effect; got != tt.match {
			t.Errorf("BashCommand(%q, %s) on %q: %+v, want match=%v", tt.spec, tt.effect, tt.cmd, v, tt.match)
		}
	}
}

func TestFilePathSpecifier(t *testing.T) {
	t.Parallel()
	r := permission.FilePath("private/**", deny)
	if r.Description != "path private/**" {
		t.Errorf("description %q", r.Description)
	}
	p := mustNew(t, permission.Options{Rules: []permission.Rule{r}, Workdir: "/w"})
	tests := []struct {
		c    permission.Call
		want permission.Decision
	}{
		{file("read_file", "private/secret"), deny},
		{file("write_file", "/w/private/secret"), deny},
		{file("edit_file", "public/../private/secret"), deny},
		{file("delete_file", "./private"), deny},
		{file("read_file", "public/x"), allow},
		{file("grep", "private/secret"), allow}, // not a file tool
		{bash("cat private/secret"), deny},
	}
	for _, tt := range tests {
		if v := check(t, p, tt.c); v.Decision != tt.want {
			t.Errorf("%s %s: %+v, want %s", tt.c.Name, tt.c.Input, v, tt.want)
		}
	}
}

func TestPolicyIsSafeForConcurrentUse(t *testing.T) {
	t.Parallel()
	p := mustNew(t, permission.Options{Rules: []permission.Rule{permission.BashCommand("rm:*", deny), permission.FilePath("s/**", deny)}, Workdir: "/w"})
	done := make(chan struct{})
	for range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 200 {
				if v := check(t, p, bash("ls && cat s/x")); v.Decision != deny {
					t.Errorf("got %s", v.Decision)
					return
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
}

func TestNegatedPathConditionsJudgeAllCanonicalSpellingsTogether(t *testing.T) {
	t.Parallel()
	onlySrc := permission.Rule{Tool: []string{"read_file"}, When: map[string]permission.Condition{"path": permission.Not(permission.Glob("src/**"))}, Effect: deny}
	onlySrcAbs := permission.Rule{Tool: []string{"read_file"}, When: map[string]permission.Condition{"path": permission.Not(permission.Glob("/w/src/**"))}, Effect: deny}
	allowOutsideSecret := permission.Rule{Tool: []string{"read_file"}, When: map[string]permission.Condition{"path": permission.Not(permission.Glob("secret/**"))}, Effect: allow}
	tests := []struct {
		name string
		rule permission.Rule
		def  permission.Decision
		path string
		want permission.Decision
	}{
		{"RelativeNegationRelativeInput", onlySrc, allow, "src/a.go", allow},
		{"RelativeNegationAbsoluteInput", onlySrc, allow, "/w/src/a.go", allow},
		{"RelativeNegationOutside", onlySrc, allow, "secret/k", deny},
		{"RelativeNegationTraversal", onlySrc, allow, "src/../secret/k", deny},
		{"RelativeNegationOutsideWorkspace", onlySrc, allow, "/etc/passwd", deny},
		{"AbsoluteNegationRelativeInput", onlySrcAbs, allow, "src/a.go", allow},
		{"AbsoluteNegationOutside", onlySrcAbs, allow, "b.go", deny},
		{"AllowNegationGrants", allowOutsideSecret, deny, "src/a", allow},
		{"AllowNegationRefuses", allowOutsideSecret, deny, "secret/x", deny},
		{"AllowNegationNotFooledByTraversal", allowOutsideSecret, deny, "src/../secret/x", deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustNew(t, permission.Options{Rules: []permission.Rule{tt.rule}, Default: tt.def, Workdir: "/w"})
			if v := check(t, p, file("read_file", tt.path)); v.Decision != tt.want {
				t.Errorf("%s: %+v, want %s", tt.path, v, tt.want)
			}
		})
	}
}

// TestAWholeLineAskCannotHideADenyOnALineWithoutACommand checks lines with
// no simple command (a bare redirection, an assignment, a comment): the
// rules decide the line as a whole, negated conditions included, so an ask
// rule that matches the whole line does not replace the deny a negated
// rule gives.
func TestAWholeLineAskCannotHideADenyOnALineWithoutACommand(t *testing.T) {
	t.Parallel()
	p := mustNew(t, permission.Options{Default: deny, Rules: []permission.Rule{
		{ID: "only-git", Tool: []string{"bash"}, When: map[string]permission.Condition{"command": permission.Not(permission.StartsWith("git"))}, Effect: deny},
		{ID: "ask-redirect", Tool: []string{"bash"}, When: map[string]permission.Condition{"command": permission.Contains(">")}, Effect: ask},
		{ID: "ask-assign", Tool: []string{"bash"}, When: map[string]permission.Condition{"command": permission.Contains("=")}, Effect: ask},
		permission.BashCommand("git status", allow),
	}})
	for _, cmd := range []string{"> ~/.bashrc", ">> notes.txt", "FOO=bar", "# hi"} {
		if v := check(t, p, bash(cmd)); v.Decision != deny || v.RuleID != "only-git" {
			t.Errorf("%q: %+v, want deny by only-git", cmd, v)
		}
	}
	if v := check(t, p, bash("git status")); v.Decision != allow {
		t.Errorf("git status: %+v, want allow", v)
	}
	if v := check(t, p, bash("git status > out.txt")); v.Decision != ask || v.RuleID != "ask-redirect" {
		t.Errorf("git status > out.txt: %+v, want ask by ask-redirect", v)
	}
}

// TestDirectoriesWithGlobCharactersStayLiteralInGlobs checks that a home or
// workdir holding glob syntax ('[', '(', '|', ...) goes into a glob rule as
// plain characters: the rule loads and matches the real path.
func TestDirectoriesWithGlobCharactersStayLiteralInGlobs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ workdir, home, glob, path string }{
		{"/tmp/Projects (old)/repo", "/home/u", "$PWD/secrets/**", "/tmp/Projects (old)/repo/secrets/a"},
		{"/tmp/p[1]", "/home/u", "$PWD/secret", "/tmp/p[1]/secret"},
		{"/srv/app", "/home/a|b", "~/.ssh/**", "/home/a|b/.ssh/id_ed25519"},
		{"/srv/app", "/home/{x,y}*", "${HOME}/.aws/**", "/home/{x,y}*/.aws/credentials"},
		{"/srv/x,~", "/home/u", "$PWD/a", "/srv/x,~/a"}, // a '~' in an expanded directory stays one
	} {
		p, err := permission.New(permission.Options{Workdir: tc.workdir, HomeDir: tc.home, Default: allow,
			Rules: []permission.Rule{permission.FilePath(tc.glob, deny)}})
		if err != nil {
			t.Errorf("%s in %s, home %s: %v", tc.glob, tc.workdir, tc.home, err)
			continue
		}
		if v := check(t, p, file("read_file", tc.path)); v.Decision != deny {
			t.Errorf("%s: read %s: %+v, want deny", tc.glob, tc.path, v)
		}
		// The escaped characters match only themselves.
		if v := check(t, p, file("read_file", strings.Replace(tc.path, "/secret", "/secreT", 1))); tc.glob == "$PWD/secret" && v.Decision != allow {
			t.Errorf("%s: another file: %+v, want allow", tc.glob, v)
		}
	}
}
