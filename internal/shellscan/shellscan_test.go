package shellscan_test

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

var opts = shellscan.Options{Home: "/home/u", Workdir: "/w"}

func TestAnalyzeMakesTheIssueExamplesOpaque(t *testing.T) {
	lines := []string{
		// Class 1: arithmetic, indirect and prompt expansion.
		`x='a[$(rm -f c)]'; echo $((x))`, `echo ${!x}`, `echo "${x@P}"`, `echo ${HOME:x:1}`,
		`echo "${a[x]}"`, `[[ x -eq 1 ]]`, `(( x ))`, `for ((i=x;0;)); do :; done`, `let x`,
		`printf -v x y`, `read x`, `test -v 'a[$(rm -f c)]'`, `[ -v x ]`, `echo $[x]`,
		// Class 2: assignments and environment.
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c; false' git status`,
		`env GIT_CONFIG_PARAMETERS=x git status`, `env -i git status`, `git -c alias.p=push p`,
		`git -C . push`, `git --exec-path=. foo`, `git --git-dir=x status`, `git p`, `git config core.pager x`,
		`git-upload-pack .`, `git clone --upload-pack=x y`, `git clone --upl=x y`, `git rebase -x 'rm c' main`,
		`git log --output=x`, `git grep -Ox y`, `X=1 ls`, `X=1`,
		// Class 3: guards and wrappers.
		`for PATH in /evil; do ls; done`, `export "PATH=/evil"`, `declare -n p=PATH`, `printf -vPATH /evil`,
		`hash -p /bin/rm ls`, `trap -- 'rm -f c' EXIT`, `env -S 'rm -f c'`, `strace rm c`, `script -c 'rm c'`,
		`unshare rm c`, `setpriv rm c`, `prlimit rm c`, `xargs rm`, `find . -exec rm {} +`, `find . -delete`,
		`eval ls`, `source x`, `. x`, `builtin ls`, `command -p ls`, `enable -n ls`, `set -k`, `shopt -s x`,
		`exec ls`, `coproc ls`, `select x in a; do :; done`, `f() { :; }`, `alias ls=rm`, `sed 's/a/b/e' f`,
		`sed -n '1w out' f`, `awk 'BEGIN{system("x")}'`, `tar xf a.tar`, `tar cf a.tar --to-command=x b`,
		`rsync -e ssh a b:c`, `ln -s a b`, `$CMD`, `l* -a`, `git status $x`, "echo `ls`", "echo ${ ls;}", `cat <(ls)`,
		"cat <<EOF\n$x\nEOF", `zip -TT x a.zip b`,
		`pyenv exec rm c`, `rbenv exec rm c`, `uv run rm c`, `mise x -- rm c`, `eatmydata rm c`, `chronic rm c`,
		`runcon -t x rm c`, `sshpass -p x rm c`, `tini -- rm c`, `ifne rm c`, `npx -p x rm c`, `sudo X=1 rm c`,
		`sudo -u root LD_PRELOAD=x.so ls`, `doas X=1 ls`,
		`rsync -b --suffix=.json a b`, `rsync -ab a b`, `sed -i'../*' s/a/b/ f`,
		// Class 4: redirections the analysis cannot resolve.
		`echo x > $OUT`, `echo x > /dev/tcp/127.0.0.1/9`, `cat < /dev/tcp/h/1`, `echo x > ~bob/x`, `echo x >&$fd`,
		`cp -a d e && echo x > e/link`,
		// Class 5: globs in redirection targets.
		`echo x > ~/.lite-agen?/permissions.jso?`, `echo x > *.json`,
		// A translated string.
		`echo $"hello"`, `ls $"x"`, `echo x > $"out"`,
		// Assignments but name=value of a lower-case name in a statement
		// of its own.
		`X=1; ls`, `x+=1; ls`, "x[0]=1; ls", "x=(a b); ls", `Path=x; ls`, `x_y=1; ls`, `x=1 ls`, `declare x=1`,
		`local x=1`, `x=${y:-z}`, "x=`ls`", `x=$((y))`, `x=a export y=1`,
		// A backslash-newline after a '$', which bash joins first.
		"echo \"$\\\n(rm c)\"", "echo x > \"$\\\n{f}\"", "echo $(\\\n(x))", "echo \"$\\\n\\\nHOME\"",
		"runner $'$\\\\\\n(rm -f c)'",
		// set with anything but errexit, nounset and pipefail.
		`set`, `set -x`, `set -k`, `set -a`, `set -f`, `set -o posix`, `set -eo`, `set -o vi`, `set -- a`, `set -e x`,
		`set -o $o`, `set -euxo pipefail`, `set -oe pipefail`, `./set -e`, `set -E`, `set -T`,
		// Arithmetic with a name, an expansion, an assignment or a
		// number that is not plain decimal.
		`echo $((x+1))`, `echo $(($x))`, `echo $((1+a[$(rm -f c)]))`, `(( 1, x ))`, `echo $((0x10))`,
		`echo $((2#101))`, `echo $(( $(rm -f c) + 1 ))`, `echo $((1 ? x : 2))`, `echo $(("1"))`, `let 1+2`,
		`echo $((-x))`, `echo $((x=1))`, `echo $((1e3))`,
		// A '[' closed by a ']' in a later part of its word is a pattern.
		`echo x > .git/["c"]onfig`, `["r"]m -f c`, `[ -d x ] && [r]m c`, `["["] x`, `[ x ] > [c]`,
		// A brace or glob among test's operands may expand to -v.
		"[ {-v,} 'a[$(rm -f c)]' ]", "test {-v,} x", "[ -[v] x ]", "test -? x", "[ -e *.go ]",
		// A brace or glob that may expand to an option.
		"find . {-delete,}", "find . -[d]elete", "sort {-o,} x y", "printf {-v,} x y", "git log {--output=x,}",
		"find . -name c {0..-1}",
		"touch ./-delete && find . *lete", "echo > -x", "mkdir -p a/-r/b", "cp x ./--output=y",
	}
	for _, line := range lines {
		if a := shellscan.Analyze(line, opts); !a.Opaque || a.Reason() == "" {
			t.Errorf("%q is not opaque (commands %v)", line, a.Commands)
		}
	}
}

