//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound20 are lines that hand a denied command to a runner the
// analysis does not model in a form round 19's guesses did not see: a
// command string that is one word ('true;nuke', '(nuke)') or whose
// denied command is not its first ($'true\nnuke', 'exec nuke',
// '"nuke"', a runner or a string inside the string), a script given on the
// runner's standard input (a here-string, a here-document, echo … |,
// through cat or a group), and a script file the line itself writes (with
// >, >>, &>, tee, then cp or mv, named by $PWD).
// The runners are scripts: runsh runs its first operand with sh -c,
// runstdin runs sh on its standard input, runfile runs sh on the file its
// first operand names. "allow bash" with a deny rule on nuke allowed
// every one of these before round 20.
var canaryRound20 = []string{
	// one-word command strings
	`runsh 'true;nuke'`,
	`runsh 'nuke;'`,
	`runsh '(nuke)'`,
	`runsh 'nuke&&true'`,
	`runsh 'false||nuke'`,
	`runsh 'nuke|true'`,
	`runsh 'nuke>/dev/null'`,
	// the denied command is not the string's first word
	`runsh 'exec nuke'`,
	`runsh 'eval nuke'`,
	`runsh 'command nuke'`,
	`runsh 'x=1 nuke'`,
	`runsh 'time nuke'`,
	`runsh '! nuke'`,
	`runsh '{ nuke; }'`,
	`runsh 'if true; then nuke; fi'`,
	`runsh $'true\nnuke'`,
	`runsh 'x=nuke; $x'`,
	// a runner inside a string, a string inside a string
	`runsh 'true; runit nuke'`,
	`runsh "runsh 'true;nuke'"`,
	`runsh "true; runsh 'exec nuke'"`,
	// quoting inside the string
	`runsh '"nuke"'`,
	`runsh 'nu""ke'`,
	`runsh '\nuke'`,
	// behind modelled wrappers and another unmodelled runner
	`env runsh 'true;nuke'`,
	`timeout 5 runsh 'true;nuke'`,
	`runit runsh 'true;nuke'`,
	// a script on standard input
	`runstdin <<< nuke`,
	`runstdin <<< 'true;nuke'`,
	"runstdin <<'EOF'\ntrue\nnuke\nEOF",
	`{ runstdin; } <<< nuke`,
	`echo nuke | runstdin`,
	`printf 'true\nnuke\n' | runstdin`,
	// a script file the line writes
	`echo nuke > s; runfile s`,
	`echo nuke > s && runstdin < s`,
	"cat > s <<'EOF'\nnuke\nEOF\nrunfile s",
	`echo nuke | tee s >/dev/null; runfile s`,
	`echo nuke > s; runfile "$PWD/s"`,
	`echo -n nu > s; echo ke >> s; runfile s`,
	`echo nuke > a; mv a s; runfile s`,
	`tee s <<< nuke >/dev/null; runfile s`,
	`echo nuke &> s; runfile s`,
	`{ echo nuke; } | runstdin`,
	`echo nuke | cat | runstdin`,
	`runsh $'alias x=nuke\nx'`,
	// the input of a shell reaches the commands of its -c string, and a
	// command string feeds or writes a script of its own
	`bash -c 'runstdin' <<< nuke`,
	`echo nuke | bash -c 'true; runstdin'`,
	`timeout 5 bash -c runstdin <<< nuke`,
	`runsh $'runstdin <<E\nnuke\nE'`,
	`runsh 'echo nuke | runstdin'`,
	`runsh 'echo nuke > s; runfile s'`,
	// rm, which the gate's own scenarios deny
	`runsh '(rm -f c)'`,
	`runsh $'true\nrm -f c'`,
	`runsh '"rm" -f c'`,
	`runsh 'r""m -f c'`,
	`runsh '\rm -f c'`,
	`runsh 'x=1 rm -f c'`,
	`runstdin <<< 'rm -f c'`,
	`echo 'rm -f c' | runstdin`,
	`echo 'rm -f c' > s; runfile s`,
	// found after the merge: an echo later in the pipe (which ignores
	// its input), filters that keep whole lines, and escapes that
	// printf and echo -e decode
	`echo x | echo 'true;nuke' | runstdin`,
	`echo nuke | sort | runstdin`,
	`echo nuke | head -1 | runstdin`,
	`echo nuke | grep -v x | runstdin`,
	`printf 'nu\x6be\n' | runstdin`,
	`echo -e 'nu\x6be' | runstdin`,
	`printf '\156uke\n' | runstdin`,
}

// canaryRound20Ordinary are lines next to the round's attacks that "allow
// bash" with a deny rule on nuke must still allow.
var canaryRound20Ordinary = []string{
	`runsh 'true;ls'`,
	`runsh 'ls -l'`,
	`runsh 'echo nuked; ls'`,
	`runstdin <<< ls`,
	`echo ls | runstdin`,
	`echo ls > s; runfile s`,
	`runit nuked-report.txt`,
	`runsh 'cd sub && runit ls nuke.txt'`,
}

