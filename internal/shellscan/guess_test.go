package shellscan

import (
	"slices"
	"strings"
	"testing"
)

// Round 16: a command the analysis does not model may run its operands
// as a command (logsave FILE CMD …) or a command string given as an
// operand or an option's value. Those that name a program the analysis
// models are analyzed as a command: deny rules see it (a unit that only
// restricts), and what makes it opaque makes the line opaque.
func TestGuessedCommandsOfUnmodelledCommands(t *testing.T) {
	seen := func(a *bashAnalysis, prefix string) bool {
		for _, u := range a.units {
			if u.wrapper && strings.HasPrefix(u.text, prefix) {
				return true
			}
		}
		return false
	}
	for _, tt := range []struct{ line, unit string }{
		{"logsave /dev/null rm -f c", "rm -f c"},
		{"logsave /dev/null /bin/rm -f c", "/bin/rm -f c"},
		{"logsave -a log timeout 5 rm c", "rm c"},
		{"logsave x env rm -f c", "rm -f c"},
		{"runner -c 'true; rm -f c' x", "rm -f c"},
		{"runner -c'rm -f c'", "rm -f c"},
		{"java -XX:OnOutOfMemoryError='rm -f c' X.java", "rm -f c"},
		{"runner --hook='echo $(rm -f c)'", "rm -f c"},
		{"runner 'exec rm -f c'", "rm -f c"},
	} {
		if a := analyzeBash(tt.line, "/home/u", "/w"); !seen(a, tt.unit) {
			t.Errorf("%q: no restricting unit %q among %+v", tt.line, tt.unit, a.units)
		}
	}
	for _, line := range []string{
		"logsave x sh -c 'true && rm -f c'", "echo ls | logsave x bash", "logsave x python3 -c 'import os'",
		"logsave x python3 <<< 'import os'", "echo x | logsave y node", "logsave x perl -e 1",
		"logsave x find -name c -delete", "logsave x git -c core.fsmonitor=x status", "logsave x tar xf x.tar",
		"logsave x xargs rm", "logsave x nice sh -c ls", "logsave x patch -i p.diff", "logsave x patch < p.diff",
		"runner --exec='sh -c ls'", "java -XX:OnError='perl -e 1' X", "systemd-tmpfiles --create t.conf",
		"gio launch x.desktop", "logsave x python3.12 -c 1", "logsave x perl5.36.0 -e 1", "logsave x bash5 -c ls",
		"logsave x not-14 sh -c ls",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"npm install lodash", "uv python list", "docker ps", "pytest -k x", "npm run watch",
		"gh pr view 12", "npm install -S lodash", "brew info python", "pip install -t vendor sh", "kubectl run -it tmp --image=img -- bash",
		`kubectl patch deploy x -p '{}' --dry-run=client`, `gh issue create --title "rm old files" --body x`, `jq '.[] | .name' x.json`,
		"kubectl run web --image=img -- python manage.py migrate", "jest --env node x.test.js", "kubectl run tmp --rm -i --image=img -- env",
		"logsave log make test", "logsave log python3 x.py", "cargo run -- --name sh", "go run . sh -c x",
		// Words that begin with a program's name and go on with digits
		// that are no version (ed25519 and ed448 are no ed).
		"ssh-keygen -t ed25519 -f ./id_test", "ssh-keygen -t ed25519 -C me -f ./k -N ''", "openssl genpkey -algorithm ed25519 -out k.pem",
		"openssl genpkey -algorithm ed448 -out k.pem", "tool --curve ed25519ph x",
	} {
		a := analyzeBash(line, "/home/u", "/w")
		if len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
		if seen(a, "rm") {
			t.Errorf("%q: a restricting unit rm", line)
		}
	}
	// The commands an unmodelled command may run are bounded.
	many := "runner" + strings.Repeat(" rm", maxGuessed+1)
	if a := analyzeBash(many, "/home/u", "/w"); len(a.reasons) == 0 {
		t.Errorf("%d guessed commands are not opaque", maxGuessed+1)
	}
	long := "runner rm" + strings.Repeat(" x", maxGuessWords)
	if a := analyzeBash(long, "/home/u", "/w"); len(a.reasons) == 0 {
		t.Errorf("a guessed command of %d words is not opaque", maxGuessWords+1)
	}
}

