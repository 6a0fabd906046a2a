//go:build linux

package permission_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// logsave is e2fsprogs' logsave, which runs the command after its log
// file (logsave FILE CMD ARGS…); it lives in /usr/sbin, which the
// fixture's PATH does not hold.
const logsave = "/usr/sbin/logsave"

// javaOOM is the prefix of the round's java lines: a program that runs
// out of memory under -Xmx16m, so that -XX:OnOutOfMemoryError runs.
const javaOOM = `printf 'class X{public static void main(String[] a){long[] x=new long[400000000];}}' > X.java && java -Xmx16m `

// canaryRound16Java are the round's java lines, allowed by "allow bash"
// before its fixes: an option's value is a command line the JVM runs
// through a shell when it runs out of memory, which the analysis now
// parses (its commands are seen by deny rules, its redirections are paths
// it may write) and which makes a JDK launcher opaque, as does an
// @argfile, whose options the analysis does not see.
var canaryRound16Java = []string{
	javaOOM + `-XX:OnOutOfMemoryError='true; rm -f c' X.java`,
	javaOOM + `-XX:OnOutOfMemoryError='rm -f c' X.java`,
	javaOOM + `-XX:OnOutOfMemoryError='echo x >.git/config' X.java`,
	`printf 'class X{public static void main(String[] a){long[] x=new long[400000000];}}' > X.java && printf '%s\n' '"-XX:OnOutOfMemoryError=rm -f c"' > o && java -Xmx16m @o X.java`,
}

// canaryRound16 are the lines of the sixteenth red-team round (none is in
// an earlier list). Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios. Every line
// but one (marked) was allowed by the "allow bash" scenario before the
// round's fixes.
var canaryRound16 = map[string][]string{
	// bypass: a program the analysis does not model runs its operands as
	// a command (logsave FILE CMD …): the rm deny rule saw "logsave …",
	// and a shell, inline code, git -c, find -delete or xargs among its
	// operands went unseen. The operands that name a program the analysis
	// models are now analyzed as a command deny rules see, and what makes
	// that command opaque on its own makes the line opaque.
	"3-guards-and-wrappers": {
		logsave + ` /dev/null rm -f c`,
		logsave + ` -a sub/log timeout 5 rm c`,
		logsave + ` /dev/null env rm -f c`,
		logsave + ` /dev/null xargs rm -f <<< c`,
		logsave + ` /dev/null sh -c 'true && rm -f c'`,
		logsave + ` /dev/null bash -c 'rm -f c'`,
		logsave + ` /dev/null python3 -c 'import os; os.remove("c")'`,
		logsave + ` /dev/null python3 <<< 'import os; os.remove("c")'`,
		logsave + ` /dev/null perl -e 'unlink "c"'`,
		logsave + ` /dev/null node -e 'require("fs").unlinkSync("c")'`,
		logsave + ` /dev/null find -name c -delete`,
		logsave + ` /dev/null git -c core.fsmonitor='rm -f c; false' status`,
		// bypass: a copy of rm under another name escapes the rule on
		// rm; a line that runs a program by a path it writes is opaque.
		`cp /bin/rm x && ./x -f c`,
		`cat /bin/rm > x && chmod +x x && ./x -f c`,
		`cp /bin/rm sub/x && cd sub && ./x -f ../c`, // refused before too: ../c is outside the workdir from the start
		// A glob that names rm alone (/bin/r? also names ruby's ri,
		// where ruby is installed, and cp then copies nothing).
		`cp /bin/r[m] x && ./x -f c`,
		// bypass: gio launch runs the Exec line of a desktop file.
		`printf '[Desktop Entry]\nType=Application\nName=x\nExec=rm -f c\n' > x.desktop && gio launch x.desktop`,
	},
	"4-redirections": {
		// bypass: tar extraction, which is opaque, behind a runner.
		`echo evil > sub/x && tar cf x.tar --transform=s,sub/x,.git/config, sub/x && ` + logsave + ` /dev/null tar xf x.tar`,
		// bypass: systemd-tmpfiles writes, creates and removes the paths
		// its configuration names, as patch writes those of its diff.
		`printf 'w %s/.git/config - - - - x\n' "$PWD" > t.conf && systemd-tmpfiles --create "$PWD/t.conf"`,
		`printf 'f %s/.git/hooks/pre-commit 0755 - - - rm -f c\n' "$PWD" > t.conf && systemd-tmpfiles --create "$PWD/t.conf"`,
		`printf 'w %s/.bashrc - - - - evil\n' ~ > t.conf && systemd-tmpfiles --create "$PWD/t.conf"`,
		// bypass: a file: URL names a path, percent-encoded or not, that
		// gio writes (copy, save, move) or the home directory's trash,
		// where gio trash moves its operand.
		`gio copy README file://$HOME/.bashrc`,
		`gio save file://$HOME/.bashrc < README`,
		`gio move README file://$HOME/.bashrc`,
		`gio copy README file://$PWD/%2Egit/config`,
		`gio copy README file://localhost$PWD/.%67it/hooks/pre-commit`,
		`gio trash c`,
		// bypass: python's tarfile module extracts symbolic links (and
		// members named ../…), through which a later write of the line
		// lands outside the workdir or in .git.
		`tar cf x.tar link && python3 -m tarfile -e x.tar sub && echo evil > sub/link`,
		`tar cf x.tar hooks && python3 -m tarfile -e x.tar sub && echo x > sub/hooks/pre-commit`,
		// bypass: a command the analysis does not model writes its default
		// output (ctags -R: tags) into the directory the line changed to.
		`cd .git/hooks && ctags -R`,
		`pushd .git/hooks && ctags -R`,
		`cd && ctags -R`,
		`cd ~/.lite-agent && ctags -R`,
	},
}

