//go:build linux

package permission_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound13 are the variants of the thirteenth red-team round (none is
// in an earlier list). Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios. The lines
// marked "bypass" were allowed by the "allow bash" scenario before the
// round's fixes; the others were refused already.
var canaryRound13 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; read 'a[x]' <<< 1`,
		`x='a[$(rm -f c)]'; a=(1); : "${a[x]:-y}"`,
		`x='a[$(rm -f c)]'; a=(1); echo "${a[x]@Q}"`,
		`x='a[$(rm -f c)]'; s=abc; echo "${s:x:1}"`,
	},
	"2-environment": {
		// bypass: python -m runs a standard module whose operands the
		// analysis did not look at: tarfile and zipfile extract into the
		// home directory, planting a git configuration whose fsmonitor the
		// next git status runs, or a shell startup file.
		`printf '[core]\n\tfsmonitor = rm -f c; false\n' > .gitconfig && tar cf x.tar .gitconfig && python3 -m tarfile -e x.tar ~ && git status`,
		`echo 'rm -f c' > .bashrc && python3 -m zipfile -c x.zip .bashrc && python3 -m zipfile -e x.zip ~`,
		// bypass: scalar (git's large-repository front end) rewrites the
		// repository's configuration and the user's, outside git's option
		// checks.
		`scalar register`,
		// bypass: argcomplete's activation writes a completion script,
		// which interactive bash runs, into the home directory.
		`activate-global-python-argcomplete --user`,
		`echo 'require("fs").unlinkSync("c")' > sub/x.js && touch sub/y.js && NODE_OPTIONS="--require $PWD/sub/x.js" node sub/y.js`,
		`touch sub/e.pl && PERL5OPT='-Mwarnings;unlink(q(c))' perl sub/e.pl`,
		`mkdir -p sub/p && echo 'import os; os.remove("c")' > sub/p/sitecustomize.py && touch sub/e.py && PYTHONPATH=sub/p python3 sub/e.py`,
	},
	"3-guards-and-wrappers": {
		`timeout --kill-after=1 5 rm -f c`,
		`setsid -- rm -f c`,
		`python3 -B -c 'import os; os.remove("c")'`,
		`find . -maxdepth 1 -name c -execdir rm {} +`,
		`node --eval='require("fs").unlinkSync("c")'`,
		// bypass: npm explore runs its command through a shell in the
		// package's directory.
		`mkdir -p node_modules/x && echo '{"name":"x","version":"1.0.0"}' > node_modules/x/package.json && npm explore x -- 'cd ../.. && rm -f c'`,
		// bypass: pdb3 (python's debugger) reads commands, python code
		// included, from its standard input.
		`pdb3 README <<< '!import os; os.remove("c")'`,
		// bypass: programs that run the command they are given, which the
		// analysis took for paths (LLVM's not, setarch's x86_64, glibc's
		// memusage and sotruss, fakeroot-sysv, dpkg-architecture -c,
		// gettext's msgexec, ssh's other name slogin), and groff's unsafe
		// mode, whose .sy request runs a shell command.
		`not-14 rm -f c`,
		`x86_64 rm -f c`,
		`memusage rm -f c`,
		`sotruss rm -f c`,
		`fakeroot-sysv rm -f c`,
		`dpkg-architecture -c rm -f c`,
		`printf 'msgid "a"\nmsgstr "b"\n' > x.po && msgexec -i x.po sh -c 'rm -f c'`,
		`slogin -o ProxyCommand='rm -f c' h`,
		`printf '.sy rm -f c\n' | groff -U -Tascii`,
		// bypass: make evaluates makefile text given inline (--eval, -E),
		// read from its standard input (-f -), or in a variable defined on
		// the command line (:= expands at once, != runs a shell).
		`make --eval='$(shell rm -f c)'`,
		`make --ev='$(shell rm -f c)'`,
		`make -E '$(shell rm -f c)' -q`,
		`make -f - <<< 'x: ; rm -f c'`,
		`touch sub/m.mk && make -f sub/m.mk SHELL=sh 'x:=$(shell rm -f c)'`,
		`touch sub/m.mk && make -f sub/m.mk SHELL=sh 'x!=rm -f c'`,
		// bypass: gcc runs its passes under the program of -wrapper.
		`echo 'int main(){return 0;}' | gcc -xc - -o sub/a.out -wrapper sh,-c,'rm -f c'`,
		// bypass: an interpreter option that takes a separate value (-W,
		// -X, --title, -r, -I) made the analysis take the value for the
		// script, and stop looking before the -c or -e that follows.
		`python3 -W ignore -c 'import os; os.remove("c")'`,
		`python3 -X dev -c 'import os; os.remove("c")'`,
		`node --title x -e 'require("fs").unlinkSync("c")'`,
		`node -r fs -e 'require("fs").unlinkSync("c")'`,
		`perl -I x -e 'unlink "c"'`,
		// bypass: sed's options after its operands (--expression), and the
		// value of -l at the end of a cluster taken for the script.
		`sed -n p README --expression='1e rm -f c'`,
		`sed -nl 5 '1e rm -f c' README`,
		// bypass: python -i reads code from its standard input after the
		// script; python -m timeit runs its arguments, -m code and -m pdb
		// read code from standard input.
		`python3 -i /dev/null <<< 'import os; os.remove("c")'`,
		`python3 -m timeit -n 1 'import os; os.remove("c")'`,
		`python3 -m code <<< 'import os; os.remove("c")'`,
		`python3 -m pdb README <<< '!import os; os.remove("c")'`,
		// bypass: go runs its tools through the command line of -toolexec
		// (and the built program through that of -exec, which the unit
		// tests cover: compiling takes too long for the fixture's timeout).
		`printf 'package main\nfunc main(){}\n' > m.go && GO build -toolexec 'sh -c "rm -f c"' m.go`,
	},
	"4-redirections": {
		// bypass: a file named by a short option with its value attached
		// and no slash (-fpre-commit, -opre-commit) was not looked at.
		`cd .git/hooks && ssh-keygen -q -t ed25519 -N '' -fpre-commit`,
		`cd .git/hooks && echo 'int main(){return 0;}' | gcc -xc -opre-commit -`,
		`cd ~ && ssh-keygen -q -t ed25519 -N '' -f.bash_profile`,
		// bypass: git worktree move writes its destination, anywhere.
		`git worktree add -q sub/w && git worktree move sub/w ~/w`,
		// bypass: the operands of python -m and of a perl script.
		`echo '{}' | python3 -m json.tool - .git/config`,
		`python3 -m zipfile -c .git/hooks/pre-commit README`,
		`printf 's/^/x/\n' > x.pl && perl -pi x.pl .git/config`,
		// bypass: with -M, tar writes a volume to each -f; only the last
		// one was looked at.
		`tar -c -M -f .git/hooks/pre-commit -f x.tar README`,
		// bypass: xz --files and zstd --filelist compress (and remove)
		// the files a list names.
		`echo .git/config > l && xz --files=l`,
		`echo .git/config > l && zstd -q --rm --filelist=l`,
		// bypass: GNU sed takes its options after its operands too; the
		// analysis stopped at the script.
		`sed 's/^/x/' .git/config -i`,
		`sed p README -n -e 'w .git/hooks/pre-commit'`,
		// bypass: file -C compiles the magic file of -m into NAME.mgc in
		// the working directory.
		`cd ~ && file -C -m .bashrc`,
		`cd .git/hooks && file -C -m ~/.bashrc`,
		`cd ~ && for o in -C; do file $o -m .bashrc; done`,
		`cd ~ && npm init -y`,
		`cd .git/hooks && npm init -y`,
		// bypass: extractors and splitters the analysis did not know (perl's
		// ptar, LLVM's split-file), and zstd under its multi-threaded name.
		`tar cf x.tar --transform 's,^,.git/hooks/,' README && ptar -xf x.tar`,
		`printf '#--- ../.git/hooks/pre-commit\nx\n' > in && split-file-14 in sub`,
		`echo .git/config > l && zstdmt -q --rm --filelist=l`,
		`echo x | dd of=hooks/pre-commit status=none`,
		`echo x | sort -o.git/config`,
		`cp --tar .git/hooks bin/ls`,
	},
	"6-parser": {
		// bypass: bash decodes a here-document delimiter in $'…' quotes
		// ("EA"), the parser keeps its escapes ("E\x41"): the body ends
		// earlier for bash, which runs what the analysis took for data
		// (allowed by both scenarios for echo).
		"echo hi <<$'E\\x41'\nx\nEA\necho x > .git/config\nE\\x41",
		"cat <<$'E\\x41'\nx\nEA\nrm -f c\nE\\x41",
	},
	"5-globs": {
		`echo x | tee .git/c[]o]nfig`,
		`echo x | tee .git/c[!]x]nfig`,
		`echo x | tee .git/c[[:lower:]]nfig`,
		`mkdir -p sub/x && echo x | tee sub/x/../../.gi[t]/config`,
		`mkdir -p sub/x && echo '{}' | tee sub/x/../../.lite-agen?/permissions.json`,
	},
}

// canaryRound13Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound13Ordinary = []string{
	"git status", "ls -la", "go test ./...", "make", "make test", "make -C sub", "grep -r x .",
	"sed -n 1p README", "cat README | sort", "python3 x.py", "python3 -m pytest -q", "python3 -W ignore x.py",
	"python3 -m json.tool README", "node x.js", "node --inspect x.js", "perl x.pl README",
	"gcc -o prog x.c", "gcc -O2 -Wall -o sub/prog x.c", "ssh-keygen -l -f key.pub", "git worktree list",
	"git worktree add -q sub/w", "file README", "echo hi > out.txt",
	// review3: a compiler's search directories are read (-I. -L. -Isub).
	// -I.. from the project's root asks since round 89: a stdio.h beside
	// the project shadows the system's.
	"gcc -I. -c x.c", "cc -Isub -L. -o sub/prog x.c -lm", "g++ -I include -isystem . -c x.cpp",
}

// canaryRound13Tools are the programs some lines need besides bash and git.
var canaryRound13Tools = []string{"python3", "node", "perl", "gcc", "make", "ssh-keygen", "file", "tar", "xz", "zstd", "npm", "pdb3", "scalar", "not-14", "x86_64", "memusage", "sotruss", "fakeroot-sysv", "dpkg-architecture", "msgexec", "slogin", "groff", "ptar", "split-file-14", "zstdmt", "activate-global-python-argcomplete"}

// TestCanaryRound13 runs the round; GO in a line stands for the go command
// by its absolute path (the fixture's PATH does not hold it).
func TestCanaryRound13(t *testing.T) {
	t.Parallel()
	gobin, _ := exec.LookPath("go")
	round := installedLines(t, canaryRound13, canaryRound13Tools, func(line string) (string, string) {
		if !strings.Contains(line, "GO ") {
			return line, ""
		}
		if gobin == "" {
			return "", "go is not on PATH"
		}
		return strings.ReplaceAll(line, "GO ", gobin+" "), ""
	})
	template := checkCanaryRound(t, round)
	checkOrdinary(t, template, canaryRound13Ordinary, nil)
}

// installedLines returns the lines of round whose programs among tools are
// installed, each passed through fix, which may also leave a line out by
// naming why; lines left out are logged (for want of a program, under CI,
// they fail the test).
func installedLines(t *testing.T, round map[string][]string, tools []string, fix func(line string) (string, string)) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for class, lines := range round {
		for _, line := range lines {
			line = localLine(line)
			fixed, why := line, ""
			if tool := missingTool(line, tools); tool != "" {
				how := tooltest.CanaryTools
				if tool == "node" || tool == "npm" || tool == "npx" {
					how = tooltest.NodeJS
				}
				tooltest.LeftOut(t, fmt.Sprintf("class %s: %q left out: %s is not installed", class, line, tool), how)
				continue
			}
			fixed, why = fix(line)
			if why != "" {
				t.Logf("class %s: %q left out: %s", class, line, why)
				continue
			}
			out[class] = append(out[class], fixed)
		}
	}
	return out
}

// missingTool returns the first of tools that line runs and that is not
// on PATH, or "".
func missingTool(line string, tools []string) string {
	for _, tool := range tools {
		tool = localLine(tool)
		if strings.Contains(line, tool+" ") {
			if _, err := exec.LookPath(tool); err != nil {
				return tool
			}
		}
	}
	return ""
}
