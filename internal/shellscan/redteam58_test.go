package shellscan

import "testing"

// Round redteam58: programs the analysis does not model that make
// symbolic or hard links at paths they do not name, which may lead out of
// the workdir: a virtual environment's bin/python (to the interpreter that
// made it, python3 -m venv, virtualenv, tox), node_modules (npm and yarn
// link a file: or link: dependency, pnpm and bun hard-link the files of
// their store and of a file: dependency), the working copy of another
// version control system (a checked-out symlink), a symlink farm (lndir,
// stow), a build tool's convenience links (nix build's result, bazel-bin).
// A path the line writes after such a command was checked as it resolves
// before the line runs, when the link is not there yet: python3 -m venv v;
// echo x > v/bin/python overwrote the interpreter, npm install; echo x >
// node_modules/lib/index.js the dependency's own file.
func TestRedteam58LinkMakersGuardLaterWrites(t *testing.T) {
	opaque := []string{
		"python3 -m venv v; echo x > v/bin/python", "python3 -m venv v && cp c v/bin/python3",
		"python3.11 -m venv --clear v; echo x > v/bin/python", "python -mvenv v; echo x > v/bin/python",
		".venv/bin/python -m venv v; echo x > v/bin/python", "python3 -m virtualenv v; echo x > v/bin/python",
		"virtualenv v; echo x > v/bin/python", "tox -e py; echo x > .tox/py/bin/python",
		"nox; echo x > .nox/t/bin/python", "hatch env create; echo x > x",
		"npm install; echo x > node_modules/lib/index.js", "npm ci && echo x >> node_modules/lib/index.js",
		"npm i; sed -i s/a/b/ node_modules/lib/index.js", "npm isntall; echo x > node_modules/y/z",
		"npm update; echo x > node_modules/y/z", "npm --silent install; echo x > node_modules/y/z", "npm install-test; echo x > node_modules/y/z",
		"pnpm install; echo x >> node_modules/lib/index.js", "pnpm i --offline; echo x > node_modules/y/z", "pnpm add lib; echo x > node_modules/y/z",
		"yarn; echo x > node_modules/lib/index.js", "yarn install; echo x > node_modules/y/z", "yarn add lib; echo x > node_modules/y/z",
		"bun install; echo x >> node_modules/lib/index.js", "bun i; echo x > node_modules/y/z", "bun add x; echo x > node_modules/y/z",
		"deno install; echo x > node_modules/x", "npm install; for f in a b; do echo x > $f; done",
		"lndir ../src .; echo x > y", "stow -t . pkg; echo x > y", "xstow pkg; echo x > y",
		"hg clone r; echo x > r/y", "hg update; echo x > y", "svn checkout u r; echo x > r/y", "svn up; echo x > y",
		"brz checkout r; echo x > r/y", "fossil open r; echo x > y", "jj new; echo x > y", "sl goto x; echo x > y",
		"repo sync; echo x > y", "nix build; echo x > result/y", "nix-build; echo x > result/y",
		"bazel build //x; echo x > bazel-bin/y", "bazelisk test //x; echo x > y", "composer install; echo x > vendor/y",
		"aunpack a.tgz; echo x > a/y", "dtrx a.tgz; echo x > a/y",
		"nice npm install; echo x > node_modules/y/z", "env npm install; echo x > node_modules/y/z", "timeout 60 pnpm install; echo x > node_modules/y/z",
		"logsave log npm install; echo x > y", "echo x > node_modules/y & npm install",
		"npm install; for f in a b; do echo x > node_modules/$f; done", "npm install; cd node_modules/lib && echo x > y",
		"npm install; echo x > node_modules/lib/../../y", "npm install; echo x > sub/node_modules/lib/y",
		"npm install; echo x > ./Node_Modules/lib/y", "npm install; cp -r t/. .", "npm install; cp -r x/node_modules .", "npm install; tool .",
		"cd sub && npm install; tool ..", "npm install; echo x > */lib/y", "npm install; tool *",
		"npm install; rm -f node_modules/lib/index.js", "npm install; echo x > $PWD/node_modules/lib/y",
		"python3 -m venv v; echo x > v/bin/../bin/python", "python3 -m venv v; cd v/bin && echo x > python",
		"python3 -m venv v; cp -r t/. .", "python3 -m venv v; cp -r x/v .", "python3 -m venv v; tool .", "python3 -m venv ./v; echo x > v/bin/python",
		"python3 -m venv v; echo x > ./v/bin/python", "python3 -m venv \"$d\"; echo x > y",
		"python3 -m venv v; echo x > v/bin/python/../../../y", "python3 -m venv v w; echo x > w/bin/python",
		"python3 -m venv v; v/bin/python -m venv w; echo x > w/bin/python",
	}
	clean := []string{
		"python3 -m venv v", "python3 -m venv v; ls v", "npm install", "npm ci; npm test", "pnpm install --offline",
		"echo x > y; npm install", "npm test; echo x > y", "npm run build; echo x > y", "npm run build && cp a b",
		"npm view x; echo x > y", "npm audit; echo x > y", "npm --version; echo x > y", "pnpm test; echo x > y",
		"pnpm run build; echo x > y", "yarn test; echo x > y", "yarn run build; echo x > y",
		"bun run x; echo x > y", "bun test; echo x > y", "hg status; echo x > y", "hg log; echo x > y",
		"svn status; echo x > y", "svn diff > p.diff", "jj log; echo x > y", "bazel version; echo x > y",
		"nix build --no-link; echo x > y", "virtualenv --version; echo x > y", "tox --version; echo x > y",
		"python3 -m json.tool a.json; echo x > y", "python3 -m pytest; echo x > y", "npm install > /dev/null",
		"composer validate; echo x > y", "echo x > y & npm install", "npm install; echo x > y",
		"npm install > install.log 2>&1", "npm install && npm run build > build.log", "npm ci; rm -f c",
		"npm install && npm run build", "npm install && npx tsc", "npm i && node scripts/gen.js > out.json",
		"pnpm install && pnpm build", "yarn && yarn build", "npm install; echo x > node_modules.txt",
		"python3 -m venv .venv && .venv/bin/pip install -r requirements.txt",
		"python3 -m venv .venv && .venv/bin/pip install -e .", "python3 -m venv .venv && .venv/bin/python -m pip install x",
		"python3 -m venv .venv; .venv/bin/pytest", "python3 -m venv v; echo x > y; tool sub", "python3 -m venv v; echo x > vv/y",
		"python3 -m venv .venv && .venv/bin/pip install -U pip && .venv/bin/pip install -r requirements.txt",
	}
	checkRT57Lines(t, opaque, clean)
}