// Round 16: file: URLs (percent-decoded) and the parts of a value around
// ':' are paths a command the analysis does not model may write; a
// command string's redirections are written by the shell that runs it;
// gio and the JDK's launchers are modelled.
func TestURLAndColonValuesArePathsItMayWrite(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"tool --out=file:///home/u/.bashrc", "/home/u/.bashrc"},
		{"tool file://localhost/w/%2Egit/config", "/w/.git/config"},
		{"tool file:.git/config", ".git/config"},
		{"tool --cov-report=xml:.git/config", ".git/config"},
		{"tool -v .git:/x", ".git"},
		{"tool --x='echo x >.git/config'", ".git/config"},
		{"tool --x='cp a ~/.bashrc'", "/home/u/.bashrc"},
	} {
		checkMayWrite(t, tt.line, tt.want)
	}
	for _, line := range []string{
		"gio copy a file:///x", "gio trash c", "gio launch x.desktop", "gio open x", "gio mime text/plain x.desktop",
		"java @o X.java", "java -XX:OnError=x X", "javac -J-XX:OnOutOfMemoryError=x X.java", "java -XX:Flags=f X",
		"tool --x='cp a $(printf .git/config)'", "tool --x='echo x > $(printf y)'",
		"python3 -m tarfile -e x.tar sub", "python3 -m tarfile --ext x.tar", "python3 -m tarfile -ve x.tar",
		"logsave x cp -a a sub/ && echo x > sub/a",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{"gio info a", "gio cat a", "gio mime text/plain", "java -Xmx1g X.java", "javac -d out X.java",
		"python3 -m tarfile -l x.tar", "logsave x ls && echo x > out.txt"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// Round 16: a command the analysis does not model may write its default
// outputs (ctags -R: tags) into the directories the line changed to,
// which are paths it may write.
func TestUnmodelledCommandsWriteTheDirectoryTheLineChangedTo(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"cd .git/hooks && ctags -R", "/w/.git/hooks"},
		{"pushd ~ && ctags -R", "/home/u"},
		{"cd /x && cc -xc -", "/x"},
	} {
		checkMayWrite(t, tt.line, tt.want)
	}
	for _, line := range []string{"cd - && make", "cd .git && ctags -R"} {
		if a := analyzeBash(line, "/home/u", ""); len(a.reasons) == 0 {
			t.Errorf("%q with no known workdir is not opaque", line)
		}
	}
	if a := analyzeBash("ctags -R && cd sub/.. && ls", "/home/u", "/w"); len(a.accesses) > 0 {
		t.Errorf("a cd back to the start is a path it may write: %+v", a.accesses)
	}
}