func TestAnalyzeUnderstandsOrdinaryLines(t *testing.T) {
	lines := []string{
		"ls -la", "git status", "echo hi", "echo hi > out.txt", "git status --short && ls",
		`echo "$HOME" "$x"`, "ls ~ $HOME", "cat <<'EOF'\n$x\nEOF", "cat <<EOF\nplain\nEOF",
		"for f in *.go; do echo \"$f\"; done", "[[ -f a && $x == b* ]]", "grep -rn x . | head -5",
		"git log --oneline -5", "git diff --stat", "timeout 5 ls", "nice -n 5 ls", "env ls", "command ls",
		"set -euo pipefail; npm test", "set -e; go build ./...", "set -eu -o pipefail", "set +e; ls", "set -o errexit -o nounset",
		"env | sort", "env", "echo $((1+2))", "echo $(( (60 * 5) / 2 ))", "(( 1 ))", "echo $((10 % 3 ? 1 : 2))", "[ -d node_modules ] || npm ci", "[ -f go.mod ] && go build ./...",
		"cp a b", "mv a b", "sed -n 1p f", "echo $PATH $x", "ls $HOME/x", "awk '{print $1}' f", "tar czf a.tgz src", "ls 2>&1 >/dev/null",
		`for f in $(git ls-files); do wc -l "$f"; done`, `echo "head: $(git rev-parse HEAD)"`, `wc -l $(find . -name '*.go')`,
		`echo $(ls)`, `ls "$(dirname "$(pwd)")"`, `case $(uname) in Linux) echo l;; esac`,
		`out=$(go vet ./... 2>&1); echo "$out" | head`, `dir=src; ls "$dir"`, `n=3 m=4; echo $n $m`, `x=; echo "$x"`,
	}
	for _, line := range lines {
		if a := shellscan.Analyze(line, opts); a.Opaque {
			t.Errorf("%q is opaque: %v", line, a.Reasons)
		}
	}
}

