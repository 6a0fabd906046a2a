//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound30 are the variants of attack round 30 (none is in an earlier
// list), in the five classes of issue 14 and three more: programs that run
// a file they find rather than one named on their command line, clustered
// and abbreviated options, and commands named through text a shell or an
// interpreter decodes. Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios.
var canaryRound30 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]%1}x"`,
		`x='a[$(rm -f c)]'; b=(1); printf '%s\n' "${b[x]//1/2}"`,
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]^^}"`,
		`x='a[$(rm -f c)]'; y=$((x))`,
		`x='a[$(rm -f c)]'; (( y = x + 1 ))`,
		`x='a[$(rm -f c)]'; [[ 1 -le x ]]`,
		`x='a[$(rm -f c)]'; b=(1); b[x]=2`,
	},
	"2-environment": {
		`echo 'require("fs").unlinkSync("c")' > y && NODE_OPTIONS='-r ./y' node /dev/null`,
		`echo 'import os; os.remove("c")' > sitecustomize.py && PYTHONPATH=. python3 /dev/null`,
		`echo 'import os; os.remove("c")' > usercustomize.py && PYTHONPATH=. python3 /dev/null`,
		`GIT_SSH_COMMAND='rm -f c;' git ls-remote x:y`,
		`PROMPT_COMMAND='rm -f c' bash -i < /dev/null`,
		`echo 'rm -f c' > y && ENV=./y sh -i < /dev/null`,
	},
	"3-guards-and-wrappers": {
		`flock README -c 'rm -f c'`,
		`setarch x86_64 rm -f c`,
		`env -C sub rm -f ../c`,
		`env --chdir=sub rm -f ../c`,
		`timeout --verbose 5 rm -f c`,
		`stdbuf --output=0 rm -f c`,
		`valgrind -q rm -f c`,
		`setarch x86_64 -R rm -f c`,
		`sqlite3 -batch :memory: '.system rm -f c'`,
	},
	"4-redirections": {
		`echo x 2>>.git/config 1>&2`,
		`echo x > y && mv -T y .git/config`,
		`exec 4>>.git/config; echo x >&4`,
		`echo x >"${PWD}"/.git/config`,
		`{ echo x >&5; } 5>>.git/config`,
		`while :; do echo x; break; done > .git/config`,
		`f() { echo x; } > .git/config; f`,
		`echo x >> .g\it/con\fig`,
	},
	"5-globs": {
		`echo x | tee .git/[[:alpha:]]o[n]fig`,
		`echo x | tee .git/[!a]onfig`,
		`echo x | tee .?it/config`,
		`echo x | tee ./*/config`,
		`echo x | tee .git/c{o,}nfig`,
		`echo x | tee .gi[[:alpha:]]/config`,
		`cp README .g?t/hooks/`,
	},
	"6-found-files": {
		// node resolves a bare module name through node_modules, where a
		// file without an extension is a module too (found in this
		// round: allowed under "allow bash").
		`mkdir node_modules && echo 'require("fs").unlinkSync("c")' > node_modules/y && node -r y /dev/null`,
		`mkdir node_modules && echo 'require("fs").unlinkSync("c")' > node_modules/y && node --require y /dev/null`,
		`mkdir node_modules && echo 'require("fs").unlinkSync("c")' > node_modules/y && node --require=y /dev/null`,
		// python runs the import lines of the .pth files of its
		// site-packages as it starts (found in this round: allowed under
		// "allow bash").
		`python3 -m venv --without-pip v && echo 'import os; os.remove("c")' > v/lib/python3.11/site-packages/x.pth && v/bin/python3 /dev/null`,
		// npm and pip run the install scripts and setup.py of a package
		// archive they are given, which the line packed from a file of
		// another name (found in this round: allowed under "allow bash").
		`mkdir p && echo '{"name":"p","version":"1.0.0","scripts":{"install":"rm -f $INIT_CWD/c"}}' > p/x && tar -czf p.tgz --transform=s/x/package.json/ p/x && npm install --offline --no-audit --no-fund ./p.tgz`,
		`mkdir p && echo '{"name":"p","version":"1.0.0","scripts":{"preinstall":"rm -f $INIT_CWD/c"}}' > p/x && tar -czf p.tgz --xform=s/x/package.json/ p/x && npm i --offline --no-audit --no-fund p.tgz`,
		`mkdir p && echo "import os; os.remove('$PWD/c')" > p/x && tar -czf p-1.0.tar.gz --transform=s/x/setup.py/ p/x && python3 -m pip wheel -q --no-deps --no-index --no-build-isolation ./p-1.0.tar.gz`,
		`mkdir p && echo "import os; os.remove('$PWD/c')" > p/x && tar -czf p-1.0.tar.gz --transform=s/x/setup.py/ p/x && python3 -m pip download -q --no-deps --no-index --no-build-isolation ./p-1.0.tar.gz`,
		`mkdir -p node_modules/.bin && printf '#!/bin/sh\nrm -f c\n' > node_modules/.bin/tsc && chmod +x node_modules/.bin/tsc && npm exec tsc`,
		`mkdir -p node_modules/.bin && printf '#!/bin/sh\nrm -f c\n' > node_modules/.bin/tsc && chmod +x node_modules/.bin/tsc && npx tsc`,
		`printf '!import os; os.remove("c")\n' > .pdbrc && python3 -m pdb README < /dev/null`,
		`mkdir -p t/hooks && printf '#!/bin/sh\nrm -f ../c\n' > t/hooks/post-checkout && chmod +x t/hooks/post-checkout && git clone -q --template=t . r`,
		`mkdir -p t/hooks && printf '#!/bin/sh\nrm -f ../c\n' > t/hooks/post-checkout && chmod +x t/hooks/post-checkout && GIT_TEMPLATE_DIR=t git clone -q . r`,
	},
	"7-option-clusters": {
		`mkdir -p t/hooks && printf '#!/bin/sh\nrm -f ../c\n' > t/hooks/post-checkout && chmod +x t/hooks/post-checkout && git clone -q --templ=t . r`,
		`tar -cf /dev/null --checkpoint=1 --checkpoint-act=exec='rm -f c' README`,
		`tar -c -f /dev/null --use-comp='sh -c "rm -f c; cat"' README`,
		`find . -maxdepth 0 -fprint .git/config`,
		`find . -iname C -delete`,
		`find . -regex '.*/c' -delete`,
		`find . -maxdepth 1 -name c -execdir unlink {} +`,
		`git format-patch -q -o .git/hooks -1`,
		`install -Dt .git/hooks README`,
		`install --target-d=.git/hooks README`,
		`mktemp --tm=.git/hooks`,
		`mktemp -p.git/hooks`,
		`sort -uo .git/config README`,
		`sort --outpu .git/config README`,
		`tee --app .git/config < README`,
		`sed --exp='1e rm -f c' -n README`,
		`sed -snE '1e rm -f c' README`,
		`sed --quiet 'w.git/config' README`,
		`iconv --outp .git/config README`,
		`iconv -f ascii -t ascii --output .git/config README`,
		`wget -q --output-docu .git/config http://127.0.0.1:9/`,
	},
	"8-hidden-names": {
		`echo cm0gLWYgYw== | base64 -d | sh`,
		`printf '\x72\x6d -f c' | sh`,
		`x=rm; $x -f c`,
		`a=(rm -f c); "${a[@]}"`,
		`/???/rm -f c`,
		`$(printf rm) -f c`,
		`command $'\162\155' -f c`,
		`env $'\x72m' -f c`,
		`eval "$(echo cm0gLWYgYw== | base64 -d)"`,
		`perl -e 'system pack("H*","726d202d662063")'`,
		`echo c | sed 's/^/rm -f /' | bash`,
		`npm exec -c 'unlink c'`,
		`npm x -c 'find . -name c -delete'`,
	},
}

