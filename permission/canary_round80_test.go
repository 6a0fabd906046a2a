//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound80Cd is review66c's attack on the fix of cd -P (round 79):
// a shell started with -P (alone or among other letters, as -Pc or -eP)
// or -o physical runs every cd of its -c script as cd -P, so cd link2/..
// (link2 → the home's .config) is the home. The gate judged the script's
// cd link2/.. as the workdir: each line wrote the fake home's .bashrc in
// real bash under bwrap and was allowed by "allow bash".
var canaryRound80Cd = map[string][]string{
	"1-shell-physical": {
		`bash -P -c 'cd link2/.. && echo x >> .bashrc'`,
		`bash -Pc 'cd link2/.. && echo x >> .bashrc'`,
		`bash -eP -c 'cd link2/.. && echo x >> .bashrc'`,
		`bash -o physical -c 'cd link2/.. && echo x >> .bashrc'`,
		`bash +o posix -o physical -c 'cd link2/.. && echo x >> .bashrc'`,
		`bash -P -c 'cd link2 && cd .. && echo x >> .bashrc'`,
	},
	// Spellings that were already refused, kept so that they stay so.
	"2-set-physical": {
		`set -P; cd link2/.. && echo x >> .bashrc`,
		`set -o physical; cd link2/.. && echo x >> .bashrc`,
		`shopt -so physical; cd link2/.. && echo x >> .bashrc`,
		`env SHELLOPTS=physical bash -c 'cd link2/.. && echo x >> .bashrc'`,
		`bash -c 'set -P; cd link2/.. && echo x >> .bashrc'`,
		`cd -P link2 && cd .. && echo x >> .bashrc`,
		`cd link2 && cd -P . && cd .. && echo x >> .bashrc`,
	},
}

func TestCanaryRound80Cd(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound80Cd)
	checkOrdinary(t, template, []string{`bash -c 'cd sub && echo hi > out.txt'`, `bash -e -c 'cd sub/.. && ls'`,
		`bash -P -c 'cd sub && echo hi > out.txt'`, `bash -o pipefail -c 'cd sub/.. && ls'`}, nil)
}

// canaryRound80Ctags is review66c's attack on the fix of ctags' option
// files (round 79): --options-maybe=FILE reads FILE as --options does
// (when it exists), and the gate only read the files --options named.
// Real universal ctags 5.9 created the fake home's .profile with each
// line (proj.ctags says -o../home/.profile), which "allow bash" allowed.
var canaryRound80Ctags = map[string][]string{
	"3-ctags-options-maybe": {
		`ctags --options-maybe=proj.ctags README`,
		`ctags --options-maybe=./proj.ctags -R sub`,
		`ctags --options-maybe=optdir README`,
	},
}

