package shellscan

import (
	"slices"
	"strings"
	"testing"
)

// acc formats an access as "<mode> <path>", with "+tree" for tree writes.
func acc(a access) string {
	s := Mode(a.mode).String() + " " + a.path
	if a.tree {
		s += " +tree"
	}
	if a.unknown {
		s += " +unknown"
	}
	if a.runs {
		s += " +runs"
	}
	return s
}

// checkModelled checks that each line is analyzed with no reason to be
// opaque and with exactly the accesses want gives it (as acc prints them,
// in any order).
func checkModelled(t *testing.T, want map[string][]string) {
	t.Helper()
	for line, w := range want {
		a := analyzeBash(line, "/home/u", "/w")
		var got []string
		for _, x := range a.accesses {
			got = append(got, acc(x))
		}
		slices.Sort(got)
		w = slices.Sorted(slices.Values(w))
		if len(a.reasons) > 0 || !slices.Equal(got, w) {
			t.Errorf("%q: reasons %q, accesses %q; want none and %q", line, a.reasons, got, w)
		}
	}
}

// checkMayWrite checks that line gives want as a path the command may
// write (a word of a command the analysis does not model).
func checkMayWrite(t *testing.T, line, want string) {
	t.Helper()
	a := analyzeBash(line, "/home/u", "/w")
	var got []string
	for _, x := range a.accesses {
		if x.unknown || x.mode != modeRead {
			got = append(got, x.path)
		}
	}
	if !slices.Contains(got, want) {
		t.Errorf("%q: paths it may write %q, want %q among them", line, got, want)
	}
}

// checkUnmodelled checks that each line is left to the rule for commands
// the analysis does not model: it is opaque, or some word is a path the
// command may write; and that no directory is recorded as code it runs.
func checkUnmodelled(t *testing.T, lines []string) {
	t.Helper()
	for _, line := range lines {
		a := analyzeBash(line, "/home/u", "/w")
		var unknown, runs bool
		for _, x := range a.accesses {
			unknown = unknown || x.unknown
			runs = runs || x.runs
		}
		if (!unknown && len(a.reasons) == 0) || runs {
			t.Errorf("%q: modelled (reasons %q, accesses %v), want it left to the unmodelled rule", line, a.reasons, a.accesses)
		}
	}
}

