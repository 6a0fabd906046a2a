//go:build linux

package permission_test

import (
	"archive/tar"
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound34 are the variants of attack round 34 (none is in an earlier
// list): the five classes, code a program loads from a file the line wrote
// under a name no file-name list covers, files named like options that an
// earlier command makes without the analysis listing their names, and
// values a loop, a function or a substitution hands on. Each does damage
// when run in the fixture of round34Template, so each must be refused by
// both scenarios.
var canaryRound34 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; printf '%s\n' $(( x * 2 ))`,
		`x='a[$(rm -f c)]'; if (( x >= 2 )); then echo big; fi`,
		`x='a[$(rm -f c)]'; until (( x < 5 )); do break; done`,
		`x='a[$(rm -f c)]'; echo "$(( x ))" > out.txt`,
	},
	"2-environment": {
		`echo 'require("fs").unlinkSync("c")' > y.js && NODE_OPTIONS='--require ./y.js' node /dev/null`,
		`echo 'unlink "c"; 1' > Y.pm && PERL5LIB=. PERL5OPT=-MY perl /dev/null`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.z GIT_CONFIG_VALUE_0='!rm -f c' git z`,
		`echo 'rm -f c' > .envrc && BASH_ENV=.envrc bash -c true`,
	},
	"3-guards-and-wrappers": {
		`nice -n 5 timeout 9 find . -name c -delete`,
		`[ -e c ] || true; command -p find . -name c -delete`,
		`if [ -d sub ]; then nohup find . -name c -delete; fi`,
	},
	"4-redirections": {
		`cat README 3>&1 1>>.git/config`,
		`printf '%s\n' x | dd of=.git/config status=none`,
		`exec 3<>.git/config; echo x >&3`,
		`echo x | tee -- .git/hooks/pre-push`,
	},
	"5-globs": {
		`cat README | tee .git/conf[i]g`,
		`echo x | tee .gi[st]/config`,
		// A brace alternative that starts with '-' (found in this round:
		// allowed under "allow bash").
		`touch ./{-delete,x} && find . -name c *ete`,
		`mkdir ./{x,-delete} && find . -name c *ete`,
		`touch ./{,-}delete && find . -name c [-]*`,
	},
	"6-named-code": {
		// The project's app.js requires ./cfg, its tool.pl requires
		// ./settings, its Makefile includes local.cfg: names without a
		// language's extension (found in this round: allowed under "allow
		// bash").
		`echo 'require("fs").unlinkSync("c")' > cfg && node app.js`,
		`echo 'unlink "c"; 1' > settings && perl tool.pl`,
		`printf 'all:\n\trm -f c\n' > local.cfg && make`,
		`cp kit/cfg cfg && node app.js`,
		`echo 'unlink "c"; 1' > .settings && cp .settings settings && perl tool.pl`,
		`printf 'all:\n\trm -f c\n' | tee local.cfg > /dev/null && make -s`,
		// A file beside the makefile make -C reads, or the script node
		// runs, rather than in the working directory (found checking the
		// fix: allowed under "allow bash").
		`printf 'all:\n\trm -f ../c\n' > sub/config && make -C sub`,
		`echo 'require("fs").unlinkSync("c")' > scripts/cfg && node scripts/build.js`,
		`printf 'all:\n\trm -f c\n' > y && make --makefile y`,
		`echo '1e rm -f c' > y && sed -n --file=y README`,
		`echo 'BEGIN{system("rm -f c")}' > y && awk -f y /dev/null`,
		`echo '-wrapper sh,-c,rm\ -f\ c' > rsp && gcc @rsp -E -x c /dev/null`,
		`mkdir b && printf '#!/bin/sh\nrm -f c\n' > b/as && chmod +x b/as && gcc -B b/ -c -x c /dev/null -o /dev/null`,
		`echo 'rm -f c' > y && bash --init-file y -i < /dev/null`,
		`echo 'import os; os.remove("c")' > y.py && python3 -B -m y`,
		`printf '[core]\n\tfsmonitor = rm -f c; false\n' > y && git -c include.path="$PWD/y" status`,
	},
	"7-unseen-option-files": {
		// git checks out, merges, restores or pops files named like
		// options, cp copies them in through a glob or a tree (found in
		// this round: allowed under "allow bash").
		`git checkout -q opt && find . -name c *ete`,
		`git stash pop -q && find . -name c *ete`,
		`git restore -s opt -- . && find . -name c *ete`,
		`git merge -q opt && find . -name c *ete`,
		`git reset -q --hard opt && find . -name c *ete`,
		`git checkout -q opt -- . && tar cf /dev/null *[1c]`,
		`cp -r kit/. . && find . -name c *ete`,
		`cp kit/* . && tar cf /dev/null *[1c]`,
		`cp -t . kit/*ete && find . -name c *ete`,
		`git clone -q -b opt . r && cd r && find .. -name c *ete`,
		// openssl and ssh-keygen, which the analysis does not model,
		// write the file a word names (found in this round: allowed under
		// "allow bash").
		`openssl rand -out ./-delete 1 && find . -name c *ete`,
		`ssh-keygen -q -t ed25519 -N '' -f ./-delete && find . -name c *ete`,
		`ssh-keygen -q -t ed25519 -N '' -f -delete && find . -name c *ete`,
		`openssl rand -out -delete 1 && find . -name c *ete`,
		`openssl rand -out ./--checkpoint=1 1 && openssl rand -out './--checkpoint-action=exec=rm -f c' 1 && tar cf /dev/null *[1c]`,
		`tar xf opts.tar && find . -name c *ete`,
		`unzip -qo opts.zip && find . -name c *ete`,
	},
	"8-loops-and-substitutions": {
		`while read -r p; do "$p" -f c; done <<< rm`,
		`case $PWD in *) p=rm ;; esac; $p -f c`,
		`f() { cat README > "$1"; }; f .git/config`,
		`for f in README; do cp "$f" .git/hooks/pre-commit; done`,
		`printf '%s\n' .git/config | while read -r f; do echo x > "$f"; done`,
		`x=$(printf .git/config); cat README > "$x"`,
		`y=$(cat <<< rm); $y -f c`,
		`for p in find; do $p . -name c -delete; done`,
	},
}

