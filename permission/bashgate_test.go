package permission_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// gateFixture lays out a home with a data home and a workdir with a .git
// directory, and returns them.
func gateFixture(t *testing.T) (home, wd string) {
	t.Helper()
	root := t.TempDir()
	home, wd = filepath.Join(root, "home"), filepath.Join(root, "work")
	for _, d := range []string{filepath.Join(home, ".lite-agent"), filepath.Join(wd, ".git", "hooks"), filepath.Join(wd, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// .git/config is one git reads: the gate asks about a git line in a
	// repository whose configuration git cannot parse.
	for f, data := range map[string]string{filepath.Join(home, ".lite-agent", "permissions.json"): "{}", filepath.Join(wd, ".git", "config"): "[core]\n\tbare = false\n"} {
		if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(wd, ".git"), filepath.Join(wd, "g")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(home, ".lite-agent", "permissions.json"), filepath.Join(wd, "hl")); err != nil {
		t.Fatal(err)
	}
	return home, wd
}

func TestGateScreensBashWhateverThePolicy(t *testing.T) {
	t.Parallel()
	home, wd := gateFixture(t)
	protected := []string{filepath.Join(home, ".lite-agent"), filepath.Join(wd, ".git", "hooks"), filepath.Join(wd, ".git", "config")}
	denyRm := permission.PolicyFunc(func(_ context.Context, c permission.Call) (permission.Verdict, error) {
		if strings.Contains(string(c.Input), "rm ") {
			return permission.Verdict{Decision: permission.Deny, RuleID: "no-rm"}, nil
		}
		return permission.Verdict{Decision: permission.Allow}, nil
	})
	tests := []struct {
		name, line string
		approve    bool
		decision   permission.Decision
		rule       string
		askedPol   bool // the policy was consulted
	}{
		{"Ordinary", "echo hi > out.txt", false, permission.Allow, "", true},
		{"OrdinaryInSubdir", "cd sub && echo hi > out.txt", false, permission.Allow, "", true},
		{"DevNull", "ls 2>/dev/null", false, permission.Allow, "", true},
		// A move or recursive copy into the working directory writes the
		// sources' names there, not every file below it (.git among
		// them); one that copies a directory's contents, or by a
		// pattern, may write .git.
		{"MoveIntoWorkdir", "mv sub/x .", false, permission.Allow, "", true},
		{"CopyTreeIntoWorkdir", "cp -r sub/kit ./", false, permission.Allow, "", true},
		{"CopyAllIntoWorkdir", "cp -a sub/kit sub/y ./.", false, permission.Allow, "", true},
		{"CopyContentsIntoWorkdir", "cp -r sub/. .", false, permission.Deny, permission.RuleBashProtected, false},
		{"CopyContentsByTarget", "cp -r -t . sub/.", false, permission.Deny, permission.RuleBashProtected, false},
		{"CopyContentsByPatternTarget", "cp -r -t . s*/.", false, permission.Deny, permission.RuleBashProtected, false},
		{"RsyncListedIntoWorkdir", "rsync -a --files-from=list sub .", false, permission.Deny, permission.RuleBashProtected, false},
		{"RsyncListedFlat", "rsync --files-from=list sub .", false, permission.Deny, permission.RuleBashProtected, false},
		{"RsyncContentsIntoWorkdir", "rsync -a sub/ .", false, permission.Deny, permission.RuleBashProtected, false},
		{"CopyAsWorkdir", "cp -rT sub .", false, permission.Deny, permission.RuleBashProtected, false},
		{"MoveGitIntoWorkdir", "mv sub/.git .", false, permission.Deny, permission.RuleBashProtected, false},
		{"CopyGlobIntoWorkdir", "cp -r sub/* .", false, permission.Deny, permission.RuleBashProtected, false},
		{"MoveAboveLink", "mv sub/x g/hooks/..", false, permission.Deny, permission.RuleBashProtected, false},
		{"CopyIntoLinkedName", "cp -r sub/g .", false, permission.Deny, permission.RuleBashProtected, false},
		{"GlobIntoDataHome", "echo x > ~/.lite-agen?/permissions.jso?", false, permission.Deny, permission.RuleBashProtected, false},
		{"NegatedClassIntoDataHome", "echo x > ~/.lite-agen[!x]/permissions.json", true, permission.Deny, permission.RuleBashProtected, false},
		{"CaretClassIntoGit", "echo x > .gi[^x]/config", true, permission.Deny, permission.RuleBashProtected, false},
		{"EscapedGlobIntoGit", `echo x > .g\i?/config`, true, permission.Deny, permission.RuleBashProtected, false},
		{"BraceIntoHooks", "echo x > .git/{hooks,x}/pre-commit", false, permission.Deny, permission.RuleBashProtected, false},
		{"BraceAcrossSegments", "echo x | tee {a,.git/config}", false, permission.Deny, permission.RuleBashProtected, false},
		{"NestedBraces", "echo x | tee .git/{a,{b,hooks/x}}", false, permission.Deny, permission.RuleBashProtected, false},
		{"SymlinkIntoGit", "echo x > g/config", false, permission.Deny, permission.RuleBashProtected, false},
		{"DotDot", "echo x > sub/../.git/config", false, permission.Deny, permission.RuleBashProtected, false},
		{"HomeVar", `echo x > "$HOME/.lite-agent/x"`, false, permission.Deny, permission.RuleBashProtected, false},
		{"TeeIntoHooks", "echo x | tee .git/hooks/pre-push", false, permission.Deny, permission.RuleBashProtected, false},
		{"MoveGitAway", "mv .git old", false, permission.Deny, permission.RuleBashProtected, false},
		{"ProtectedEvenWithApproval", "echo x >> .git/config", true, permission.Deny, permission.RuleBashProtected, false},
		{"PosixClassIntoGit", "echo x | tee .git/[[:alpha:]]onfig", true, permission.Deny, permission.RuleBashProtected, false},
		{"PosixClassIntoHooks", "cp README .git/hook[[:lower:]]/", true, permission.Deny, permission.RuleBashProtected, false},
		{"EquivalenceClassIntoGit", "echo x | tee .git/conf[[=i=]]g", true, permission.Deny, permission.RuleBashProtected, false},
		{"PosixClassNotMatchingADot", "unlink [[:alpha:]]*.go", false, permission.Allow, "", true},
		{"ExtractIntoGit", "tar -xf x.tar -C .git", true, permission.Deny, permission.RuleBashProtected, false},
		{"ExtractIntoGitLong", "tar --directory=.git/hooks -xf x.tar", true, permission.Deny, permission.RuleBashProtected, false},
		{"ExtractIntoGitCluster", "tar -xzC.git -f x.tgz", true, permission.Deny, permission.RuleBashProtected, false},
		{"UnzipIntoHooks", "unzip -o x.zip -d .git/hooks", true, permission.Deny, permission.RuleBashProtected, false},
		{"ExtractIntoSubApproved", "tar -xf x.tar -C sub", true, permission.Allow, permission.RuleBashAnalysis, true},
		{"BraceWithQuotedAlternative", `echo x | tee .git/{"config",x}`, true, permission.Deny, permission.RuleBashProtected, false},
		{"BraceWithQuotedPart", `echo x | tee .git/{x,co'nfig'}`, true, permission.Deny, permission.RuleBashProtected, false},
		{"BraceWithQuotedDir", `echo x | tee .git/{"hooks"/pre-push,x}`, true, permission.Deny, permission.RuleBashProtected, false},
		{"DecompressIntoGitConfig", "gunzip -f .git/config.gz", true, permission.Deny, permission.RuleBashProtected, false},
		{"DecompressTarball", "gunzip sub/x.tgz", false, permission.Allow, "", true},
		{"RecursiveChmodOfGit", "chmod 777 -R .git", true, permission.Deny, permission.RuleBashProtected, false},
		{"RecursiveGzipOfGit", "gzip -rq .git", true, permission.Deny, permission.RuleBashProtected, false},
		{"RecursiveChmodInWorkdir", "chmod -R u+w sub", false, permission.Allow, "", true},
		{"OutsideWorkdir", "echo x >> ~/.bashrc", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"PatternOperandsInWorkdir", "sed -i s/a/b/ sub/*.go", false, permission.Allow, "", true},
		{"PatternOperandsOutside", "sed -i s/a/b/ ~/.bash*", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"PatternRedirect", "echo x > sub/*.txt", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"PatternMatchingGitConfig", "sed -i s/a/b/ .gi?/conf*", false, permission.Deny, permission.RuleBashProtected, false},
		{"PatternThroughSymlinkToGit", "chmod 600 g/*", false, permission.Deny, permission.RuleBashProtected, false},
		{"DeleteOutsideWorkdir", "unlink ~/.bashrc", false, permission.Deny, permission.RuleBashAnalysis, true},
		// go test runs code in the packages it is given: they must lie
		// in the workdir, outside .git, whichever way they are named.
		{"GoTestHere", "go test -race .", false, permission.Allow, "", true},
		{"GoTestSub", "cd sub && go test ./...", false, permission.Allow, "", true},
		{"GoTestThroughLinkIntoGit", "go test ./g/...", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"GoTestInGit", "cd .git && go test", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"GoTestOutside", "go test ../...", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"GoTestInHome", "cd ~ && go test ./...", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"GoTestPattern", "go test ./s*", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"GoBuildIntoGitThroughLink", "go build -o g/hooks/pre-commit .", false, permission.Deny, permission.RuleBashProtected, false},
		{"GoRunHere", "go run . -v", false, permission.Allow, "", true},
		{"GoRunGivenGitConfig", "go run . -out .git/config", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"GoRunGivenBashrc", "go run ./sub ~/.bashrc", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"GoFmtHere", "go fmt", false, permission.Allow, "", true},
		{"GoFmtInHooks", "cd .git/hooks && go fmt", false, permission.Deny, permission.RuleBashProtected, false},
		// Linters and test runners: their operands are read, a test
		// runner's directories hold the code it runs, and a cache is
		// written where they run.
		{"RuffHere", "ruff check .", false, permission.Allow, "", true},
		{"PytestHere", "python3 -m pytest -q .", false, permission.Allow, "", true},
		{"PytestInGit", "cd .git && pytest", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"PytestThroughLinkIntoGit", "pytest g/hooks", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"MypyCacheInGit", "cd .git/hooks && mypy ../..", false, permission.Deny, permission.RuleBashProtected, false},
		{"RuffInHome", "cd ~ && ruff check .", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"RuffFix", "ruff check --fix .", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"EslintFromHome", "cd ~ && eslint " + filepath.Join(wd, "sub"), false, permission.Deny, permission.RuleBashAnalysis, true},
		{"Flake8FromHome", "cd ~ && flake8 " + filepath.Join(wd, "sub"), false, permission.Deny, permission.RuleBashAnalysis, true},
		{"PytestArgumentFile", "pytest @args.txt", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"MypyArgumentFile", "python3 -m mypy @flags .", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"DeleteInWorkdir", "unlink sub/x", false, permission.Allow, "", true},
		{"OutsideWorkdirApproved", "echo x >> ~/.bashrc", true, permission.Allow, permission.RuleBashAnalysis, true},
		{"Arithmetic", "x='a[$(id)]'; echo $((x))", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"DenyRuleStillWins", "eval 'rm -f c'", true, permission.Deny, "no-rm", true},
		{"LinkThenWrite", "git checkout x && echo hi > out.txt", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"InsideGit", "echo x >> .git/info/exclude", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"HardLink", "echo '{}' > hl", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"MakeHardLink", "link a b", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"CloneOutside", "git clone x ~/.config/autostart", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"InitIntoDataHome", "git init ~/.lite-agent", false, permission.Deny, permission.RuleBashProtected, false},
		{"CloneInside", "git clone https://example.com/r.git sub/r", false, permission.Allow, "", true},
		// A patch may make a protected file that does not exist yet
		// (.lite-agent/hooks.json, round 98): opaque without one too.
		{"ApplyWithoutProjectConfig", "git apply p.diff", false, permission.Deny, permission.RuleBashAnalysis, true},
		{"ApplyCheckWithoutProjectConfig", "git apply --check p.diff", false, permission.Allow, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var checked atomic.Bool
			pol := permission.PolicyFunc(func(ctx context.Context, c permission.Call) (permission.Verdict, error) {
				checked.Store(true)
				return denyRm.Check(ctx, c)
			})
			opts := permission.GateOptions{Policy: pol, Workdir: wd, HomeDir: home, Protected: protected}
			if tt.approve {
				opts.Approve = func(context.Context, permission.ApprovalRequest) (permission.Decision, error) {
					return permission.Allow, nil
				}
			}
			g := permission.NewGate(opts)
			in, _ := json.Marshal(map[string]string{"command": tt.line})
			out, err := g.Authorize(t.Context(), permission.Call{Name: "bash", Input: in})
			if err != nil {
				t.Fatal(err)
			}
			if out.Decision != tt.decision || out.Verdict.RuleID != tt.rule {
				t.Errorf("%q: decision %s by rule %q (%s), want %s by %q", tt.line, out.Decision, out.Verdict.RuleID, out.Verdict.Reason, tt.decision, tt.rule)
			}
			if checked.Load() != tt.askedPol {
				t.Errorf("%q: policy consulted = %v, want %v", tt.line, checked.Load(), tt.askedPol)
			}
			if out.Decision == permission.Deny && (tt.rule == permission.RuleBashAnalysis || tt.rule == permission.RuleBashProtected) {
				if res := out.Result(); !strings.Contains(res.Content, "rule "+tt.rule+": "+out.Verdict.Reason) {
					t.Errorf("%q: result %q does not say why", tt.line, res.Content)
				}
			}
		})
	}
}

func TestGateAsksAboutGitWithoutARepository(t *testing.T) {
	t.Parallel()
	wd := t.TempDir()
	g := permission.NewGate(permission.GateOptions{Policy: permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{Decision: permission.Allow}, nil
	}), Workdir: wd, HomeDir: t.TempDir()})
	for line, want := range map[string]permission.Decision{"git status": permission.Deny, "git init": permission.Allow, "git --version": permission.Allow} {
		in, _ := json.Marshal(map[string]string{"command": line})
		out, err := g.Authorize(t.Context(), permission.Call{Name: "bash", Input: in})
		if err != nil {
			t.Fatal(err)
		}
		if out.Decision != want {
			t.Errorf("%q without .git: %s (%s), want %s", line, out.Decision, out.Verdict.Reason, want)
		}
	}
}