func TestCanaryRound80Ctags(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "ctags")
	template := canaryTemplate(t)
	for name, body := range map[string]string{
		"work/proj.ctags":          "-o../home/.profile\n",
		"work/optdir/x.ctags":      "-o../home/.profile\n",
		"work/sub/.ctags.d/.keep":  "",
		"work/sane/.ctags.d/.keep": "",
	} {
		p := filepath.Join(template, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkCanaryRoundIn(t, template, canaryRound80Ctags)

	// An option file that only chooses what is tagged stays allowed, as
	// does a missing one.
	ordinary := canaryTemplate(t)
	if err := os.WriteFile(filepath.Join(ordinary, "work", "tags.ctags"), []byte("--exclude=node_modules\n-R\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOrdinary(t, ordinary, []string{`ctags --options-maybe=tags.ctags README`, `ctags --options-maybe=none.ctags README`}, nil)
}

// canaryRound80BunEval is review66c's attack on bun's inline code: the
// gate knew bun -e CODE only as the first word, so bun's options before it
// (--bun, --hot, --smol, -i, --cwd sub), -p and --print (which evaluate
// as -e does), -eCODE and --eval=CODE ran code it never saw. Real bun
// 1.4.5 removed the canary with each line, which "allow bash" allowed.
var canaryRound80BunEval = map[string][]string{
	"5-bun-inline-after-options": {
		`bun --bun -e 'require("fs").rmSync("c")'`,
		`bun --hot -e 'require("fs").rmSync("c")'`,
		`bun -i -e 'require("fs").rmSync("c")'`,
		`bun --cwd=sub -e 'require("fs").rmSync("../c")'`,
		`bun -p 'require("fs").rmSync("c")'`,
		`bun --print 'require("fs").rmSync("c")'`,
		`bun --silent --eval 'require("fs").rmSync("c")'`,
		`bun -e'require("fs").rmSync("c")'`,
		`bun --eval='require("fs").rmSync("c")'`,
	},
}

func TestCanaryRound80BunEval(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "bun")
	template := packageTemplate(t, "bun")
	checkCanaryRoundIn(t, template, canaryRound80BunEval)
	checkOrdinary(t, template, []string{`bun install -p`, `bun install --production`, `bun run build`, `bun test`,
		`bun --bun run build`, `bun run test -- -p`}, nil)
}

// canaryRound80Printer is review66c's attack on a2ps and enscript beside
// their settings files (round 79): the printer named by -P or --printer
// (enscript's -d and --printer-options too) goes into the spooler's
// command, which runs through the shell, so a name starting with '|'
// pipes the output to a command of the line's choosing. Real a2ps 4.14
// and enscript 1.6.5 removed the canary with each line, which "allow
// bash" allowed (x;rm and $(rm …) in the name were already refused).
var canaryRound80Printer = map[string][]string{
	"6-printer-command": {
		`a2ps -q --printer='|rm -f c' README`,
		`a2ps -q -P '|rm -f c' README`,
		`a2ps -q -qP'|rm -f c' README`,
		`a2ps -q --printe='|rm -f c' README`,
		`enscript -q --printer='|rm -f c' README`,
		`enscript -q -d'|rm -f c' README`,
		`enscript -q -Z -P'|rm -f c' README`,
		`enscript -q --printer-options='|rm -f c' README`,
	},
}

func TestCanaryRound80Printer(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "a2ps", "file", "enscript")
	template := checkCanaryRound(t, canaryRound80Printer)
	checkOrdinary(t, template, []string{`a2ps -q README -o out.ps`, `a2ps -2 -q -o o.ps README`,
		`enscript -q -p out.ps README`, `enscript -2r -q -p out.ps README`}, nil)
}

// canaryRound80A2psNames is review66c's attack on a2ps's delegations: a2ps
// hands a compressed file to gzip -cd '$f' and a roff file to eval
// `grog -Tps '$f'`, shell commands that hold the file's name, so a
// project's file named x';rm -f c;'.gz or m;rm -f c;x.1 runs rm. Real a2ps
// 4.14 removed the canary with each line; "allow bash" allowed the two
// .gz lines (the roff names, globs and names the line wrote were already
// refused, and stay so).
var canaryRound80A2psNames = map[string][]string{
	"7-a2ps-delegated-names": {
		`a2ps -q -o o.ps "x';rm -f c;'.gz"`,
		`a2ps -q -o o.ps README "x';rm -f c;'.gz"`,
		`a2ps -q -o o.ps 'm;rm -f c;x.1'`,
		`a2ps -q -o o.ps -- 'n $(rm -f c) x.1'`,
	},
}

func TestCanaryRound80A2psNames(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "a2ps", "file", "gzip", "groff")
	template := canaryTemplate(t)
	wd := filepath.Join(template, "work")
	roff := ".TH X 1\n.SH NAME\nx \\- y\n"
	for _, name := range []string{"m;rm -f c;x.1", "n $(rm -f c) x.1", "my notes.1"} {
		if err := os.WriteFile(filepath.Join(wd, name), []byte(roff), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("sh", "-c", `printf 'hello\n' | gzip > "$1"; printf 'hello\n' | gzip > notes.gz`, "sh", "x';rm -f c;'.gz")
	cmd.Dir = wd
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gzip: %v: %s", err, out)
	}
	checkCanaryRoundIn(t, template, canaryRound80A2psNames)
	checkOrdinary(t, template, []string{`a2ps -q -o o.ps README`, `a2ps -q -o o.ps notes.gz`, `a2ps -q -o o.ps "my notes.1"`,
		`a2ps -q -o o.ps sub/.keep`}, nil)
}