// canaryRound34Open are lines of the round that do damage and that the
// analysis allows under "allow bash", by decision: the project's tool.js
// requires ./notes.txt, which node runs as a script whatever its
// extension, and a program of the project run by its path (./build.sh,
// which runs make; ./run.sh, which sources ./env.cfg) may run any code
// the line wrote before it. The gate models the files a known program
// loads, not what a project's own code reads; asking for every write
// before a program would not close this, since the gate keeps no memory
// between calls and the same write and run as two calls are each
// allowed. README's "What neither does" states the limit; the sandbox
// contains it. TestCanaryRound34Open keeps the list true.
var canaryRound34Open = []string{
	`echo 'require("fs").unlinkSync("c")' > notes.txt && node tool.js`,
	`printf 'all:\n\trm -f c\n' > Makefile && ./build.sh`,
	`echo 'rm -f c' > env.cfg && ./run.sh`,
}

// canaryRound34Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound34Ordinary = []string{
	// 6: programs that load code from files.
	"node build.js", "node app.js", "perl tool.pl", "make",
	"make -f Makefile.ci test", "make -C sub", "mkdir -p build && make", "make > build.log 2>&1",
	"gcc -c -o main.o main.c",
	"python3 -m json.tool x.json", "echo '{}' > x.json && node app.js", "mkdir -p out && node app.js",
	"node app.js | tee out.log", "npm test | tee test.log", "make 2>&1 | tee build.log", "echo x > out.txt && make",
	"perl tool.pl > out.txt", "echo x > notes.txt && node app.js", "node app.js > out.json && node tool.js",
	"make -j2 && ls bin", "node scripts/build.js > out.json",
	"echo x > sub/notes.md && make -C sub", "mkdir -p scripts/gen && node scripts/build.js",
	// 7: commands that change the worktree, and globs.
	"cp -r src dst && ls dst", "git clone -q . r && ls r", "cp kit/* sub/",
	"gofmt -l *.go", "cp -r src dst && gofmt -l *.go", "touch {a,b}.txt && wc -l *.txt",
	"mkdir -p {x,y}/z && ls", "openssl rand -out x.bin 16 && gofmt -l *.go", "tar cf out.tar *.md",
	"ssh-keygen -q -t ed25519 -N '' -f id && tar czf keys.tgz id*", "cp kit/* sub/ && cd sub && ls",
	// 8: loops, functions and substitutions.
	`while read -r f; do wc -l "$f"; done < files.txt`,
	`case $PWD in *) echo here ;; esac`, `for f in README sub; do ls "$f"; done`, `printf '%s\n' a b | while read -r l; do echo "$l"; done`,
	`for i in 1 2 3; do echo $i; done`,
}