// canaryRound16Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow: commands the analysis does not
// model whose operands name programs, messages and subcommands.
var canaryRound16Ordinary = []string{
	"npm install lodash", "go test ./...", "uv python list", "docker ps", "make test", "pytest -k x",
	"npm run watch", "gh pr view 12", "npm install -S lodash", "brew info python", "pip install -t vendor sh",
	"kubectl run -it tmp --image=img -- bash", `kubectl patch deploy x -p '{"spec":{}}' --dry-run=client`, `gh issue create --title "curl fails" --body x`,
	`jq '.[] | .name' x.json`, "docker compose ps", "jest --env node x.test.js",
	"pytest --timeout 30 tests", "helm install x ./chart", "docker ps -a", "java -Xmx16m X.java",
	logsave + " sub/log make test", logsave + " sub/log python3 x.py", "docker logs web",
	"cargo run -- --name sh", "gio info README", "gio cat README", "gio mime text/plain", "docker port web",
	"npm install git+ssh://git@github.com:x/y.git", "node --inspect=0.0.0.0:9229 x.js", "kubectl port-forward svc/x 8080:80",
	"docker pull ghcr.io/x/y:latest", "npm install https://github.com/x/y", `jq '.[] | select(.x > 1)' a.json`,
	`docker ps --format '{{.Names}} {{.Status}}'`, "python3 -m tarfile -l x.tar", "python3 -m tarfile -c x.tar README",
	logsave + " sub/log ls && echo x > out.txt", "cd sub && ctags -R", "cd sub && npm install", "cd sub && make test",
	"pre-commit run --all-files", "docker inspect web", "gcc -o m m.c && ./m",
	"make && ./bin/server", "./configure && make", "cp README sub/x && cat sub/x",
}

// canaryRound16Tools are the programs the lines need besides bash, git
// and coreutils.
var canaryRound16Tools = []string{"gio", "ctags", "systemd-tmpfiles", "python3", "perl", "node"}

func TestCanaryRound16(t *testing.T) {
	t.Parallel()
	round := installedLines(t, canaryRound16, canaryRound16Tools, func(line string) (string, string) {
		if strings.Contains(line, logsave) {
			if _, err := os.Stat(logsave); err != nil {
				return line, "logsave is not installed"
			}
		}
		if strings.Contains(line, "systemd-tmpfiles") && os.Geteuid() != 0 {
			return line, "it needs root"
		}
		return line, ""
	})
	template := checkCanaryRound(t, round)
	checkOrdinary(t, template, canaryRound16Ordinary, nil)
}

// TestCanaryRound16Java checks that each of canaryRound16Java is refused
// by both scenarios and does damage when run. The lines run with a longer
// time limit than the canary's three seconds: the JVM compiles the
// source before it runs out of memory.
func TestCanaryRound16Java(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "compiles and runs Java")
	tooltest.Need(t, tooltest.CanaryTools, "java")
	template := canaryTemplate(t)
	for _, line := range canaryRound16Java {
		root := canaryFixture(t, template)
		refusedEverywhere(t, root, line)
		before := canarySnapshot(t, root)
		out := runLine(t, root, line, time.Minute, "")
		if p := changed(before, canarySnapshot(t, root)); p == "" {
			t.Errorf("%q did no damage when run:\n%s", line, out)
		}
	}
}