// Round 16: tools that install git hooks, and NAME=value operands that
// set what a command an unmodelled runner runs reads.
func TestHookInstallersAndEnvironmentOperands(t *testing.T) {
	for _, line := range []string{
		"pre-commit install", "pre-commit install -t pre-push", "lefthook install", "husky", "husky init",
		"overcommit --install", "simple-git-hooks", "runner GIT_CONFIG_GLOBAL=x git status", "runner LD_PRELOAD=./x.so ls",
		"runner BASH_ENV=x bash x.sh", "runner PATH=bin ls",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{"pre-commit run --all-files", "lefthook run pre-commit", "husky -v",
		"helm install x ./chart --set FOO=1", "kubectl set env deploy/x DEBUG=1", "kubectl set env deploy/x NODE_ENV=production PYTHONUNBUFFERED=1",
		"kubectl set env deploy/x GOOS=linux"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// Round 16: a line that runs a program by a path it also writes runs code
// it made, under a name no rule knows (cp /bin/rm x && ./x -f c).
func TestRunningAProgramTheLineWrites(t *testing.T) {
	for _, line := range []string{
		"cp /bin/rm x && ./x -f c", "cat /bin/rm > x && ./x", "cp /bin/rm sub/x && cd sub && ./x",
		"cp /bin/r? x && ./x", "printf 'rm -f c' > x.sh && chmod +x x.sh && ./x.sh", "cp -r /bin b && b/rm c",
		"cp /bin/rm /w/x && /w/x c",
		// An unmodelled command's operand or output, run by that name.
		"objcopy -I binary -O binary b m && ./m", "openssl base64 -d -in b -out m && ./m",
		"gcc -o m m.c && openssl base64 -d -in b -out m && ./m",
		// The shell's own program, or a descriptor's, by a name no rule knows.
		"/proc/self/exe x", "/proc/thread-self/exe -c :", "/proc/1/exe", "/dev/fd/3 x 3< /bin/bash",
		"/proc/self/root/proc/self/exe x", "../../../../../../proc/self/exe x", "cd / && proc/self/exe x",
		"nice /proc/self/exe x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{"gcc -o m m.c && ./m", "cc -c x.c && cc -o m x.o && ./m", "make && ./bin/server", "./configure && make", "echo x > a && ./b"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

func TestSuShellOptionIsOpaque(t *testing.T) {
	for _, line := range []string{"su -s /usr/bin/python3 root -c x", "runuser -s ./x root -c :", "su --shell=/usr/bin/perl -c x",
		"su --sh /x root -c ls", "su -ls/x root -c ls", "su -l -s /bin/zsh root -c ls", "su -s /bin/sh -s /x -c ls"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	// su runs as another user, which alone makes the line opaque; a shell
	// -s names that bash reads adds no reason of its own.
	for _, line := range []string{"su -s /bin/bash root -c ls", "su -c ls root", "su -l root -c 'git status'"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) != 1 || !strings.Contains(a.reasons[0], "another user") {
			t.Errorf("%q: reasons %q, want only that it runs as another user", line, a.reasons)
		}
	}
}

// parsedStmts reads the statements of a string before its syntax error,
// which sh runs, and none of what follows it.
func TestParsedStmtsBeforeError(t *testing.T) {
	for s, want := range map[string][]string{
		"./t c\n)":                     {"./t c"},
		"cd .git; echo x >> config\n)": {"cd .git", "echo x"},
		"echo (unbalanced":             nil,
		"a\nb\nfi\nc":                  {"a", "b"},
		"a; b":                         {"a", "b"},
	} {
		f, err := parsedStmts(s)
		if (err == nil) != (s == "a; b") {
			t.Errorf("%q: error %v", s, err)
		}
		var got []string
		for _, st := range f.Stmts {
			got = append(got, sourceText(s, st.Cmd))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: statements %q, want %q", s, got, want)
		}
	}
}

// set sets the positional parameters with an operand, not with options
// alone.
func TestSetsPositional(t *testing.T) {
	for line, want := range map[string]bool{
		"set -- r": true, "set r": true, "set -e r": true, "set -": true, "set $X": true,
		"set -o pipefail r": true, "set -e": false, "set -o pipefail": false, "set -eu -o pipefail": false, "set +x": false, "set": false,
	} {
		var ws []word
		for _, f := range strings.Fields(line)[1:] {
			ws = append(ws, word{text: f, dynamic: strings.HasPrefix(f, "$")})
		}
		if got := setsPositional(ws); got != want {
			t.Errorf("%q: %v, want %v", line, got, want)
		}
	}
}

// The builtins that make a command string opaque, in the forms that
// change what runs after them.
func TestStringOpaque(t *testing.T) {
	for line, want := range map[string]bool{
		"source s": true, ". ./s": true, "alias x=y": true, "hash -p /bin/x y": true, "hash -rp /bin/x y": true,
		"enable -f ./x.so x": true, "enable -nf x.so x": true, "hash $X": true,
		"source": false, "hash -r": false, "hash ls": false, "enable -n echo": false, "enable caching": false,
		"hash -- -p": false, "wc -l x": false,
	} {
		var ws []word
		for _, f := range strings.Fields(line) {
			ws = append(ws, word{text: f, dynamic: strings.HasPrefix(f, "$")})
		}
		if got := stringOpaque(ws); got != want {
			t.Errorf("%q: %v, want %v", line, got, want)
		}
	}
}

// gatestr69: a command string's commands are read with the analyzer's own
// model of each command, not a second reader's: cp -r writes the tree it
// copies into, sort -o writes its output file, a redirection writes its
// target, as on the line.
func TestCommandStringCommandsUseTheAnalyzersModel(t *testing.T) {
	for _, tt := range []struct{ line, path string }{
		{"hyperfine -r1 'cp -r sub ~'", "/home/u"},
		{"hyperfine -r1 'sort -o out README'", "out"},
		{"hyperfine -r1 'cd sub && sort -o out README'", "sub/out"},
		{"hyperfine -r1 'echo x > out'", "out"},
		{"hyperfine -r1 'cd sub; echo x >> out'", "sub/out"},
	} {
		a := analyzeBash(tt.line, "/home/u", "/w")
		found := false
		for _, x := range a.accesses {
			found = found || x.path == tt.path && x.mode == modeWrite
		}
		if !found {
			t.Errorf("%q: no write of %s among %+v", tt.line, tt.path, a.accesses)
		}
	}
}

// withValues takes the word a default or alternative value carries as
// the expansion's text (round 100).
func TestWithValues(t *testing.T) {
	for in, want := range map[string]string{
		"${x:-rm}": "rm", "${x-rm}": "rm", "${x:+r}m": "rm", "${HOME+rm}": "rm", "${x:=${y:-r}m}": "rm",
		"${x}": "${x}", "${x#a}b": "${x#a}b", "a${x:-}b": "ab", "${x:-rm": "${x:-rm", "plain": "plain",
	} {
		if got := withValues(in); got != want {
			t.Errorf("withValues(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestJoinedExpansion checks which words a runner hands to sh may be split
// there: an expansion joined to other text or another (round 103).
func TestJoinedExpansion(t *testing.T) {
	for w, want := range map[string]bool{
		"cat${PS4#+}sub/s/id_ed25519": true, "${x}cat${PS4#+}x": true, "nice${PS4#+}env": true,
		"g${x}h": true, "$a$b": true, "$1x": true, "x$": true, "${x:-a}b": true,
		"$PAGER": false, "${x:-env}": false, "${a{b}}": false, "$1": false, "cat": false, "${x": false,
	} {
		if got := joinedExpansion(w); got != want {
			t.Errorf("joinedExpansion(%q) = %v, want %v", w, got, want)
		}
	}
}