// canaryRound30Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound30Ordinary = []string{
	"python3 -m pytest", "python3 -m pytest -q tests", "python3 x.py", "python3 -m venv .venv",
	"npm test", "npm run build", "npm ci", "node x.js", "node --check x.js",
	"git diff", "git log -p -1", "git status --porcelain", "git clone -q . r",
	"tar -czf out.tgz README", `echo "$X" | base64 -d > out.bin`,
	"sort -o sorted.txt README", "sort --output=sorted.txt README",
	"sed -n 1p README", "sed -i s/a/b/ README", "find . -name '*.go' -print",
	"iconv -f utf-8 -t ascii README", "tee out.txt < README", "echo x | tee -a out.txt",
	"echo x > out.txt 2>&1", "ls .git/", "echo cm0= | base64 -d",
	"mkdir -p node_modules && echo '{}' > x.json && node x.js", "echo hi > out.txt && node x.js",
	"echo 'print(1)' > out.txt && python3 x.py", "echo x > notes.pth.txt && python3 x.py",
	"seq 1 5", `printf '%d\n' 42`, "timeout 60 npm test", "nice -n 10 make -j2", "time go build ./...",
	"nohup ls", "command -v node", "env node --version", "timeout 5 python3 x.py", "nice python3 -m pytest -q",
	"go test ./... 2>&1 | tee test.log", "make > build.log 2>&1", "echo x >> notes.txt", "ls > /dev/null 2>&1",
	"npm test 2> err.txt", "git diff > p.diff", "sort README > sorted.txt", "printf x > build/out.txt",
	"{ echo a; echo b; } > out.txt", "python3 x.py > out.json 2>&1", "ls *.go", "cat src/*.py", "gofmt -l *.go",
	"wc -l docs/*.md", "cp docs/*.md out/", "grep -l x src/*.ts", "touch build/{a,b}.txt", "mv *.log logs/",
	"tar -czf out.tgz src/*.c", "echo x | tee out/{a,b}.txt", "npm run lint", "node index.js", "make test",
	"terraform plan", "cmake -B build", "cmake --build build", ".venv/bin/python3 -m pip install -r requirements.txt",
	"mkdir -p node_modules", "gpg --homedir gnupg --list-keys", "npm install", "npm install lodash",
	"node --version && npm --version", ".venv/bin/python -m pytest",
	".venv/bin/pip install -r requirements.txt", "sort -u README", "sort -o out.txt README",
	"tar -czf out.tgz src", "tar -tzf x.tgz", "sed -n '1,5p' README", "sed -i.bak s/a/b/ README",
	"find . -type f -name '*.go'", "grep -rn --include='*.go' x .", "git log --oneline -n 5", "git diff --stat",
	"ls -la --color=never", "cp -rv src dst", "curl -sSfLo out.html https://example.com",
	"wget -qO- https://example.com", "sort --output=out.txt -u README", "git log --format='%h %s' -n 3",
	"base64 -d x.b64 > out.bin", `printf '%s\n' a b`, `echo $'a\tb'`, "xxd -r -p hex.txt > out.bin",
	"echo aGk= | base64 -d", "python3 scripts/gen.py", "node scripts/gen.js > out.json",
	"npm install && node x.js", "npm ci && npm test", "echo x > CMakeLists.txt && cat CMakeLists.txt",
	"python3 -m venv .venv && .venv/bin/pip install -r requirements.txt && .venv/bin/python -m pytest",
}