// A program the analysis does not model may take a command as the value
// of a NAME=VALUE operand, most often the operand of -o (sshfs -o
// ssh_command=CMD, sshfs and duplicity -o ProxyCommand=CMD, which ssh
// runs with a shell, restic -o sftp.command=CMD). The guess at commands
// among its words looked at the operand whole (ProxyCommand=rm … names no
// program) and at the value of an option's '=' only. sshfs passes its -o
// options to ssh, whose options run commands: it is opaque as ssh is.
func TestRedteam58AssignedCommandStrings(t *testing.T) {
	opaque := []string{
		"foo -o cmd='sh -c x'", "foo -o 'cmd=bash -c x'", "foo cmd='sh -c x'",
		"foo -o ProxyCommand=\"sh -c 'echo > ~/.bashrc'\"", "foo -o ProxyCommand='sh x.sh'",
		"restic -o sftp.command='sh -c \"rm ~/.bashrc\"' snapshots", "foo -o x='python3 -c \"import os\"'",
		"foo -o 'a.b=sh -c x'", "duplicity --ssh-options='-oProxyCommand=sh -c x' a sftp://h/b",
		"sshfs h: d", "sshfs -o ssh_command=./x h: d", "sshfs -o ProxyCommand=/tmp/x h: d",
	}
	clean := []string{
		"foo -o cmd=ls", "foo -o x=y", "foo a=b c=d", "foo -o 'label=hello world'", "foo x='a b c'",
		"foo -o cmd='rm -f c'", "make CFLAGS='-O2 -g'", "foo 'msg=fix the build; again'",
	}
	checkRT57Lines(t, opaque, clean)
}

// go tool NAME runs, but for the tools of the Go distribution, the tool
// the module's go.mod names in a tool directive, built from its package:
// one of the module (the line may have written its code and added the
// directive: go mod edit -tool=m/e, printf 'tool m/e' >> go.mod) or of a
// module it fetches (go get -tool example.com/x), as go run
// example.com/x would. go tool dist (bootstrap, clean, test, install)
// and distpack build, delete and test the files of GOROOT.
func TestRedteam58GoToolRunsModuleTools(t *testing.T) {
	opaque := []string{
		"go tool e", "go mod edit -tool=x/e; go tool e", "go get -tool example.com/x; go tool x",
		"printf 'tool x/e\\n' >> go.mod; go tool e", "go tool stringer -type=X", "go tool -modfile=x.mod e",
		"go1.24 tool e", "go tool golang.org/x/tools/cmd/stringer", "go tool dist bootstrap",
		"go tool dist clean", "go tool dist test", "go tool distpack", "go tool \"$t\"", "go tool ./e",
	}
	clean := []string{
		"go tool", "go tool -n", "go tool nm x", "go tool objdump x", "go tool pprof -top x.prof", "go tool vet ./x",
		"go tool dist list", "go tool dist env", "go tool dist version", "go tool addr2line x", "go tool test2json",
		"go tool compile -o x.o x.go", "go tool trace -d x", "go tool covdata percent -i=d", "go tool doc fmt",
		"go tool buildid x", "go tool -n compile",
	}
	checkRT57Lines(t, opaque, clean)
}

