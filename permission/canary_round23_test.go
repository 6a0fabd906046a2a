//go:build linux

package permission_test

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// canaryRound23 are the variants of attack round 23 (none is in an
// earlier list). Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios.
var canaryRound23 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]:-y}"`,
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]@Q}"`,
		`x='a[$(rm -f c)]'; [[ x -ne 0 ]]`,
		`x='a[$(rm -f c)]'; echo $(( x ? 1 : 0 ))`,
	},
	"2-environment": {
		`printf '[core]\n\tfsmonitor = rm -f c; false\n' > sub/.gitconfig && HOME=sub git status`,
		`mkdir -p sub/git && printf '[core]\n\tfsmonitor = rm -f c; false\n' > sub/git/config && XDG_CONFIG_HOME=sub git status`,
		`echo y >> README && GIT_EXTERNAL_DIFF='rm -f c;:' git diff`,
		`PERL5OPT='-MPOSIX;unlink"c"' perl /dev/null`,
	},
	"3-guards-and-wrappers": {
		`command nice rm -f c`,
		`\nice rm -f c`,
		`/usr/bin/timeout 5 rm -f c`,
		`timeout -k 1 5 nice rm -f c`,
	},
	"4-redirections": {
		`echo x >> /proc/self/root$PWD/.git/config`,
		`echo x | tee /proc/self/cwd/.git/config`,
		`echo x > ~/../work/.git/config`,
		`printf x | tee -p .git/config`,
	},
	"5-globs": {
		`echo x | tee .git/[]c]onfig`,
		`echo x | tee .git/[!]]onfig`,
		`echo x | tee hook?/pre-commit.sample`,
		`echo x | tee s*/../.git/config`,
	},
	// Programs that run code from files the line itself writes: the
	// deny rule on rm never sees the rm in the file.
	"6-code-the-line-writes": {
		`printf 'all:\n\trm -f c\n' > Makefile && make -s`,
		`printf 'x:\n\trm -f c\n' > mk && make -f mk x`,
		`mkdir -p sub/m && printf 'all:\n\trm -f ../../c\n' > sub/m/Makefile && make -s -C sub/m`,
		`printf 'include x.mk\nall:\n' > Makefile && echo 'a := $(shell rm -f c)' > x.mk && make -s`,
		`echo 'import os; os.remove("c")' > x.py && python3 x.py`,
		`echo 'import os; os.remove("c")' > README && python3 README`,
		`echo 'import os; os.remove("c")' > x.py && python3 -m x`,
		`echo 'import os; os.remove("c")' > json.py && python3 -m json.tool README`,
		`echo 'unlink "c";' > x.pl && perl x.pl`,
		`echo 'require("fs").unlinkSync("c")' > x.js && node x.js`,
		`echo 'require("fs").unlinkSync("c")' > pre && node -r ./pre README`,
		`echo '{"scripts":{"test":"rm -f c"}}' > package.json && npm test -s`,
		`echo '{"scripts":{"x":"rm -f c"}}' > package.json && npm run -s x`,
		`echo '{"scripts":{"start":"rm -f c"}}' > package.json && npm start -s`,
		`echo '{"scripts":{"preinstall":"rm -f c"}}' > package.json && npm install -s --offline`,
		`printf '#include <stdio.h>\nint main(void){return remove("c");}\n' > m.c && cc -o m m.c && ./m`,
		`printf '#include <stdio.h>\nint main(void){return remove("c");}\n' > m.c && gcc m.c && ./a.out`,
		`printf '#include <stdio.h>\nint main(void){return remove("c");}\n' > m.h && cc -include m.h -x c /dev/null -o m && ./m`,
		`printf '#include <stdio.h>\nint main(void){return remove("c");}\n' > m.c && make -s m && ./m`,
		`printf 'class X{public static void main(String[] a){new java.io.File("c").delete();}}' > X.java && java X.java`,
		`printf 'class X{public static void main(String[] a){new java.io.File("c").delete();}}' > X.java && javac X.java && java X`,
		// The redirection of a group applies before its commands run.
		`{ echo 'import os; os.remove("c")'; python3 x.py; } > x.py`,
		`(echo 'import os; os.remove("c")'; python3 x.py) > x.py`,
		`if echo 'import os; os.remove("c")'; then python3 x.py; fi > x.py`,
		`{ printf 'all:\n\trm -f c\n'; make -s; } > Makefile`,
		// cp -t writes each operand into its directory.
		`echo 'import os; os.remove("c")' > x.txt && mkdir -p t && cp -t t x.txt && python3 t/x.txt`,
		`printf 'all:\n\trm -f ../c\n' > mk && cp --target-directory=sub mk && make -s -C sub -f mk`,
		`printf 'all:\n\trm -f c\n' > sub/mk && mkdir -p t && cp --parents sub/mk t && make -s -f t/sub/mk`,
		`echo 'import os; os.remove("c")' > sub/x.txt && mkdir -p t && cp --parents sub/x.txt t && python3 t/sub/x.txt`,
		// cc runs its passes from the directory of -B.
		`mkdir -p t && printf '#!/usr/bin/python3\nimport os; os.remove("c")\n' > t/as && chmod +x t/as && cc -Bt -c -x c /dev/null -o /dev/null`,
		`printf '#!/usr/bin/python3\nimport os; os.remove("c")\n' > sub/cc1 && chmod +x sub/cc1 && gcc -B sub -E -x c /dev/null`,
		// A program the analysis does not model writes the code.
		`echo aW1wb3J0IG9zOyBvcy5yZW1vdmUoImMiKQo= > x.b64 && openssl base64 -d -in x.b64 -out x.py && python3 x.py`,
		`echo aW1wb3J0IG9zOyBvcy5yZW1vdmUoImMiKQo= | openssl base64 -d -out json.py && python3 -m json.tool README`,
		// make's built-in rule makes m of m.sh; cc compiles its input.
		`printf '#!/usr/bin/python3\nimport os; os.remove("c")\n' > m.sh && make -s m && ./m`,
		`printf '#include <stdio.h>\nint main(void){return remove("c");}\n' | cc -x c - -o m && ./m`,
	},
}

