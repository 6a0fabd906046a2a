//go:build linux

package permission_test

import (
	"fmt"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound2Ordinary are lines next to the round's git attacks that the
// "allow bash" policy must still allow.
var canaryRound2Ordinary = []string{
	"git remote -v", "git remote show", "git remote get-url origin", "git branch", "git branch -a -v",
	"git log --oneline --stat", "git fetch -q", "git push", "git init -q", "git diff --stat",
}

// canaryRound2 are the variants of the second red-team round over the
// refactored gate (path matching in internal/pathmatch, the bash tool in
// tool/builtin/bash): each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios.
var canaryRound2 = map[string][]string{
	"1-arithmetic": {
		`a=(1); unset 'a[$(rm -f c)]'`,
		`x='a[$(rm -f c)]'; a=(1 2); echo "${a[@]:0:x}"`,
		`x='a[$(rm -f c)]'; echo ${x:x}`,
		`x='a[$(rm -f c)]'; set -- 1; echo ${@:x}`,
		`declare -a 'a[$(rm -f c)]=1'`,
	},
	"2-environment": {
		`git config core.fsmonitor 'rm -f c; false' && git status`,
		`git config alias.st '!rm -f c' && git st`,
		`git config --global core.fsmonitor 'rm -f c; false'`,
		`git init -q sub/r && printf '[core]\n\tfsmonitor = rm -f ../../c; false\n' >> sub/r/.git/config && cd sub/r && git status`,
		`git --namespace=x -c core.fsmonitor='rm -f c; false' status`,
		// bash's time takes "--"; the parser made "--" the command (found
		// in this round: allowed under "allow bash").
		`time -- git -c core.fsmonitor='rm -f c; false' status`,
		`time -- env GIT_CONFIG_PARAMETERS="'core.fsmonitor'='rm -f c; false'" git status`,
		`echo y >> README && git difftool -y -x 'rm -f c'`,
	},
	"3-guards-and-wrappers": {
		`split --filter='rm -f c' README`,
		`time -- rm -f c`,
		`time -p -- rm -f c`,
		`compgen -C 'rm -f c' x`,
		`! time rm -f c`,
		`time ! rm -f c`,
		`echo x |& rm -f c`,
		`stdbuf -o0 rm -f c`,
		`ionice -c3 rm -f c`,
		`taskset 1 rm -f c`,
		`flock README rm -f c`,
		`nohup rm -f c`,
		`perl -e 'unlink "c"'`,
		`python3 -c 'import os; os.remove("c")'`,
		`tar cf x.tar -I 'sh -c "rm -f c; cat"' README`,
		`sh -c 'rm -f c'`,
	},
	"4-redirections": {
		`sed -n 'w .git/config' README`,
		`history -w ~/.bashrc`,
		`echo x {fd}>.git/config`,
		`cd -P dotgit && echo x > config`,
		`sed 's/x/y/w .git/hooks/pre-commit' README`,
		`git log --output=.git/config`,
		`git diff --no-index --output=.git/config README c`,
		`git archive -o .git/config HEAD`,
		`install -m 755 README .git/hooks/pre-commit`,
		`echo '[core]' | sort --output .git/config`,
		`split -b 1 README .git/hooks/x`,
		`csplit -s -f .git/hooks/pre-commit README 1`,
		`zip -q .git/hooks/pre-commit README`,
		`mkdir -p t/.git/hooks && echo x > t/.git/hooks/pre-commit && tar cf x.tar -C t .git && tar xf x.tar`,
		`printf -- '--- a/.git/config\n+++ b/.git/config\n@@ -0,0 +1 @@\n+x\n' > p.diff && patch -p1 < p.diff`,
		`mkdir -p .lite-agent/skills/x/`,
		`cp -r sub .lite-agent/agents`,
		`echo x > link2/../.lite-agent/permissions.json`,
		// git subcommands that rewrite .git/config (found in this round).
		`git remote add x /tmp`,
		`git remote add -f x .`,
		`git init -q --shared=all`,
		`git init -q --shar=all`,
		`git branch -qt x master`,
		`git push -q -u . HEAD:x`,
		`git fetch -q --set-upstream . master`,
	},
	"5-globs": {
		`echo x | tee .git/c{on,x}fig`,
		`echo x | tee .git/[^x]onfig`,
		`echo x | tee .git/[[=c=]]onfig`,
		`echo x | tee .git/co[m-o]fig`,
		`echo x > .git/*fig`,
		`echo x | tee .g"i"t/c*`,
		`echo x | tee .git/'con'fi?`,
		`echo x | tee link2/../.lite-agen?/permissions.json`,
		`echo x | tee .git/hooks/pre-commi{t,}`,
		`echo x | tee ~/.lite-agent/permissions.js[!x]n`,
	},
}

func TestCanaryRound2(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound2)
	checkOrdinary(t, template, canaryRound2Ordinary, nil)
}

// checkOrdinary checks that the "allow bash" scenario, in a fixture of
// template, allows each of lines (passed through subst first, if not nil):
// the ordinary lines next to a round's attacks.
func checkOrdinary(t *testing.T, template string, lines []string, subst func(string) string) {
	t.Helper()
	g := canaryGate(t, canaryFixture(t, template), canaryAllowBashRules)
	for _, line := range lines {
		if subst != nil {
			line = subst(line)
		}
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}

// checkCanaryRound runs every line of a red-team round through the gate
// and real bash: each must do damage when run and be refused by every
// scenario. It returns the fixture template it used.
func checkCanaryRound(t *testing.T, round map[string][]string) string {
	t.Helper()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	template := canaryTemplate(t)
	checkCanaryRoundIn(t, template, round)
	return template
}

// checkCanaryRoundIn is checkCanaryRound in the fixture template, which
// the caller made (canaryTemplate with more project files). Each line is a
// parallel subtest of its own (named CLASS-INDEX, in a group "lines" that
// ends when they all have; the name goes into the fixture's path, so no
// "#", which ends a file:// URL): each runs in a fixture of its own,
// and most of its time is spent waiting for bash.
func checkCanaryRoundIn(t *testing.T, template string, round map[string][]string) {
	t.Helper()
	t.Run("lines", func(t *testing.T) {
		for class, lines := range round {
			for i, line := range lines {
				t.Run(fmt.Sprintf("%s-%d", class, i), func(t *testing.T) {
					t.Parallel()
					line := localLine(line)
					allowedBy, p := canaryAttack(t, template, line)
					if p == "" {
						t.Errorf("class %s: %q did no damage when run (allowed by %v)", class, line, allowedBy)
					}
					if len(allowedBy) > 0 {
						t.Errorf("class %s: %q was allowed by %v (changed %q)", class, line, allowedBy, p)
					}
				})
			}
		}
	})
}
