package shellscan

import (
	"slices"
	"strings"
	"testing"
)

// A command the analysis does not model carries, as guessed spellings,
// the commands it may run: from each operand, from each option's value
// given with '=', and each command string attached to a short option;
// message options' values are not commands, and modelled commands carry
// none.
func TestGuessedSpellingsOfUnmodelledCommands(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // the first command's guessed spellings
	}{
		{"logsave /dev/null terraform destroy", []string{"/dev/null terraform destroy", "null terraform destroy", "terraform destroy", "destroy"}},
		{"tool --exec=rm x", []string{"rm x", "x"}},
		{"tool --run='terraform   destroy' -v", []string{"terraform destroy -v", "terraform destroy"}},
		{"tool -c'terraform destroy'", []string{"terraform destroy"}},
		{"tool -erm x", []string{"rm x", "x"}},
		{"tool -v", nil},
		{"tool -q /opt/bin/terraform destroy", []string{"/opt/bin/terraform destroy", "terraform destroy", "destroy"}},
		{"gh pr create --title 'terraform destroy'", []string{"pr create --title terraform destroy", "create --title terraform destroy"}},
		{"tool --title='rm x' y", []string{"y"}},
		{"ls terraform destroy", nil},
		{"tool", nil},
		// command strings: each simple command, after exec and the like,
		// with its quotes removed
		{"tool 'true;terraform destroy'", []string{"true;terraform destroy", "true", "terraform destroy", "destroy"}},
		{`tool '(exec "terraform" destroy)'`, []string{`(exec "terraform" destroy)`, "terraform destroy", "destroy"}},
		{"tool --run='x=1 /opt/terraform destroy'", []string{"x=1 /opt/terraform destroy", "/opt/terraform destroy", "terraform destroy"}},
		// an option whose value names data, unless it holds shell syntax
		{"tool --name=rm x", []string{"x"}},
		{"tool --Test_Name-Pattern=rm", nil},
		{"tool -lcurl -krm", nil},
		{"tool --name='true;rm'", []string{"true", "rm"}},
		// what a command string feeds or writes is read
		{"tool 'echo x > f; y f'", []string{"echo x > f; y f", "echo x", "y f", "f"}},
		// code: each command from each operand on, strings in strings
		{"tool 'true; logsave f terraform destroy'", []string{"true; logsave f terraform destroy", "true", "logsave f terraform destroy", "f terraform destroy", "terraform destroy", "destroy"}},
		{`tool "sh -c 'true;rm'"`, []string{"sh -c 'true;rm'", "sh -c true;rm", "true;rm", "true", "rm"}},
		{`tool "true; sh -c 'exec rm'"`, []string{"true; sh -c 'exec rm'", "true", "sh -c exec rm", "exec rm", "rm"}},
		{"tool 'true; git commit -m \"rm x\"'", []string{`true; git commit -m "rm x"`, "true", "git commit -m rm x", "commit -m rm x"}},
		// a script it may read is not among them (see Read)
		{"tool <<< 'terraform destroy'", nil},
	} {
		a := Analyze(tc.line, Options{})
		if len(a.Commands) == 0 {
			t.Fatalf("%q: no command", tc.line)
		}
		if got := a.Commands[0].Guessed; !slices.Equal(got, tc.want) {
			t.Errorf("%q: guessed %q, want %q", tc.line, got, tc.want)
		}
	}
}

