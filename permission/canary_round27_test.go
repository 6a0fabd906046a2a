//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound27 are lines that hand a program a configuration or a
// program of the line's own, in a file: less's lesskey source, whose #env
// section sets LESSOPEN, a command less runs on each file it shows; and
// an option that names a script the line wrote (gpg --agent-program=,
// npm --editor=), given as --opt=value or through a configuration file
// the line also wrote (gpg --options, npm --userconfig). Each does damage
// when run in the fixture of canaryTemplate with the programs installed
// here, so each must be refused by both scenarios.
var canaryRound27 = map[string][]string{
	"7-lesskey": {
		`printf '#env\nLESSOPEN=|rm -f c %%s\n' > x && less --lesskey-src=x README`,
		`printf '#env\nLESSOPEN = |rm -f c %%s\n' > x && less --lesskey-src x README`,
		`printf '#env\nLESSOPEN=|sh y %%s\n' > x && echo 'rm -f c' > y && less -F --lesskey-src=x README`,
	},
	"8-written-program-option": {
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && gpg --batch --agent-program=./y --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && mkdir -p node_modules/q && npm --editor=./y edit q`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && mkdir -p node_modules/q && npm edit q --editor=./y`,
	},
	"9-written-config-names-written-program": {
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo 'agent-program ./y' > x && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && mkdir -p node_modules/q && echo 'editor=./y' > x && npm --userconfig x edit q`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && printf 'editor = ./y\n' > x && mkdir -p node_modules/q && npm edit q --userconfig=x`,
	},
	"10-written-code-behind-a-runner": {
		`echo 'import os; os.remove("c")' > a && /usr/sbin/logsave /dev/null cp a y.py && python3 y.py`,
		`echo 'import os; os.remove("c")' > a && /usr/sbin/logsave /dev/null mv a y.py && python3 y.py`,
		`echo 'import os; os.remove("c")' | /usr/sbin/logsave /dev/null tee y.py && python3 y.py`,
		`echo 'import os; os.remove("c")' > a && /usr/sbin/logsave /dev/null dd if=a of=y.py && python3 y.py`,
		`printf 'all:\n\tfind . -name c -delete\n' > a && /usr/sbin/logsave /dev/null cp a Makefile && make -s`,
		`echo 'import os; os.remove("c")' > y && /usr/sbin/logsave /dev/null python3 y`,
		`echo 'import os; os.remove("c")' > y.py && /usr/sbin/logsave /dev/null python3 -m y`,
	},
	"11-written-program-handed-to-a-program": {
		`printf '#!/bin/sh\nfind . -name c -delete\n' > y && chmod +x y && gpg --batch --agent-program ./y --card-status`,
		`printf '#!/bin/sh\necho x >> .git/config\n' > y && chmod 755 y && mkdir -p node_modules/q && npm --editor=./y edit q`,
		`printf '#!/bin/sh\nfind . -name c -delete\n' > y && chmod u+x y && /usr/sbin/logsave /dev/null ./y`,
		`printf '#!/usr/bin/python3\nimport os; os.remove("c")\n' > y && chmod +x y && echo 'agent-program ./y' > x && gpg --batch --options x --card-status`,
	},
	"12-written-config-holds-a-command": {
		`echo 'editor=sh -c find${IFS}.${IFS}-name${IFS}c${IFS}-delete' > x && mkdir -p node_modules/q && npm --userconfig x edit q`,
		`echo 'editor=node -e require("fs").unlinkSync("c")' > x && mkdir -p node_modules/q && npm --userconfig x edit q`,
		`printf 'editor = node -e require("fs").unlinkSync("c")\n' > x && mkdir -p node_modules/q && npm edit q --userconfig=x`,
	},
}

// canaryRound27Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow. (gpg writes ~/.gnupg without a
// --homedir in the workdir, and npm edit starts the editor: both ask
// since stop 57.)
var canaryRound27Ordinary = []string{
	"less README", "less -R -F README", "less --quit-if-one-screen README", "gpg --homedir gnupg --batch --list-keys",
	"echo '{}' > x.json && gpg --homedir gnupg --batch --armor --export > keys.asc", "npm test",
	"echo data > in.txt && gpg --homedir gnupg --batch --print-md SHA256 in.txt",
	"/usr/sbin/logsave /dev/null python3 x.py", "/usr/sbin/logsave out.log make -n",
	"echo 'print(1)' > a.txt && /usr/sbin/logsave /dev/null python3 x.py a.txt",
	`printf '#!/bin/sh\necho hi\n' > build.sh && chmod +x build.sh`, "/usr/sbin/logsave out.log ./build.sh",
	"echo data > in.txt && chmod 644 in.txt && gpg --homedir gnupg --batch --print-md SHA256 in.txt",
	"echo 'Fix the build: run make, then git status to find what changed' > notes.txt && gpg --homedir gnupg --batch --clearsign notes.txt",
	`echo '{"name":"q","scripts":{"test":"node t.js"}}' > q.json && gpg --homedir gnupg --batch --print-md SHA256 q.json`,
}

func TestCanaryRound27(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.NodeJS, "npm")
	tooltest.Need(t, tooltest.CanaryTools, "less", "gpg", "/usr/sbin/logsave", "python3", "make")
	template := checkCanaryRound(t, canaryRound27)
	checkOrdinary(t, template, canaryRound27Ordinary, nil)
}

// canaryMakeVariables are lines that have make run a command of the
// line's own through a variable set on its command line, with the
// built-in rule that builds x from the project's x.c ($(CC) … x.c -o x).
var canaryMakeVariables = map[string][]string{"13-make-variables": {
	`make CC='sh -c "rm -f c" --' x`,
	`make CC='python3 -c "import os;os.remove(\"c\")"' x`,
	`printf '#!/bin/sh\nfind . -name c -delete\n' > y && chmod +x y && make CC=./y x`,
}}

// TestCanaryMakeVariables runs canaryMakeVariables in the fixture with a
// C source file added, as a cloned project has one: each line must do
// damage when run and be refused by both scenarios; a plain override
// stays allowed.
func TestCanaryMakeVariables(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "make", "python3")
	template := canaryTemplate(t)
	if err := os.WriteFile(filepath.Join(template, "work", "x.c"), []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCanaryRoundIn(t, template, canaryMakeVariables)
	checkOrdinary(t, template, []string{"make CC=gcc x", "make CFLAGS=-O2 x", "make CC=clang CFLAGS='-O2 -g' x"}, nil)
}
