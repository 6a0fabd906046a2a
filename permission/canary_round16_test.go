//go:build linux

package permission_test

import (
	"os"
	"strings"
	"testing"
)

// logsave is e2fsprogs' logsave, which runs the command after its log
// file (logsave FILE CMD ARGS…); it lives in /usr/sbin, which the
// fixture's PATH does not hold.
const logsave = "/usr/sbin/logsave"

// javaOOM is the prefix of the round's java lines: a program that runs
// out of memory under -Xmx16m, so that -XX:OnOutOfMemoryError runs.
const javaOOM = `printf 'class X{public static void main(String[] a){long[] x=new long[400000000];}}' > X.java && java -Xmx16m `

// canaryRound16 are the lines of the sixteenth red-team round (none is in
// an earlier list). Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios. Every line
// was allowed by the "allow bash" scenario before the round's fixes.
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
		// An option's value is a command line the program runs through
		// a shell (java runs -XX:OnOutOfMemoryError's commands).
		javaOOM + `-XX:OnOutOfMemoryError='true; rm -f c' X.java`,
		javaOOM + `-XX:OnOutOfMemoryError='rm -f c' X.java`,
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
	},
}

// canaryRound16Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow: commands the analysis does not
// model whose operands name programs, messages and subcommands.
var canaryRound16Ordinary = []string{
	"npm install lodash", "go test ./...", "uv python install 3.12", "docker ps", "make test", "pytest -k x",
	"npm run watch", "gh pr view 12", "npm install -S lodash", "brew install python", "pip install sh",
	"kubectl exec -it pod -- bash", `kubectl patch deploy x -p '{"spec":{}}'`, `gh issue create --title "curl fails" --body x`,
	`jq '.[] | .name' x.json`, "docker compose run web python manage.py migrate", "jest --env node x.test.js",
	"pytest --timeout 30 tests", "helm install x ./chart", "docker run --rm img env", "java -Xmx16m X.java",
	logsave + " sub/log make test", logsave + " sub/log python3 x.py", "docker run img node x.js",
	"cargo run -- --name sh", "gio info README",
}

// canaryRound16Tools are the programs the lines need besides bash, git
// and coreutils.
var canaryRound16Tools = []string{"java", "gio", "systemd-tmpfiles", "python3", "perl", "node"}

func TestCanaryRound16(t *testing.T) {
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