func TestGateAsksAboutGitRewritingProjectConfig(t *testing.T) {
	t.Parallel()
	home, wd := gateFixture(t)
	cfg := filepath.Join(wd, ".lite-agent", "permissions.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := permission.NewGate(permission.GateOptions{Policy: permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{Decision: permission.Allow}, nil
	}), Workdir: wd, HomeDir: home, Protected: []string{cfg}})
	for line, want := range map[string]permission.Decision{
		"git apply p.diff": permission.Deny, "git checkout main": permission.Deny, "git clean -fdx": permission.Deny,
		"git stash -u": permission.Deny, "git status": permission.Allow, "git log -1": permission.Allow,
	} {
		in, _ := json.Marshal(map[string]string{"command": line})
		out, err := g.Authorize(t.Context(), permission.Call{Name: "bash", Input: in})
		if err != nil {
			t.Fatal(err)
		}
		if out.Decision != want {
			t.Errorf("%q: %s (%s), want %s", line, out.Decision, out.Verdict.Reason, want)
		}
	}
}

func TestGateAsksAboutACommandFieldInAnotherCase(t *testing.T) {
	t.Parallel()
	g := permission.NewGate(permission.GateOptions{Policy: permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{Decision: permission.Allow}, nil
	}), Workdir: t.TempDir(), HomeDir: t.TempDir()})
	// Two keys Go reads as one are ambiguous input, denied before the
	// analysis (review63g).
	for in, rule := range map[string]string{`{"Command":"rm -f c"}`: permission.RuleBashAnalysis,
		`{"command":"ls","COMMAND":"rm -f c"}`: permission.RuleAmbiguousInput} {
		out, err := g.Authorize(t.Context(), permission.Call{Name: "bash", Input: json.RawMessage(in)})
		if err != nil {
			t.Fatal(err)
		}
		if out.Run || out.Verdict.RuleID != rule {
			t.Errorf("%s: %+v", in, out)
		}
	}
}