func TestBashAnalysisFindsEverySimpleCommand(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		units []string
	}{
		{"And", "git status && rm -rf x", []string{"git status", "rm -rf x"}},
		{"Or", "a || b", []string{"a", "b"}},
		{"Semicolon", "a; b", []string{"a", "b"}},
		{"Pipe", "a | b |& c", []string{"a", "b", "c"}},
		{"Background", "a & b", []string{"a", "b"}},
		{"Newline", "a\nb", []string{"a", "b"}},
		{"Subshell", "(a; b)", []string{"a", "b"}},
		{"BraceGroup", "{ a; b; }", []string{"a", "b"}},
		// A substitution's commands run before the command that holds it
		// and are recorded first.
		{"CommandSubstitution", "echo $(a)", []string{"a", "echo $(a)"}},
		{"Backquotes", "echo `a`", []string{"a", "echo `a`"}},
		{"NestedSubstitution", "echo $(b $(c))", []string{"c", "b $(c)", "echo $(b $(c))"}},
		{"ProcessSubstitution", "diff <(a) >(b)", []string{"diff <(a) >(b)", "a", "b"}},
		{"SubstitutionInQuotes", `echo "x $(a) y"`, []string{"a", "echo x $(a) y"}},
		{"SubstitutionInAssignment", "X=$(a) b", []string{"a", "b"}},
		{"SubstitutionInDefault", "echo ${X:-$(a)}", []string{"a", "echo ${X:-$(a)}"}},
		{"SubstitutionInArithmetic", "echo $(( $(a) + 1 ))", []string{"a", "echo $(( $(a) + 1 ))"}},
		{"SubstitutionInTest", "[[ -f $(a) ]]", []string{"a"}},
		{"SubstitutionInHeredoc", "cat <<EOF\n$(a)\nEOF", []string{"a", "cat"}},
		{"FunctionBody", "f() { a; }; f", []string{"a", "f"}},
		{"IfWhileFor", "if a; then b; fi; while c; do d; done; for i in 1; do e; done", []string{"a", "b", "c", "d", "e"}},
		{"Case", "case x in y) a;; esac", []string{"a"}},
		{"Negation", "! a", []string{"a"}},
		{"Time", "time a", []string{"a"}},
		{"Coproc", "coproc a", []string{"a"}},
		{"Declare", "export X=1", []string{"export X=1"}},
		{"QuoteRemoval", `'g'"i"t  st\atus`, []string{"git status"}},
		{"AnsiC", `$'g\x69t' status`, []string{"git status"}},
		{"Tilde", "ls ~ ~/x a~", []string{"ls /home/u /home/u/x a~"}},
		{"TildeQuoted", `ls "~" ~"/x"`, []string{"ls ~ ~/x"}},
		{"Home", `ls $HOME "${HOME}/x"`, []string{"ls /home/u /home/u/x"}},
		{"PWD", "ls $PWD", []string{"ls /w"}},
		{"PWDAfterCd", "cd a; ls $PWD", []string{"cd a", "ls $PWD"}},
		{"OtherVariable", "ls $X", []string{"ls $X"}},
		{"BashC", `bash -c "a; b"`, []string{"bash -c a; b", "a", "b"}},
		{"ShLc", `sh -lc 'a'`, []string{"sh -lc a", "a"}},
		{"NestedShells", `sh -c "bash -c 'a'"`, []string{"sh -c bash -c 'a'", "bash -c a", "a"}},
		{"Eval", `eval "a && b"`, []string{"eval a && b", "a", "b"}},
		{"EvalWords", `eval a '&&' b`, []string{"eval a && b", "a", "b"}},
		{"Env", "env -i X=1 a b", []string{"env -i X=1 a b", "a b"}},
		{"Wrappers", "timeout -s KILL 10 nice -n 5 nohup a", []string{"timeout -s KILL 10 nice -n 5 nohup a", "nice -n 5 nohup a", "nohup a", "a"}},
		{"Sudo", "sudo -u bob a", []string{"sudo -u bob a", "a"}},
		{"SudoAssignment", "sudo -u bob X=1 a b", []string{"sudo -u bob X=1 a b", "a b"}},
		{"Runner", "pyenv exec a -x", []string{"pyenv exec a -x", "a -x"}},
		{"Xargs", "xargs -n 1 a b", []string{"xargs -n 1 a b", "a b"}},
		{"XargsDefault", "xargs", []string{"xargs", "echo $(xargs input)"}}, // echo by default
		{"FindExec", `find . -exec a {} \; -execdir b {} +`, []string{"find . -exec a {} ; -execdir b {} +", "a {}", "b {}"}},
		{"Watch", "watch -n 1 a b", []string{"watch -n 1 a b", "a b"}},
		{"SuC", "su -c 'a' bob", []string{"su -c a bob", "a"}},
		{"CommandBuiltin", "command a; builtin b; exec c", []string{"command a", "a", "builtin b", "b", "exec c", "c"}},
		{"CommandV", "command -v a", []string{"command -v a"}},
		{"Comment", "a # b", []string{"a"}},
		{"AssignmentOnly", "X=1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := analyzeBash(tt.line, "/home/u", "/w")
			if !a.parsed {
				t.Fatalf("%q did not parse: %s", tt.line, a.reasons)
			}
			var got []string
			for _, u := range a.units {
				got = append(got, u.text)
			}
			if !slices.Equal(got, tt.units) {
				t.Errorf("units of %q = %q, want %q", tt.line, got, tt.units)
			}
		})
	}
}

func TestBashAnalysisMarksWrappers(t *testing.T) {
	a := analyzeBash("sudo env nice a", "", "")
	want := map[string]bool{"sudo env nice a": false, "env nice a": true, "nice a": true, "a": false}
	for _, u := range a.units {
		if w, ok := want[u.text]; !ok || w != u.wrapper {
			t.Errorf("unit %q wrapper=%v, want %v (known %v)", u.text, u.wrapper, w, ok)
		}
	}
	if a := analyzeBash("/usr/bin/rm -f x", "", ""); !slices.Equal(a.units[0].others, []string{"rm -f x"}) {
		t.Errorf("others of /usr/bin/rm = %q", a.units[0].others)
	}
}

