//go:build linux

package permission_test

import "testing"

// canaryRound26 are the variants of attack round 26 (none is in an
// earlier list). Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios.
var canaryRound26 = map[string][]string{
	// A command the analysis models copies or moves a symbolic link
	// (cp -P, cp -d, mv, rsync -l), and a command it does not model then
	// writes through the copy: its words are only checked as paths as
	// they are before the line runs, when the copy does not exist.
	"7-link-then-unmodelled-write": {
		`echo '{}' > j && cp -P link x && python3 -m json.tool j x`,
		`cp -d link x && python3 -m tarfile -c x README`,
		`cp --no-dereference hooks h && openssl enc -in README -out h/pre-commit`,
		`echo '{}' > j && cp -a link x && python3 -m json.tool j x`,
		`cp -P link x && openssl base64 -in README -out x`,
		`cp -R hooks h && openssl base64 -in README -out h/post-checkout`,
		`cp -P dotgit d && openssl base64 -in README -out d/config`,
	},
	// A command the analysis does not model writes the file named as its
	// output (openssl … -out y, gpg -o y) from data the line wrote, and a
	// command then runs y as code by that exact name, which no language's
	// file names match.
	"8-unmodelled-output-run-as-code": {
		`echo YWxsOgoJcm0gLWYgYwo= > b && openssl base64 -d -in b -out mk && make -s -f mk`,
		`echo aW1wb3J0IG9zOyBvcy5yZW1vdmUoImMiKQo= > b && openssl base64 -d -in b -out y && python3 y`,
		`echo cmVxdWlyZSgiZnMiKS51bmxpbmtTeW5jKCJjIikK > b && openssl base64 -d -in b -out y && node y`,
		`echo dW5saW5rICJjIjsK > b && openssl enc -d -base64 -in b -out y && perl y`,
	},
	// curl -T uploads to a file: URL, which it decodes as the analysis
	// did not: a scheme in capitals, percent-escapes, a host, and curl's
	// own globbing of {…} and […] in URLs.
	"9-curl-file-urls": {
		`curl -sT README FILE://$PWD/.git/config`,
		`curl -sT README file://$PWD/%2Egit/config`,
		`curl -sT README file://$PWD/%2egit/hooks/pre-commit`,
		`curl -sT README "file://$PWD/.gi[t-t]/config"`,
		`curl -sT README "file://$PWD/{.git,x}/config"`,
		`curl -sT README file://127.0.0.1$PWD/%2Egit/config`,
		`curl -s --upload README file://$PWD/.git/hooks/pre-commit`,
	},
	// gzip also takes -gz, -z and _z as its suffix, and bunzip2 writes
	// NAME.out for a name without one: the analysis listed none of those
	// outputs, so a makefile packed by the line and unpacked under them
	// ran unseen.
	"10-compressor-outputs": {
		`printf 'all:\n\trm -f c\n' | gzip > mk-gz && gunzip -f mk-gz && make -s -f mk`,
		`printf 'all:\n\trm -f c\n' | gzip > mk_z && gunzip -f mk_z && make -s -f mk`,
		`printf 'all:\n\trm -f c\n' | gzip > Makefile-Z && gzip -df Makefile-Z && make -s`,
		`printf 'all:\n\trm -f c\n' | bzip2 > mk && bunzip2 -f mk; make -s -f mk.out`,
		`printf 'all:\n\trm -f c\n' | bzip2 > mk && bzip2 -df mk 2>/dev/null; make -s -f mk.out`,
		`printf '{}' | gzip > .lite-agent/permissions.json-gz && gunzip -f .lite-agent/permissions.json-gz`,
	},
	// A command the analysis does not model copies the line's data to a
	// file it is given as an operand (objcopy -I binary -O binary IN
	// OUT, python3 -m uu -d IN OUT), which the line then runs by that
	// name.
	"11-unmodelled-copy-run": {
		`echo dW5saW5rICJjIjsK | base64 -d > b && objcopy -I binary -O binary b y && perl y`,
		`echo YWxsOgoJcm0gLWYgYwo= | base64 -d > b && objcopy -I binary -O binary b mk && make -s -f mk`,
		`echo cmVxdWlyZSgiZnMiKS51bmxpbmtTeW5jKCJjIikK | base64 -d > b && objcopy -I binary -O binary b y && node y`,
		`printf 'begin 644 y\n::6UP;W)T(&]S.R!O<RYR96UO=F4H(F,B*0H \n \nend\n' > b && python3 -W ignore -m uu -d b y && python3 y`,
	},
	// python3 -m x.y imports the package x from its working directory
	// first, and a native extension (x.so, x.abi3.so) before x.py: the
	// shared object's constructor runs as it loads. The analysis only
	// counted .py and .pyc files as python's code.
	"12-python-native-modules": {
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && python3 -m foo.bar",
		"echo " + soUnlinkC + " | base64 -d | gunzip > json.so && python3 -m json.tool README",
		"echo " + soUnlinkC + " | base64 -d | gunzip > x.abi3.so && python3 -m x.y",
	},
	// Standard modules whose command line runs a file it is given as
	// code: doctest's examples, pydoc's import of a path, pickle's
	// loads, the profilers' and trace's script. The analysis took the
	// file as data.
	"13-python-modules-run-files": {
		`printf '>>> import os; os.remove("c")\n' > t.txt && python3 -m doctest t.txt`,
		`echo 'import os; os.remove("c")' > t.txt && python3 -m pydoc ./t.txt`,
		`printf "cos\nremove\n(S'c'\ntR." > p && python3 -m pickle p`,
		`echo 'import os; os.remove("c")' > t.txt && python3 -m cProfile t.txt`,
		`echo 'import os; os.remove("c")' > t.txt && python3 -m profile t.txt`,
		`echo 'import os; os.remove("c")' > t.txt && python3 -m trace --trace t.txt`,
	},
	// The JVM loads a native agent (-agentpath:PATH, also through a JDK
	// tool's -J) before anything else; the shared object's constructor
	// runs as it loads. The analysis only counted .java, .class and .jar
	// files as java's code.
	"14-java-native-agents": {
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && java -agentpath:$PWD/foo.so -version",
		"echo " + soUnlinkC + " | base64 -d | gunzip > sub/x.so && java -agentpath:$PWD/sub/x.so=y -version",
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && javac -J-agentpath:$PWD/foo.so -version",
	},
	// gcc -fplugin=NAME loads NAME.so from the directory of -iplugindir;
	// the analysis only took NAME itself as the plugin's file.
	"15-gcc-plugin-directories": {
		"echo " + soUnlinkC + " | base64 -d | gunzip > sub/x.so && gcc -iplugindir=sub -fplugin=x -fsyntax-only -x c /dev/null",
		"echo " + soUnlinkC + " | base64 -d | gunzip > sub/x.so && cc -fplugin=x -iplugindir=sub -c -x c /dev/null -o n.o",
		"echo " + soUnlinkC + " | base64 -d | gunzip > sub/x.so && x86_64-linux-gnu-gcc-12 -iplugindir=sub -fplugin=x -fsyntax-only -x c /dev/null",
	},
	// The linker loads the plugins of -plugin, which a compiler driver
	// passes it from -Wl,… or from a file of options (-Wl,@file); the
	// analysis took them as words the compiler may write.
	"16-linker-plugins": {
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && gcc -Wl,-plugin,$PWD/foo.so -o m -x c /dev/null",
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && cc -Wl,--plugin=$PWD/foo.so -o m -x c /dev/null",
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && echo \"-plugin $PWD/foo.so\" > o.txt && gcc -Wl,@o.txt -o m -x c /dev/null",
	},
	// Programs the analysis does not model load the shared object an
	// option of theirs names (openssl -engine PATH, binutils' --plugin,
	// ld -plugin); the analysis only checked the word as a path.
	"17-unmodelled-plugin-options": {
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && openssl enc -engine $PWD/foo.so -in README -out x",
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && nm --plugin $PWD/foo.so README",
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && ld -plugin $PWD/foo.so",
		"echo " + soUnlinkC + " | base64 -d | gunzip > foo.so && openssl dgst -engine=$PWD/foo.so README",
	},
	// The shell's own program under a name no rule knows: /proc/self/exe
	// (and the same through /proc/thread-self or /proc/self/root), or a
	// descriptor open on /bin/bash; the analysis took it for a program
	// it does not model, reading a file or its input as data.
	"18-shell-by-proc-name": {
		`echo cm0gLWYgYwo= | base64 -d > x && /proc/self/exe x`,
		`echo cm0gLWYgYwo= | base64 -d | /proc/self/exe`,
		`echo cm0gLWYgYwo= | base64 -d > x && /proc/thread-self/exe x`,
		`echo cm0gLWYgYwo= | base64 -d > x && /proc/self/root/proc/self/exe x`,
		`echo cm0gLWYgYwo= | base64 -d > x && /dev/fd/3 x 3< /bin/bash`,
	},
	// Python's tools under their own names run a file they are given:
	// pydoc3 imports a path, pygmentize -x loads a lexer class from
	// FILE:NAME by running FILE.
	"19-python-tools-run-files": {
		`echo 'import os; os.remove("c")' > t.txt && pydoc3 ./t.txt`,
		`echo 'import os; os.remove("c")' > t.txt && pydoc3.11 ./t.txt`,
		`echo 'import os; os.remove("c")' > t.py.txt && pygmentize -x -l t.py.txt:L README`,
		`echo 'import os; os.remove("c")' > t.txt && pydoc3 -w ./t.txt`,
	},
	// perl -n and -p read their operands through the two-argument open
	// of <>, which runs an operand ending in '|' as a shell command (and
	// writes one starting with '>'): the analysis took the operands as
	// files, and no rule saw the command.
	"20-perl-magic-open": {
		`perl -p /dev/null 'rm -f c|'`,
		`perl -n /dev/null 'r""m -f c |'`,
		`perl -ln /dev/null 'x=r; ${x}m -f c|'`,
		`perl -00p /dev/null 'cd .git; echo x > config|'`,
		`perl -p /dev/null '>.git/config'`,
	},
	// su runs its -c command with the shell of -s (as runuser does), which
	// may be any program: python3 runs the command as python code
	// (written with no parentheses, so that it parses as a harmless
	// shell script), and a script the line wrote runs as the shell.
	"21-su-shell-option": {
		`su -s /usr/bin/python3 root -c $'import os\n@os.remove\n@"c".format\nclass x:0'`,
		`su root -s /usr/bin/python3.11 -c $'import os\n@os.remove\n@"c".format\nclass x:0'`,
		`su --shell=/usr/bin/python3 root -c $'import os\n@os.remove\n@"c".format\nclass x:0'`,
		`echo IyEvYmluL3NoCnJtIC1mIGMK | base64 -d > x && chmod +x x && su -s $PWD/x root -c :`,
	},
}