func TestAnalyzeListsCommandsAndRedirections(t *testing.T) {
	a := shellscan.Analyze(`timeout 5 /bin/echo 'a  b' > ~/x 2>>"o u t" && git status`, opts)
	var names []string
	for _, c := range a.Commands {
		names = append(names, c.Text)
	}
	if want := []string{"timeout 5 /bin/echo a  b", "/bin/echo a  b", "git status"}; !slices.Equal(names, want) {
		t.Errorf("commands = %q, want %q", names, want)
	}
	if !a.Commands[0].Wrapper || a.Commands[1].Wrapper || !slices.Equal(a.Commands[1].Alt, []string{"echo a  b"}) {
		t.Errorf("commands = %+v", a.Commands)
	}
	var got []shellscan.Access
	got = append(got, a.Accesses...)
	want := []shellscan.Access{
		{Mode: shellscan.Write, Path: "/home/u/x", Redirect: true},
		{Mode: shellscan.Write, Path: "o u t", Redirect: true},
	}
	if !slices.Equal(got, want) {
		t.Errorf("accesses = %+v, want %+v", got, want)
	}
	if p := shellscan.Analyze("echo x > ~/.a?/b", opts); len(p.Accesses) != 1 || !p.Accesses[0].Pattern || p.Accesses[0].Path != "/home/u/.a?/b" {
		t.Errorf("pattern target: %+v", p.Accesses)
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"git status && rm -rf x", `x='a[$(rm -f c)]'; echo $((x))`, "echo x > ~/.lite-agen?/p.jso?",
		"env -S 'a b' c", "a 'unterminated", "cat <<EOF\n$x\nEOF",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a := shellscan.Analyze(line, opts)
		if !utf8.ValidString(line) && !a.Opaque {
			t.Fatal("a line that is not UTF-8 is not opaque")
		}
		if a.Opaque != (len(a.Reasons) > 0) {
			t.Fatalf("Opaque %v with reasons %q", a.Opaque, a.Reasons)
		}
		if len(a.Dirs) == 0 || a.Dirs[0] != "" {
			t.Fatalf("bad dirs %q", a.Dirs)
		}
		for _, x := range a.Accesses {
			if x.Path == "" || x.Mode < shellscan.Read || x.Mode > shellscan.Delete {
				t.Fatalf("bad access %+v", x)
			}
		}
	})
}

func TestSedScriptsThatRunOrWriteAreOpaque(t *testing.T) {
	tests := map[string]bool{
		"s/hello/world/g": false, "s/error/warning/": false, "1,10p": false, "/re/d": false,
		"s|a|b|; s,x,y,2": false, "$!N; P; D": false, "y/abc/xyz/": false, "/start/,/end/{s/a/b/;p}": false,
		`s/a\/e/b/`: false, "10q": false, "a appended": false, ":a;N;ba": false,
		"s/a/b/e": true, "s/a/b/w out": true, "1e rm x": true, "w out": true, "r /etc/passwd": true,
		"R x": true, "W x": true, "$e id": true, "/x/ e id": true, "s/a/b/ge": true, "1!e id": true,
		"s/unterminated": true, "s/a/b/gw x": true, "{e id\n}": true, "v": true,
	}
	for script, want := range tests {
		a := shellscan.Analyze("sed -e '"+strings.ReplaceAll(script, "'", `'\''`)+"' f", opts)
		if a.Opaque != want {
			t.Errorf("sed %q: opaque %v (%v), want %v", script, a.Opaque, a.Reasons, want)
		}
	}
}