// The script a command the analysis does not model may read (a
// here-string or here-document, what echo or printf pipes to it, a file
// the line wrote and names among its words or redirects to its input) is
// spelled for it in Read; a script that runs a command named by a
// variable it sets is opaque.
func TestGuessedSpellingsOfScripts(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // the last command's Read
	}{
		{"tool <<< 'terraform destroy'", []string{"terraform destroy"}},
		{"tool <<'E'\nls\nterraform destroy\nE", []string{"ls", "terraform destroy", "destroy"}},
		{"{ tool; } <<< 'terraform destroy'", []string{"terraform destroy"}},
		{"tool < /dev/null", nil},
		{"echo 'terraform destroy' | tool", []string{"terraform destroy"}},
		{"printf 'ls\\nterraform destroy\\n' | tool -q", []string{"ls", "terraform destroy", "destroy"}},
		{"echo terraform destroy > s; tool s", []string{"terraform destroy"}},
		{"echo terraform destroy > s && tool < s", []string{"terraform destroy"}},
		{"echo ls > s; echo terraform destroy >> s; tool ./s", []string{"ls", "terraform destroy", "destroy"}},
		{"echo ls | cat; tool", nil},
		{"echo terraform destroy > s; tool 'true;ls'", nil},
		// tee, &>, echo -n, groups, cat in a pipe, cp and mv, $PWD
		{"echo terraform destroy | tee s; tool s", []string{"terraform destroy"}},
		{"echo terraform destroy &> s; tool s", []string{"terraform destroy"}},
		{"echo -n terraform > s; echo ' destroy' >> s; tool s", []string{"terraform destroy"}},
		{"{ echo terraform destroy; } | tool", []string{"terraform destroy"}},
		{"echo terraform destroy | cat - | tool", []string{"terraform destroy"}},
		{"echo terraform destroy > a; cp a s; tool s", []string{"terraform destroy"}},
		{"echo terraform destroy > a; ln -sf a s; tool s", []string{"terraform destroy"}},
		{"tee s <<< 'terraform destroy'; tool s", []string{"terraform destroy"}},
		{"echo terraform destroy > s; tool $PWD/s", []string{"terraform destroy"}},
		// a document's list item names no program
		{"tool <<'E'\nargs:\n  - terraform\n  - destroy\nE", []string{"args:"}},
		// a shell's input reaches its -c string's commands
		{"bash -c 'true; tool' <<< 'terraform destroy'", []string{"terraform destroy"}},
		{"echo terraform destroy | sh -c tool", []string{"terraform destroy"}},
		{"tool 'echo terraform destroy > f; y f'", []string{"terraform destroy"}},
		// a file the line wrote named as an option's value, or by a
		// file the line wrote (a configuration naming a script)
		{"echo terraform destroy > s; tool --program=s", []string{"terraform destroy"}},
		{"echo terraform destroy > s; tool -ps", []string{"terraform destroy"}},
		{"echo terraform destroy > s; echo 'helper ./s' > c; tool --options c", []string{"terraform destroy", "helper ./s"}},
		{"echo terraform destroy > s; echo 'helper=./s' > c; tool -F x --config=c", []string{"terraform destroy"}},
		{"echo terraform destroy > s; echo 'H=|./s %s' > c; tool c", []string{"terraform destroy", "./s %s", "s %s", "%s"}},
		{"echo 'x ./s' > s; tool s", []string{"x ./s"}},
		// a message file
		{"echo terraform destroy > m; gh pr create --body-file=m", nil},
		{"gh pr create --body-file - <<< 'terraform destroy'", nil},
		{"echo 'terraform destroy' | gh pr create --body-file=-", nil},
		{"echo terraform destroy > m; gh pr create -F m", nil},
	} {
		a := Analyze(tc.line, Options{Workdir: "/w"})
		// The last tool or gh: the commands guessed in the files it is
		// handed come after it.
		last := len(a.Commands) - 1
		for last > 0 && a.Commands[last].Name != "tool" && a.Commands[last].Name != "gh" {
			last--
		}
		if got := a.Commands[last].Read; !slices.Equal(got, tc.want) {
			t.Errorf("%q: guessed %q, want %q", tc.line, got, tc.want)
		}
	}
	for _, line := range []string{"tool $'alias x=rm\\nx c'", "tool 'x=rm; $x -f c'", "tool <<< 'for x in rm; do $x c; done'", "tool 'read x; $x'"} {
		if a := Analyze(line, Options{}); !a.Opaque {
			t.Errorf("%q: not opaque", line)
		}
	}
	if a := Analyze("tool '$x -f c'", Options{}); a.Opaque {
		t.Errorf("a variable the string does not set: opaque: %s", a.Reason())
	}
}

// A command with more operands than guesses are recorded for is opaque:
// a denied command past the bound would otherwise go unseen.
func TestGuessedSpellingsAreBounded(t *testing.T) {
	line := "tool " + strings.Repeat("x ", maxInnerSpellings) + "terraform destroy"
	if a := Analyze(line, Options{}); !a.Opaque {
		t.Errorf("%d operands: not opaque", maxInnerSpellings+2)
	}
	line = "tool " + strings.Repeat("x ", maxInnerSpellings-1)
	if a := Analyze(line, Options{}); a.Opaque {
		t.Errorf("%d operands: opaque: %s", maxInnerSpellings-1, a.Reason())
	}
}

// A file the line wrote and hands to a command the analysis does not
// model is looked into for commands, line by line, as the command's words
// are: a configuration may hold one the program runs.
func TestGuessedCommandsInHandedFiles(t *testing.T) {
	for _, tc := range []struct {
		line   string
		opaque bool
	}{
		{"echo 'editor=sh -c x' > c && tool --config c", true},
		{"echo 'editor = node -e 1' > c && tool --config=c", true},
		{`echo 'cmd: ["python3", "-c", "print(1)"]' > k.yaml && tool apply -f k.yaml`, true},
		{"echo 'helper=./y' > c && echo 'find . -delete' > y && tool -Fc", true},
		{"printf 'a=1\\nb=find . -name x -delete\\n' > c && tool c", true},
		{"echo 'editor=vim' > c && tool --config c", false},
		{"echo 'run make, then git status to find what changed' > n && tool n", false},
		{`echo '{"name":"q","scripts":{"test":"node t.js"}}' > q.json && tool q.json`, false},
		{"echo 'editor=sh -c x' > c && cat c", false},
		{"echo 'editor=sh -c x' > c && tool other", false},
	} {
		if a := Analyze(tc.line, Options{Workdir: "/w"}); a.Opaque != tc.opaque {
			t.Errorf("%q: opaque %v, want %v (%v)", tc.line, a.Opaque, tc.opaque, a.Reasons)
		}
	}
}