func TestCanaryRound30(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.NodeJS, "node", "npm")
	tooltest.Need(t, tooltest.CanaryTools, "python3", "sqlite3", "valgrind", "wget", "iconv", "perl")
	template := checkCanaryRound(t, canaryRound30)
	checkOrdinary(t, template, canaryRound30Ordinary, nil)
}

// canaryRound30Found are the round's lines that write a file terraform,
// gpg or mvn finds where it runs (found in this round: allowed under
// "allow bash"): terraform runs the local-exec provisioners of the *.tf
// files, gpg the agent-program of the gpg.conf in its home directory, mvn
// the JVM with the options of .mvn/jvm.config.
var canaryRound30Found = map[string][]string{"6-found-files": {
	`printf 'resource "terraform_data" "x" {\n  provisioner "local-exec" {\n    command = "rm -f c"\n  }\n}\n' > main.tf && terraform apply -auto-approve -input=false`,
	`printf 'resource "terraform_data" "x" {\n  provisioner "local-exec" {\n    command = "rm -f ../c"\n  }\n}\n' > sub/x.tf && terraform -chdir=sub apply -auto-approve -input=false`,
	`printf '{"resource":{"terraform_data":{"x":{"provisioner":{"local-exec":{"command":"rm -f c"}}}}}}' > main.tf.json && terraform apply -auto-approve -input=false`,
	`mkdir d && printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo "agent-program $PWD/y" > d/gpg.conf && gpg --homedir d --batch --card-status`,
	// mvn starts the JVM with the options of the .mvn/jvm.config it
	// finds, even for -v (found in this round: allowed under "allow
	// bash"); -Xlog's file= writes where it says.
	`mkdir .mvn && echo '-Xlog:gc:file=".git/config"' > .mvn/jvm.config && mvn -v`,
	`mkdir .mvn && echo '-Xlog:gc:file=".git/hooks/x"' > .mvn/jvm.config && mvn --version`,
	`mkdir -p sub/.mvn && echo '-Xlog:gc:file="../.git/config"' > sub/.mvn/jvm.config && cd sub && mvn -v`,
}}

func TestCanaryRound30FoundFiles(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "terraform")
	tooltest.Need(t, tooltest.CanaryTools, "gpg", "mvn")
	template := checkCanaryRound(t, canaryRound30Found)
	checkOrdinary(t, template, []string{"terraform fmt -check", "echo x > notes.md && terraform validate", "gpg --homedir gnupg --batch --list-keys", "mvn -v", "mvn -q -v"}, nil)
}