func TestAnalyzeSeesAbbreviatedLongOptions(t *testing.T) {
	tests := map[string]string{
		"sort --outp=x a":          "writes x",
		"sort --out x a":           "writes x",
		"cp --target=d a":          "writes d",
		"sed --in-pl s/a/b/ f":     "writes f",
		"tar --create --fil=out x": "writes out",
		"tar --cre --fi out x":     "writes out",
		"sort --output=x a":        "writes x",
	}
	for line, want := range tests {
		a := shellscan.Analyze(line, opts)
		var got []string
		for _, x := range a.Accesses {
			got = append(got, x.Mode.String()+" "+x.Path)
		}
		if !slices.Contains(got, want) {
			t.Errorf("%q: accesses %q, want %q among them", line, got, want)
		}
	}
	if a := shellscan.Analyze("sed --sand s/a/b/ f", opts); a.Opaque {
		t.Errorf("sed --sand: opaque %v", a.Reasons)
	}
	if a := shellscan.Analyze("sed --frobnicate f", opts); !a.Opaque {
		t.Error("sed with an unknown long option is not opaque")
	}
}

// npx NAME is the project's node_modules/.bin/NAME, which the caller must
// find; anything that makes npx fetch, or run something else, is opaque.
func TestAnalyzeNpxRunsTheProjectsProgram(t *testing.T) {
	for _, tt := range []struct {
		line  string
		local []string // nil: opaque
		unit  string
	}{
		{"npx tsc --noEmit", []string{"node_modules/.bin/tsc"}, "node_modules/.bin/tsc --noEmit"},
		{"npx --yes -- eslint .", []string{"node_modules/.bin/eslint"}, "node_modules/.bin/eslint ."},
		{"npx tsc && npx jest", []string{"node_modules/.bin/tsc", "node_modules/.bin/jest"}, "node_modules/.bin/jest"},
		{"npx", nil, ""},
		{"npx tsc@5", nil, ""},
		{"npx @scope/tool", nil, ""},
		{"npx ./x.js", nil, ""},
		{"npx -p typescript tsc", nil, ""},
		{"npx --package=typescript tsc", nil, ""},
		{"npx -c 'ls'", nil, ""},
		{"npx --call=ls", nil, ""},
		{"npx --node-options=--inspect tsc", nil, ""},
		{"npx --prefix=sub tsc", nil, ""},
		// npx takes the word after these as their value, and npm then
		// reads --node-options as its own.
		{"npx --no ver --node-options=--require=./y", nil, ""},
		{"npx --no-fund tsc", nil, ""},
		{"npx --no-audit tsc --noEmit", nil, ""},
		{"npx $T", nil, ""},
		{"npx t*", nil, ""},
		{"npx --yes", nil, ""},
		{"npx https://example.com/x.tgz", nil, ""},
		{"npx github:x/y", nil, ""},
		{"echo x > node_modules/.bin/tsc && npx tsc", nil, ""},
		{"echo x > .npmrc && npx tsc", nil, ""},
	} {
		a := shellscan.Analyze(tt.line, opts)
		if tt.local == nil {
			if !a.Opaque {
				t.Errorf("%q is not opaque (local programs %q)", tt.line, a.LocalPrograms)
			}
			continue
		}
		if a.Opaque || !slices.Equal(a.LocalPrograms, tt.local) {
			t.Errorf("%q: opaque %v %q, local programs %q, want %q", tt.line, a.Opaque, a.Reasons, a.LocalPrograms, tt.local)
		}
		if !slices.ContainsFunc(a.Commands, func(c shellscan.Command) bool { return c.Text == tt.unit }) {
			t.Errorf("%q: commands %+v, want one %q", tt.line, a.Commands, tt.unit)
		}
	}
}