// pnpm create, yarn create and bun create run a package they fetch
// (create-NAME), as npm init NAME does; bun x runs one as bunx does. go
// -C DIR tool NAME is go tool NAME run in DIR.
func TestRedteam58CreateRunsFetchedPackage(t *testing.T) {
	opaque := []string{
		"pnpm create evil", "yarn create evil", "bun create evil", "bun x evil", "pnpm --silent create vite x",
		"yarn create vite@latest x", "go -C sub tool e", "go -C=sub tool e",
	}
	clean := []string{
		"pnpm init", "yarn init -y", "bun init -y", "pnpm --version", "bun run build", "go -C sub build -o x .",
		"go -C sub tool nm x",
	}
	checkRT57Lines(t, opaque, clean)
}

// Programs that load code or settings of the working directory whatever
// their words, which a line may write before it runs them: dmypy (mypy's
// daemon: the plugins mypy.ini names), stubgen and stubtest (they import
// the modules they are given), prove (the t/*.t scripts it runs, and
// .proverc), universal ctags (the options of .ctags.d/*.ctags and of
// --options=FILE, which may send its output anywhere: -o ~/.bashrc), and
// pgbench (the \shell lines of its -f scripts run commands).
func TestRedteam58WorkdirCodeTools(t *testing.T) {
	opaque := []string{
		"printf x > mypy.ini; dmypy run -- m.py", "printf x > p.py; dmypy start", "printf x > m.py; stubgen -m m",
		"printf x > m.py; stubtest m", "printf x > t/x.t; prove", "printf x > t/x.t; prove -r t",
		"printf x > x.t; prove x.t", "printf x > .proverc; prove", "printf x > .ctags.d/x.ctags; ctags x.c",
		"printf x > x.txt; ctags --options=x.txt x.c", "printf x > x.txt; ctags --options x.txt -R",
		"printf x > .ctags; ctags -R", "printf x > x.sql; pgbench -n -t 1 -f x.sql", "printf x > x.sql; pgbench -fx.sql",
		"printf x > x.sql; pgbench --file=x.sql@5", "printf x | pgbench -f -", "printf x > x.ctags; etags --options=x.ctags x.c",
		"printf x > dodo.py; doit", "printf x > pavement.py; paver x", "printf x > wscript; waf build", "printf x > Jakefile; jake",
	}
	clean := []string{
		"dmypy status", "dmypy run -- m.py", "stubgen -m m -o out", "prove", "prove -r t", "ctags -R", "ctags x.c",
		"ctags --options=x.ctags x.c", "printf x > notes.txt; prove", "printf x > notes.txt; ctags -R",
		// pgbench -i and -f change the database server's state: opaque
		// since gate61 (TestG61DatabaseWriters); its select-only run reads.
		"pgbench -S -n -t 1",
	}
	checkRT57Lines(t, opaque, clean)
}

// g++'s -fmodule-mapper names the module mapper: '|PROGRAM ARGS' runs the
// program (a script the line wrote: -fmodule-mapper='|./evil'), a file or
// a host:port maps each module to the file its compiled interface is
// written to (m /root/.bashrc). clang's -fpass-plugin=P and
// -fuse-ld=PATH/--ld-path=PATH run code from the file they name.
func TestRedteam58CompilerModuleMapper(t *testing.T) {
	opaque := []string{
		"g++ -fmodules-ts -fmodule-mapper='|./evil' -c m.cc", "g++ -fmodule-mapper=map -fmodules-ts -c m.cc",
		"c++ -fmodule-mapper=localhost:1234 -c m.cc", "x86_64-linux-gnu-g++-12 -fmodule-mapper=map m.cc",
		"gcc -fmodule-mapper='|x' x.c", "printf x > p.so; clang -fpass-plugin=./p.so x.c",
		"printf x > ld; clang -fuse-ld=./ld x.c", "printf x > ld; clang --ld-path=./ld x.c",
		"g++ -fmodule-mapper \"$m\" -c m.cc",
	}
	clean := []string{
		"g++ -fmodules-ts -c m.cc", "gcc -fuse-ld=gold x.c", "clang -fuse-ld=lld x.c", "clang -fpass-plugin=./p.so x.c",
		"g++ -std=c++20 -O2 -o x x.cc",
	}
	checkRT57Lines(t, opaque, clean)
}