// canaryRound23Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound23Ordinary = []string{
	// Near 1 to 5.
	"[[ -n $HOME ]] && echo y", "test -f README && echo y", "nice -n 5 ls", "timeout 60 git status",
	"echo x > sub/out.txt", "cat .git/config", "ls hooks/", "ls .git/hook?", "echo x | tee out.txt",
	"git log --oneline", "git diff --stat > out.txt",
	// Near 6: make.
	"make -n", "make -s -C sub", "make > build.log 2>&1", "make 2>&1 | tee build.log", "mkdir -p build && make -C build",
	"echo x > out.txt && make", "make && echo done > out.txt", "make -f Makefile.x test", "git status && make -j4",
	"sed -n 1p Makefile", "find . -name '*.mk' -print",
	// Near 6: interpreters.
	"python3 x.py > out.txt", "python3 x.py | tee out.txt", "echo data > in.txt && python3 x.py in.txt",
	"python3 -m json.tool README > out.json", "node x.js > out.txt", "perl x.pl README > out.txt",
	"mkdir -p out && python3 x.py out", "python3 -W ignore x.py", "node --inspect x.js", "python3 x.py > out.py",
	"cp README in.txt && node x.js in.txt",
	// Near 6: package managers.
	"npm test", "npm run build > build.log 2>&1", "npm install", "npm ci", "echo x > out.txt && npm test",
	"npm run lint | tee lint.log", "npm --version", "yarn test", "pnpm run build", "cat package.json",
	// Near 6: compilers.
	"cc -o m m.c && ./m", "gcc -c x.c", "gcc -O2 -o prog x.c > build.log 2>&1", "mkdir -p build && cc -o build/m m.c",
	"gcc -Iinclude -c src/x.c -o build/x.o", "echo x > out.txt && cc -c x.c", "cc -o m m.c && ./m > out.txt",
	"grep -rn main --include='*.c' .",
	"make -s m && ./m", "sed -i s/a/b/ notes.txt && make", "gcc -Wl,-Bsymbolic -shared -fPIC -o x.so x.c",
	// Near 6: java.
	"javac X.java && java X", "mkdir -p out && javac -d out X.java && java -cp out X", "java -jar app.jar > out.txt",
	"java -version",
	// Near 6: groups with redirections.
	"{ make; python3 x.py; } > build.log 2>&1", "(cd sub && make) > build.log", "{ echo a; echo b; } > out.txt",
	"if [[ -f README ]]; then python3 x.py; fi 2>&1 | tee out.txt",
	"mkdir -p t && cp -t t README && python3 x.py", "cp -t sub README c", "mv -t sub out.txt",
	"cp --parents sub/.keep t", "cc -c -o x.o x.c && cc -o m x.o", "python3 x.py && python3 x.py", "cc -c x.c && make", "pandoc -o out.html README && python3 x.py",
}

func TestCanaryRound23(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound23)
	checkOrdinary(t, template, canaryRound23Ordinary, nil)
}

// canaryRound23Go are lines of the round that run code the line writes
// with go, which is not on the fixture's PATH: they run with go's
// directory first on PATH and the build cache of the test's go.
var canaryRound23Go = []string{
	`printf 'package main\nimport "os"\nfunc main() { os.Remove("c") }\n' > m.go && go run m.go`,
	`printf 'module m\n' > go.mod && printf 'package m\nimport ("os";"testing")\nfunc TestX(t *testing.T) { os.Remove("c") }\n' > x_test.go && go test -count=1 .`,
	`printf 'package main\nimport "os"\nfunc main() { os.Remove("c") }\n' > m.go && go build -o m m.go && ./m`,
}

func TestCanaryRound23GoRunsCodeTheLineWrites(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed")
	}
	cache, err := exec.Command(goBin, "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	template := canaryTemplate(t)
	for _, line := range canaryRound23Go {
		root := canaryFixture(t, template)
		refusedEverywhere(t, root, line)
		runLine(t, root, line, 2*time.Minute, filepath.Dir(goBin), "GOCACHE="+strings.TrimSpace(string(cache)), "GOTOOLCHAIN=local")
		if _, err := os.Stat(filepath.Join(root, "work", "c")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%q did not delete the canary when run (%v)", line, err)
		}
	}
	checkOrdinary(t, template, []string{"go test ./...", "go run ./cmd/x", "go test ./... > test.log 2>&1",
		"go build -o bin/x ./cmd/x", "echo x > testdata/in.txt && go test .", "go vet ./...",
		"gofmt -l . && go test ./..."}, nil)
}