// xargs running a plain reader is that reader given words only known when
// it runs; any other command or option leaves xargs opaque.
func TestAnalyzeXargsRunsAReader(t *testing.T) {
	for _, tt := range []struct {
		line string
		unit string // "": opaque
	}{
		{"find . -name '*.go' | xargs grep -l TODO", "grep -l TODO $(xargs input)"},
		{"git ls-files -z | xargs -0 wc -l", "wc -l $(xargs input)"},
		{"ls | xargs", "echo $(xargs input)"},
		{"ls | xargs -0rn1 -P4 -- cat", "cat $(xargs input)"},
		{"ls | xargs --null --max-args=2 --max-lines=1 --verbose cat", "cat $(xargs input)"},
		{"ls | xargs --max-a 2 --d x cat", "cat $(xargs input)"},
		// -I R with R a whole word: the input's word stands there.
		{"ls | xargs -I{} cat {}", "cat $(xargs input)"},
		{"ls | xargs -i cat {}", "cat $(xargs input)"},
		{"ls | xargs -I % grep -c x % %", "grep -c x $(xargs input) $(xargs input)"},
		{"ls | xargs -0 -I{} grep --include {} -r x .", "grep --include $(xargs input) -r x ."},
		{"ls | xargs --replace=@ wc -l @", "wc -l $(xargs input)"},
		{"ls | xargs --rep wc -l {}", "wc -l $(xargs input)"},
		{"ls | xargs -iF -n1 head F", "head $(xargs input)"},
		{"ls | xargs -I{} echo", "echo"},
		// R within a word makes a name of the input; R as the program,
		// a replacement only known when the line runs, none at all.
		{"ls | xargs -I{} cat ../{}", ""},
		{"ls | xargs -I{} cat {}/x", ""},
		{"ls | xargs -I{} {} x", ""},
		{"ls | xargs -I{} grep -c x {}.bak", ""},
		{"ls | xargs -I$R cat $R", ""},
		{"ls | xargs -I", ""},
		{"ls | xargs --replace= cat", ""},
		{"ls | xargs -I{} rm {}", ""},
		{"ls | xargs -I{} sh -c 'cat {}'", ""},
		// A word bash makes more of may hold R: ..{/\{,x}} is ../{}
		// and ..x}, a/* may be a/{}.
		{`ls | xargs -I{} cat ..{/\{,x}}`, ""},
		{`ls | xargs -I{} cat ..{/"{",x}}`, ""},
		{"ls | xargs -I{} cat a/*", ""},
		// -L after -I cancels it: cat gets {} and then the input.
		{"ls | xargs -I{} -L1 cat {}", ""},
		{"ls | xargs -i --max-lines=1 wc -l {}", ""},
		{"ls | xargs -L 1 -I % wc -l %", ""},
		{"ls | xargs -a list cat", ""},
		{"ls | xargs -E x cat", ""},
		{"ls | xargs -e cat", ""},
		{"ls | xargs -p cat", ""},
		{"ls | xargs -o cat", ""},
		{"ls | xargs -l cat", ""},
		{"ls | xargs --max-lines 5 cat", ""},
		{"ls | xargs --max-l 5 cat", ""},
		{"ls | xargs --process-slot-var=X cat", ""},
		{"ls | xargs --arg-file=x cat", ""},
		{"ls | xargs --max-args=x cat", ""},
		{"ls | xargs -n $N cat", ""},
		{"ls | xargs $O cat", ""},
		{"ls | xargs -d", ""},
		{"ls | xargs /bin/cat", ""},
		{"ls | xargs $C", ""},
		{"ls | xargs c*t", ""},
		{"ls | xargs sort -o x", ""},
		{"ls | xargs tee x", ""},
		{"ls | xargs sh -c 'cat'", ""},
		{"ls | xargs true", ""},
	} {
		a := shellscan.Analyze(tt.line, opts)
		if tt.unit == "" {
			if !a.Opaque {
				t.Errorf("%q is not opaque (commands %+v)", tt.line, a.Commands)
			}
			continue
		}
		if a.Opaque || !slices.ContainsFunc(a.Commands, func(c shellscan.Command) bool { return c.Text == tt.unit }) {
			t.Errorf("%q: opaque %v %q, commands %+v, want one %q", tt.line, a.Opaque, a.Reasons, a.Commands, tt.unit)
		}
	}
}