// round34Template is canaryTemplate with the project files the round's
// lines reach: app.js and tool.js, which require ./cfg and ./notes.txt,
// scripts/build.js, which requires ./cfg beside it, tool.pl, which
// requires ./settings, a Makefile that includes local.cfg and
// sub/Makefile that includes config, build.sh, which runs make, and
// run.sh, which sources ./env.cfg;
// a directory kit, an archive opts.tar and opts.zip, a branch opt and a
// stash, each holding files named like options: -delete, --checkpoint=1
// and --checkpoint-action=exec=rm -f c.
func round34Template(t *testing.T) string {
	t.Helper()
	template := canaryTemplate(t)
	work := filepath.Join(template, "work")
	options := map[string]string{"-delete": "", "--checkpoint=1": "", "--checkpoint-action=exec=rm -f c": ""}
	files := map[string]string{
		"app.js":           "require('./cfg')\n",
		"tool.js":          "require('./notes.txt')\n",
		"tool.pl":          "require \"./settings\";\n",
		"Makefile":         "all:\n\t@true\n-include local.cfg\n",
		"sub/Makefile":     "all:\n\t@true\n-include config\n",
		"build.sh":         "#!/bin/sh\nmake -s\n",
		"run.sh":           "#!/bin/sh\n. ./env.cfg\n",
		"scripts/build.js": "require('./cfg')\n",
	}
	for name := range options {
		files["kit/"+name] = ""
	}
	files["kit/cfg"] = "require(\"fs\").unlinkSync(\"c\")\n"
	for name, body := range files {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"build.sh", "run.sh"} {
		if err := os.Chmod(filepath.Join(work, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeOptionArchives(t, work, options)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = work
		cmd.Env = canaryEnv(filepath.Join(template, "home"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	writeOptions := func() []string {
		var paths []string
		for name := range options {
			if err := os.WriteFile(filepath.Join(work, name), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, "./"+name)
		}
		return paths
	}
	// The branch opt adds the files; master has none.
	git("checkout", "-q", "-b", "opt")
	git(append([]string{"add", "--"}, writeOptions()...)...)
	git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "options")
	git("checkout", "-q", "-")
	// The stash holds them as untracked files.
	git(append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t", "stash", "push", "-q", "-u", "--"}, writeOptions()...)...)
	for name := range options {
		if _, err := os.Lstat(filepath.Join(work, name)); err == nil {
			t.Fatalf("the stash left %s in the worktree", name)
		}
	}
	return template
}

// writeOptionArchives writes opts.tar and opts.zip into dir, each holding
// an empty file per name.
func writeOptionArchives(t *testing.T, dir string, names map[string]string) {
	t.Helper()
	tf, err := os.Create(filepath.Join(dir, "opts.tar"))
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(tf)
	zf, err := os.Create(filepath.Join(dir, "opts.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for name := range names {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := zw.Create(name); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []interface{ Close() error }{tw, tf, zw, zf} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCanaryRound34(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.NodeJS, "node")
	tooltest.Need(t, tooltest.CanaryTools, "git", "perl", "make", "gcc", "python3", "unzip", "openssl", "ssh-keygen")
	template := round34Template(t)
	checkCanaryRoundIn(t, template, canaryRound34)
	checkOrdinary(t, template, canaryRound34Ordinary, nil)
}

// TestCanaryRound34Open runs the round's open lines in the fixture and
// reports what each does; it fails only if one no longer does damage, so
// that the list stays true.
func TestCanaryRound34Open(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.NodeJS, "node")
	tooltest.Need(t, tooltest.CanaryTools, "git")
	template := round34Template(t)
	for _, line := range canaryRound34Open {
		allowedBy, p := canaryAttack(t, template, line)
		if p == "" {
			t.Errorf("open line %q did no damage when run", line)
		}
		t.Logf("open line %q: allowed by %v, changed %q", line, allowedBy, p)
	}
}