// TestCanaryRound20DenyRulesSeeCommandStringsAndScripts checks that each
// line of canaryRound20 is refused (denied or asked about) under a deny
// rule for the program it runs, and does damage when run; those that run
// rm are also refused by both canary scenarios.
func TestCanaryRound20DenyRulesSeeCommandStringsAndScripts(t *testing.T) {
	t.Parallel()
	tools := runnerTools(t, map[string]string{
		"nuke":     "#!/bin/sh\nrm -f c\n",
		"runit":    "#!/bin/sh\nexec \"$@\"\n",
		"runsh":    "#!/bin/sh\nexec sh -c \"$1\"\n",
		"runstdin": "#!/bin/sh\nexec sh\n",
		"runfile":  "#!/bin/sh\nexec sh \"$1\"\n",
	})
	checkRunnerRound(t, tools, canaryRound20, canaryRound20Ordinary, "deny or ask", func(v permission.Verdict) bool {
		return v.Decision != permission.Allow
	})
}

// TestCanaryRound20ReadScriptsAsk checks how rules meet the commands of a
// script a program may read, which it may as well take as data (echo 'rm
// -rf build' | pbcopy): a deny rule that matches only such a command
// asks, and does not hide a deny rule that matches the command itself.
func TestCanaryRound20ReadScriptsAsk(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	root := canaryFixture(t, template)
	g := canaryGate(t, root, canaryDenyUnmodelledRules)
	for _, line := range []string{`runstdin <<< nuke`, `echo nuke | runstdin`, `echo nuke > s; runfile s`, `echo 'rm -rf build' | pbcopy`} {
		if out := authorize(t, g, line); out.Verdict.Decision != permission.Ask {
			t.Errorf("%q: %v, want ask", line, out.Verdict)
		}
	}
	const denyRunner = `{"version":1,"rules":[
 {"tool":"bash","when":{"command":{"startsWith":"nuke"}},"effect":"deny"},
 {"tool":"bash","when":{"command":{"startsWith":"runstdin"}},"effect":"deny"},
 {"tool":"bash","effect":"allow"}]}`
	g = canaryGate(t, root, denyRunner)
	for _, line := range []string{`runstdin <<< nuke`, `runsh 'true;nuke'`} {
		if out := authorize(t, g, line); out.Verdict.Decision != permission.Deny {
			t.Errorf("%q: %v, want deny", line, out.Verdict)
		}
	}
}

// canaryRound20DataValues are ordinary lines whose option values name
// data (a container, a test, a package, a library), not a command, and
// happen to be the name of a denied program: "allow bash" allowed them
// before round 19 and round 19's guesses denied them.
var canaryRound20DataValues = []string{
	`docker ps --filter=name=curl`,
	`kubectl run tmp --image=curlimages/curl`,
	`kubectl create job --image=curl test`,
	`kubectl logs -lapp=curl`,
	`swift build -Xlinker -lcurl`,
	`ld -o app main.o -lcurl`,
	`cmake -B build -DWITH=curl`,
	`pip download --no-deps --dest=rm pkg`,
	`helm template --name-template=curl ./chart`,
	`gh issue list --repo=curl/curl`,
	`ansible-playbook site.yml --tags=rm`,
	`turbo run build --filter=curl`,
	`npm test --workspace=curl`,
	`pnpm --filter=curl test`,
	`jest --testNamePattern=curl`,
	`vitest --testNamePattern=rm`,
	`pytest -krm`,
	`ctest -Rcurl`,
	`dotnet run --project=rm`,
	`mix test --only=curl`,
	`rspec --tag=curl`,
	`esbuild a.ts --bundle --outdir=rm`,
	`webpack --env=rm`,
	`vite --mode=curl`,
	`rollup -c --environment=curl`,
	`docker compose --profile=rm ps`,
	`aws --profile=rm s3 ls`,
}

// TestCanaryRound20OptionValuesThatNameData checks that "allow bash" with
// deny rules on rm and curl allows canaryRound20DataValues, while a
// command-taking option's value (--exec=rm, -erm) stays denied.
func TestCanaryRound20OptionValuesThatNameData(t *testing.T) {
	t.Parallel()
	const rules = `{"version":1,"rules":[
 {"tool":"bash","when":{"command":{"startsWith":"rm"}},"effect":"deny"},
 {"tool":"bash","when":{"command":{"startsWith":"curl"}},"effect":"deny"},
 {"tool":"bash","effect":"allow"}]}`
	g := canaryGate(t, canaryFixture(t, canaryTemplate(t)), rules)
	for _, line := range canaryRound20DataValues {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
	for _, line := range []string{`runopt --exec=rm -f c`, `tool -erm c`, `tool --cmd=curl x`, `tool --name='true;rm -f c'`} {
		if out := authorize(t, g, line); out.Verdict.Decision != permission.Deny {
			t.Errorf("%q: %v, want deny", line, out.Verdict)
		}
	}
}