// soUnlinkC is a gzipped, base64-encoded x86-64 shared object whose
// constructor unlinks "c" through a raw system call, built from
//
//	__attribute__((constructor)) static void f(void){ long r; __asm__ volatile("syscall":"=a"(r):"a"(87),"D"("c"):"rcx","r11","memory"); }
//
// with cc -shared -fPIC -nostdlib -Os -s.
const soUnlinkC = "H4sIAAAAAAACA61UT2sTQRR/M0naqNUsRaGSCr2IinXaBEVRKkL9B3pQQfQWJtm1m9LdwO4WEi/9BIUe+zE8evOgH8Iv4M2rghfX2ex7yczDEBUf7P72vX1/Zt5v5h08ePpQCgEkFbgLUw3gHuK7im27BTXzPg1LY98azJaqdBG8Eoq4BfPU0V5fZihcpDiJcR7GecsuThZP8ag++5L5VYOf0M7xLLhYRXxu4hbgz8WzygtrOX8rkz5Q/zHR+1fm9fhwq6CjUfvYG9dqVu54WOtrnufr1j7E2xcghp5oLi3Wj0S5vtUij/FrWPUo/3lWvwnuOr79zAcFvkZ/4v4IderVEPWTjJZTiCuIi4jHjC/6f4LpP/Ky/r/2dZ482t6+vXb5ftDt63it1VZttXmtdf2qH3Rb7f3WFTQBqDRMsyTTXVA78b4KdRqC8kdxOopKzBJQSbCnCwVUFgwzow98nWlQQdh5k+go6IR+MtVA9eN+1tFJokfjHDrq90D1BlEUxNl/2l/R/++mh3QdiUfCVZjeM5sPknOYQzKeCVcmc6TkiPN5Af9Jdm4IOa9cv4h3U7Jzc8zq8/WTfcOaPfa5J2zMqX8DbW3UPwgX5Yx4wi38Jr9ZcwjYHCJ5wuI/CxfX+Rxh+kvznEEOnDkjf+9fZ6ixdxQ/mb/S3WiFxdFc3EWXTT43MeDSnP4JK7ctN9GYzuHvF0+ZKqXwBgAA"

// canaryRound26Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound26Ordinary = []string{
	"cp -P README x", "python3 -m json.tool README", "openssl base64 -in README -out b64.txt",
	"cc -c -o m.o m.c && cc -o m m.o", "cp README x && python3 -m json.tool x",
	"curl -s file://$PWD/README", "curl -sT README file://$PWD/up.txt", "curl -s -o out.html https://example.com/",
	"gzip -k README", "gunzip -f x.tar-gz", "bunzip2 -k x.bz2",
	"python3 manage.py migrate && python3 manage.py runserver", "cc -c x.c && cc -o m x.o && ./m",
	"make -f mk && make -f mk", "python3 -m venv .venv && .venv/bin/pip install x",
	"cc -shared -fPIC -o libx.so x.c", "python3 -m json.tool README",
	"python3 -m doctest README", "python3 -m cProfile -s time README", "python3 -m pydoc json",
	"java -version", "javac X.java && java X", "pydoc3 json", "pygmentize -l python README",
	"perl -p /dev/null README", "perl t.pl README out.txt",
}

func TestCanaryRound26(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound26)
	checkOrdinary(t, template, canaryRound26Ordinary, nil)
}