func TestBashAnalysisListsFileAccesses(t *testing.T) {
	tests := []struct {
		name string
		line string
		want []string
	}{
		{"RedirectOut", "echo x > a", []string{"writes a"}},
		{"RedirectAppend", "echo x >> a", []string{"writes a"}},
		{"RedirectAll", "a &> b; a &>> c; a >| d", []string{"writes b", "writes c", "writes d"}},
		{"RedirectIn", "a < b", []string{"reads b"}},
		{"RedirectInOut", "a <> b", []string{"writes b"}},
		{"DupFD", "a 2>&1 >&2 <&0 >&-", nil},
		{"DupToFile", "a >& f", []string{"writes f"}},
		{"HereString", "a <<< x", nil},
		{"RedirectInSubstitution", "echo $(cat a > b)", []string{"reads a", "writes b"}},
		{"Cat", "cat -n a -- -b", []string{"reads a", "reads -b"}},
		{"HeadValue", "head -n 5 a", []string{"reads a"}},
		{"GrepPattern", "grep -r pat src", []string{"reads src"}},
		{"GrepE", "grep -e pat src", []string{"reads src"}},
		{"SortO", "sort -o out in", []string{"writes out", "reads in"}},
		// macOS's base64 writes -o FILE; -b and GNU's -w take a count.
		{"Base64O", "base64 -d -o out in", []string{"writes out", "reads in"}},
		{"Base64IO", "base64 -D -i in -o out", []string{"reads in", "writes out"}},
		{"Base64Cluster", "base64 -do out in", []string{"writes out", "reads in"}},
		{"Base64Long", "base64 --input=in --output out", []string{"reads in", "writes out"}},
		{"Base64Wrap", "base64 -w 0 in; base64 -b 76 in", []string{"reads in", "reads in"}},
		{"Tee", "a | tee -a x y", []string{"writes x", "writes y"}},
		{"Cp", "cp a b dir", []string{"reads a", "reads b", "writes dir", "writes dir/a", "writes dir/b"}},
		{"CpRecursive", "cp -r a dir", []string{"reads a", "writes dir +tree", "writes dir/a +tree"}},
		{"CpTarget", "cp -t dir a", []string{"writes dir", "writes dir/a", "reads a"}},
		{"Mv", "mv a b", []string{"deletes a", "reads a", "writes b +tree", "writes b/a +tree"}},
		// Into the working directory: the sources' names, not all of it;
		// a pattern, a directory's contents or -T all of it.
		{"MvIntoCwd", "mv k/a ./", []string{"deletes k/a", "reads k/a", "writes ./", "writes a +tree"}},
		{"CpRecursiveIntoCwd", "cp -r k/a ./.", []string{"reads k/a", "writes ./.", "writes a +tree"}},
		{"CpContentsIntoCwd", "cp -r k/. .", []string{"reads k/.", "writes . +tree", "writes . +tree"}},
		{"CpContentsByTarget", "cp -r -t . k/.", []string{"writes .", "writes . +tree", "reads k/."}},
		{"CcDepFile", "cc -MMD -MT t -I inc -c x.c", []string{"reads inc", "reads MD +unknown", "reads D +unknown",
			"reads T +unknown", "reads t +unknown", "reads x.c +unknown", "writes x.d"}},
		{"CpAsCwd", "cp -rT k .", []string{"reads k", "writes . +tree", "writes k +tree"}},
		{"CpIntoAboveLink", "cp -r k/a l/..", []string{"reads k/a", "writes l/.. +tree", "writes a +tree"}},
		{"CpPatternIntoCwd", "cp k/G* .", []string{"writes .", "writes G*"}},
		{"Rm", "rm -rf a b", []string{"deletes a", "deletes b"}},
		{"Chmod", "chmod 600 a", []string{"writes a"}},
		{"ChmodReference", "chmod --reference=r a", []string{"writes a"}},
		{"SedInPlace", "sed -i.bak -e s/a/b/ f", []string{"writes f", "writes f.bak"}},
		{"SedRead", "sed s/a/b/ f", []string{"reads f"}},
		// BSD sed's options end at the first operand: it reads -i.bak and
		// --; its -l takes no value: 5 is the script and it reads p.
		{"SedPermuted", "sed s/a/b/ f -i.bak -- -x", []string{"writes f", "writes f.bak", "writes -x", "writes -x.bak", "reads -i.bak", "reads --"}},
		{"SedLineLength", "sed -nl 5 p f", []string{"reads f", "reads p"}},
		{"Dd", "dd if=a of=b bs=1", []string{"reads a", "writes b"}},
		{"Touch", "touch -r ref a", []string{"reads ref", "writes a"}},
		{"CurlUpload", "curl -T a -o b -d @c --data-binary @d -F f=@e https://x", []string{"reads c", "reads d", "reads e", "reads a", "writes b"}},
		{"CurlFileURL", "curl file:///etc/passwd", []string{"reads /etc/passwd"}},
		{"CurlRemoteName", "curl -sO https://h/a/b.txt?x=1 --remote-name-all file:///etc/c", []string{"reads /etc/c", "writes b.txt", "writes c"}},
		{"WgetRemoteName", "wget -q https://h/x.tgz https://h", []string{"writes x.tgz", "writes index.html"}},
		{"WgetOutputDocument", "wget -qO out https://h/x.tgz", []string{"writes out"}},
		{"CurlUploadToFileURL", "curl -sT a file:///w/b", []string{"writes /w/b", "reads a"}},
		{"UnknownCommand", "frob -l 1 --out=~/x -o/etc/y z", []string{"reads 1 +unknown", "reads /home/u/x +unknown", "reads /etc/y +unknown", "reads z +unknown"}},
		{"InterpreterOperands", "python3 -m mymod - out", []string{"reads mymod +unknown", "reads out +unknown"}},
		{"JSONToolOperands", "python3 -m json.tool --indent 2 in.json out.json", []string{"reads in.json", "writes out.json"}},
		{"JSONToolCluster", "python3 -Im json.tool .git/config", []string{"reads .git/config"}},
		{"JSONToolClusterOutput", "python3 -bIm json.tool a.json b.json", []string{"reads a.json", "writes b.json"}},
		{"JSONToolUnknownOption", "python3 -m json.tool --x in.json", []string{"reads json.tool +unknown", "reads in.json +unknown"}},
		{"PerlScriptOperands", "perl -p x.pl f", []string{"reads x.pl +unknown", "reads f +unknown"}},
		{"UnknownAttachedValue", "frob -qfpre-c --long", []string{"reads fpre-c +unknown", "reads pre-c +unknown", "reads re-c +unknown", "reads e-c +unknown", "reads -c +unknown"}},
		{"GitWorktreeMove", "git worktree move -f w ~/w", []string{"writes w +tree", "writes /home/u/w +tree"}},
		{"TarEveryArchive", "tar -cM -f a -f b f", []string{"reads f", "writes a", "writes b"}},
		{"NoFilesCommand", "sleep 1 /x", nil},
		{"Tar", "tar czf out.tgz src", []string{"reads src", "writes out.tgz"}},
		{"Find", "find a b -name x", []string{"reads a", "reads b"}},
		{"ShScript", "bash x.sh", []string{"reads x.sh"}},
		{"TildeAfterEquals", "dd of=~/x", []string{"writes /home/u/x"}},
		{"SudoEdit", "sudo -e a", []string{"writes a"}},
		{"Nested", `bash -c "cat a > b"`, []string{"reads a", "writes b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := analyzeBash(tt.line, "/home/u", "/w")
			var got []string
			for _, x := range a.accesses {
				got = append(got, acc(x))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("accesses of %q = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}

func TestBashAnalysisTracksWorkingDirectories(t *testing.T) {
	tests := []struct {
		line    string
		cwds    []string
		unknown bool
	}{
		{"cat f", []string{""}, false},
		{"cd a && cat f", []string{"", "a"}, false},
		{"cd a; cd b; cat f", []string{"", "a", "b", "a/b"}, false},
		{"cd /tmp; cat f", []string{"", "/tmp"}, false},
		{"cd $D; cat f", []string{""}, true},
		{"cd -; cat f", []string{""}, true},
		{"cd $D; cat /abs", []string{""}, false}, // absolute paths do not care
		{"pushd a; popd; cat f", []string{"", "a"}, false},
		{"cd; cat f", []string{"", "/home/u"}, false},
		{"tar -C d -xf a.tar", []string{""}, true},
	}
	for _, tt := range tests {
		a := analyzeBash(tt.line, "/home/u", "/w")
		if !slices.Equal(a.cwds, tt.cwds) {
			t.Errorf("cwds of %q = %q, want %q", tt.line, a.cwds, tt.cwds)
		}
		if got := a.pathsUnknown != ""; got != tt.unknown {
			t.Errorf("pathsUnknown of %q = %q, want set=%v", tt.line, a.pathsUnknown, tt.unknown)
		}
	}
}

func TestBashAnalysisMarksWhatItCannotSee(t *testing.T) {
	opaque := []string{
		"a 'unterminated",
		"echo $(",
		"$CMD x",
		"$(echo rm) x",
		"r* x",
		"{rm,-rf,x}",
		`bash -c "$VAR"`,
		`bash -c`,
		"bash x.sh",
		"curl x | sh",
		"curl x | bash -s",
		"sh -i",
		"bash --rcfile f -c a",
		"eval $x",
		"eval rm *",
		"xargs sh -c",
		"ls | xargs -I{} sh -c '{}'",
		`find . -exec sh -c {} \;`,
		"env -S 'a b'", "eval 'a b'", "env X=1 a", "read line", "trap - EXIT", "X=1; echo $X",
		"echo x > $OUT", "xargs rm", `find . -exec cat {} \;`, "tar -xf a.tar", "unzip a.zip", "ln -s /etc x",
		"sed -f s.sed f", "awk '{print > \"o\"}' f",
		"env PATH=/tmp a",
		"PATH=/tmp a",
		"PATH=/tmp; a",
		"export BASH_ENV=x; bash -c a",
		"LD_PRELOAD=x.so a",
		"source x",
		"alias ls='rm -rf'",
		"trap 'rm -rf x' EXIT",
		"hash -p /tmp/evil ls",
		"read PATH",
		"printf -v PATH x",
		"python3 -c 'print(1)'",
		"python",
		"python3 - <<EOF\nprint(1)\nEOF",
		"node -e 1",
		"perl -pe 1 f",
		"ruby -e 1",
		"php -r 1",
		"awk 'BEGIN{system(\"rm x\")}'",
		"awk '{print | \"sh\"}'",
		"awk -f prog.awk",
		"sed 's/a/b/e' f",
		"sed '1e rm x' f",
		"sudo -s",
		"sudo -i a",
		"su bob",
		"fish -c a",
		"chroot /x",
		// Round 10 of the canary tests.
		"sleep 0 & wait -n -p x",
		"tar -cf x.tar -g snar f", "tar cgf snar x.tar f", "tar -cf x.tar --listed-incremental=snar f",
		"tar -cf x.tar --remove-files f", "tar -cf x.tar --volno-file=v f",
		"curl -o '#1' 'file:///{a,b}'", "curl --output=x#1 'https://h/[1-2]'",
		"sed -n ':a w f' x", "sed -n 'b x w f' x", "sed -n 't x;w f' x",
		"{ sleep 1; echo x >> y; } & cp -d l y", "{ sleep 1; echo x >> y; } | cp -d l y",
		"for i in 1 2; do echo x >> y; cp -d l y; done", "while true; do echo x >> y; mv l y; done",
		"for i in 1 2; do git status; cd d; done", "until false; do git status; cd d; done",
		"mktemp x.XXX", "mknod f p", "cd - && frob out",
		"echo hi \\\r\nrm -f c", "echo hi\r\nls", "cat <<EOF\nx\n\\\nEOF\nrm -f c\nEOF", "cat <<-EOF\n\\\nEOF\nrm x\nEOF",
		"echo hi # x \\\nrm -f c", "echo hi #\\\nrm -f c", "ls; # \\\nrm x", `sh -c 'echo # \
rm x'`,
		"view -es -c '!x' -c q", "vimdiff -c '!x' a b", "vim.basic -c '!x'", "editor f", "red f",
		"perl5.36.0 -e 1", "perl5.36-x86_64-linux-gnu -e 1", "tclsh8.6", "wish8.6", "node18 -e 1",
		"gawk5 'BEGIN{system(\"x\")}'", "bash5.2 -c 'eval x'",
		"scp -S prog h:x y", "scp -o ProxyCommand=x h:x y", "scp -Fcfg h:x y", "sftp -S prog h", "ssh-agent x",
		"rsync --remove-source-files a b", "rsync --remote-option=--log-file=f a b", "rsync -aM--log-fil=f a b",
		"rsync --remote-opt=--no-motd a b", "ip netns exec n x", "zstd --output-dir-flat=d f", "zstd --output-dir-m d f",
		"wget --use-askpass=prog https://u@h/", "curl -OJ https://h/x", "wget -r https://h/", "wget -x https://h/a/b",
		`zsh -c 'echo *(e:"rm -f c":)'`, `zsh -c 'for path in bin; do ls; done'`, `zsh -c 'echo *(+rm)'`,
		"curl -O https://h/a%2Fb", "wget --content-disposition https://h/x", "dpkg-deb -x x.deb .", "uudecode x.uu", "sqlite3 :memory: '.shell x'", "psql -c '\\! x'", "xz -S .json f", "unxz --suffix=.j f.j", "lzma -S .json f", "pigz -N f.gz",
		// Tools that write their own configuration, which later commands
		// read (npm's script-shell, go's GOFLAGS, kubectl's exec plugins).
		"go env -w GOFLAGS=-toolexec=x", "go env -wGOFLAGS=x", "go env -w=GOFLAGS=x", "go env -u GOFLAGS",
		"go telemetry on", "npm config set script-shell x", "npm set x y", "npm --global config set a b",
		"npm $x set a b", "pnpm config delete a", "pip3 config set a.b c", "kubectl config set-credentials u --exec-command=x",
		"kubectl config use-context c", "direnv allow", "aws configure", "gh alias set x y", "gh extension install o/r",
		"poetry config a b", "helm plugin install x", "tic x.ti", "conda config --set a b",
		// Round 13: an option's separate value is not the script.
		"python3 -W ignore -c 1", "python3 -X dev -c 1", "python3 -Wmodule -c 1", "python3 -bW x -c 1",
		"node --title x -e 1", "node -r fs -e 1", "perl -I x -e 1",
		// Round 13: makefile text and compiler wrappers given on the line.
		"make --eval=x", "make -E x", "make --ev=x", "make -f -", "make -qf-", "make --file=/dev/stdin",
		"make 'x:=$(shell y)'", "make 'x!=y'", "make CFLAGS='$(shell y)'", "make MAKEFLAGS=-k", "make -j 'x:=$(y)'",
		"gcc -wrapper sh,-c,x a.c", "gcc @args", "x86_64-linux-gnu-gcc-12 -wrapper a b.c", "clang-16 @f",
		"python3 -i x.py", "python3 -ic 1", "python3 -biW x y.py", "python3 -m timeit 1", "python3 -mcode", "python3 -m pdb x.py",
		// -W, -X and -Q take the next word whatever it looks like: -m is
		// their value and the word after it the script the line wrote.
		"echo x > json.tool; python3 -W -m json.tool a.json", "echo x > m; python3 -bX -m m", "echo x > m; python3 -W -W -W -m m",
		"xz --files=l", "xz --files0 l", "unxz --fil=l", "zstd --filelist=l", "zstd --filelist l", "lzma --files=l",
		"sed p f -e 'w x'", "sed p f --expression='1e x'", "sed -nl 5 '1e x' f", "sed p f -f s.sed", "sed p f -s -n -e 'w x'",
		"file -C -m m", "file --compile -m m", "file -bC -m m",
		// tree -R writes 00Tree.html in every directory it lists; less
		// -o/-O copy a pipe into a file (round 129).
		"tree -a -R -L 1 -H . -o /dev/null ..", "tree -aR -L 1 -H . ..", "less -o ../log", "less --log-file=../log x",
		"less -O../log", "less --LOG-FILE ../log",
		"bat cache --build --source kit --target ..", "bat cache -b", "bat cache --clear", "bat --generate-config-file",
		"cat <<$'E\\x41'\nEA\nrm x\nE\\x41", "cat <<$'EOF'\nx\nEOF",
		"npm explore x -- 'cd .. && y'",
		"pdb3 x.py", "pdb3.11 x.py", "pdb x.py", "scalar register", "cpan X", "pypy3 -c 1", "ipython3 -c 1",
		"not-14 x", "not x", "lli-14 x.ll", "x86_64 x", "i386 x", "memusage x", "sotruss x", "fakeroot-sysv x",
		"dpkg-architecture -c x", "msgexec -i x.po y", "msgfilter -i x.po y", "slogin -o ProxyCommand=x h",
		"ssh-copy-id -o ProxyCommand=x h", "groff -U -Tascii", "nroff -U f", "pic -U f",
		"ptar -xf x.tar", "gpgtar -d x", "split-file-14 in d", "zstdmt --filelist=l", "activate-global-python-argcomplete --user",
		"go build -toolexec x .", "go run -exec=x .", "go vet -vettool=x", "go build --toolexec x", "go1.22 test -exec x",
		"go build -ldflags=-extld=x .", "go build -ldflags '-linkmode=external -extld=x' .",
		strings.Repeat("a;", maxUnits+1),
		strings.Repeat("x", maxCommandLen+1),
		"a \x00 b",
		"a \xff b",
		strings.Repeat(`eval "`, maxNesting+2) + "a" + strings.Repeat(`"`, maxNesting+2),
	}
	for _, line := range opaque {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%.60q: not opaque (units %v)", line, a.units)
		}
	}
	seen := []string{
		"git status", "ls -la", "python3 x.py", "python3 -m pytest", "node x.js", "bash -c 'a'",
		"awk '{print $1}' f", "sed -n 1p f", "python --version", "bash --version",
		"command -v a", "env a", "nice -n 5 a", "timeout 5 a", "nohup a",
		"wait", "wait -n", "tar -czf x.tgz f", "curl -o out https://x", "sed -n ':a;N;ba' f",
		"sed '/x/b end; s/a/b/; :end' f", "echo x > y && cp y z",
		"for i in 1 2; do echo $i; done | cat > out", "git status && cd sub && ls",
		"sha256sum f", "b2sum f", "bzip2 -k f", "scp a b", "ip addr", "echo hi # a comment\nls", "# x\nls # y \\ z", "python3.11 x.py", "perl5.36.0 x.pl", "go1.22 version",
		"go env", "go env GOPATH", "go build ./...", "go telemetry", "npm config get registry", "npm config list",
		"npm install", "npm test", "kubectl config view", "kubectl config view --raw", "kubectl get pods",
		"python3 -W ignore x.py", "python3 -Wdefault -m pytest", "python3 -mjson.tool f",
		"echo x > m; python3 -W -W -m json.tool f", "echo x > m; python3 -X --x -m json.tool f", "node --inspect x.js",
		"pypy3 x.py", "ipython3 x.py", "pydoc3 os",
		"groff -Tascii f", "gcc-12 -c x.c",
		"go build -o bin/x ./cmd/x", "go test -run X ./...", "go build -ldflags=-s .", "python3 -m timeit_x",
		"make", "make -j4 all", "make CC=gcc test", "make -C sub -f Makefile.x", "gcc -O2 -o prog x.c", "cc -c x.c",
		"pip3 config list", "gh pr list", "poetry config --list", "cargo build", "docker ps", "helm list",
	}
	for _, line := range seen {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q: opaque: %s", line, a.reasons)
		}
	}
	unknownPaths := []string{
		"cat \"$F\"", "cat secret/*", "rm {a,b}", "cat ~bob/x",
		"curl -O https://x/y", "wget https://x/y", "cd \"$D\" && cat f",
	}
	for _, line := range unknownPaths {
		if a := analyzeBash(line, "/home/u", "/w"); a.pathsUnknown == "" {
			t.Errorf("%q: paths not marked unknown", line)
		}
	}
}

func TestBashAnalysisWithoutHomeTreatsTildeAsUnknown(t *testing.T) {
	a := analyzeBash("rm -rf ~ $HOME", "", "")
	if a.pathsUnknown == "" || a.units[0].text != "rm -rf ~ $HOME" {
		t.Errorf("without a home: units %v, pathsUnknown %q", a.units, a.pathsUnknown)
	}
}

func TestProgramNameDropsVersionsOfKnownPrograms(t *testing.T) {
	for name, want := range map[string]string{
		"perl5.36.0": "perl", "perl5.36-x86_64-linux-gnu": "perl", "tclsh8.6": "tclsh", "vim.basic": "vim",
		"python3.11": "python", "bash5.2": "bash", "sh.distrib": "sh", "sha256sum": "sha256sum", "b2sum": "b2sum",
		"bzip2": "bzip2", "go1.22": "go1.22", "7z": "7z", "perl": "perl", "": "",
	} {
		if got := programName(name); got != want {
			t.Errorf("programName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestIsPythonMatchesTheVersionedNames(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"python", true}, {"python3", true}, {"python3.12", true}, {"python2.7.18", true}, {"python.", true},
		{"pythonx", false}, {"python3-config", false}, {"ipython", false}, {"pytho", false}, {"", false},
		{"python3.12m", false}, {"Python3", false},
	}
	for _, tt := range tests {
		if got := isPython(tt.name); got != tt.want {
			t.Errorf("isPython(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
