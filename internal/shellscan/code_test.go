package shellscan

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestBashAnalysisRunsCodeTheLineWrites(t *testing.T) {
	tests := []struct {
		line   string
		opaque bool
	}{
		// make reads the makefiles the line wrote, and those they include.
		{"printf 'all:\\n\\tx\\n' > Makefile && make", true},
		{"echo x > GNUmakefile; make -s", true},
		{"echo x > mk && make -f mk x", true},
		{"echo x > sub/mk && make -C sub -f mk", true},
		{"echo x > /w/sub/mk && make -C sub -f mk", true},
		{"echo x > sub/Makefile && make -C sub", true},
		{"echo x > sub/Makefile && cd sub && make", true},
		{"echo x > x.mk && make", true},
		{"cp -r tpl out && make -C out", true},
		{"sed -i s/a/b/ *.mk && make", true},
		{"make; echo x > Makefile; make", true},
		{"for i in 1 2; do make; echo x > Makefile; done", true},
		// A substitution runs before the command that holds it, its
		// here-string included, which the walk sees after the command.
		{"make <<< \"$(echo x > Makefile)\"", true},
		{"ls \"$(echo x > Makefile)\" && make", true},
		{"for f in $(echo x > Makefile); do make; done", true},
		{"make <<< \"$(echo x > out.txt)\"", false},
		// What the substitution of a here-string writes is there when the
		// command reads it as its configuration.
		{"gpg --batch --options x --card-status <<< \"$(printf x > y; chmod +x y; echo 'agent-program ./y' > x)\"", true},
		{"{ gpg --batch --options x --card-status; } <<< \"$(printf x > y; chmod +x y; echo 'agent-program ./y' > x)\"", true},
		{"gpg --homedir g --batch --print-md SHA256 x <<< \"$(echo data > x)\"", false},
		// A command the analysis does not model, given a file the line
		// writes after it in a loop or a pipeline, may read its new text.
		{"for i in 1 2; do gpg --options x --card-status; echo 'agent-program ./y' > x; done", true},
		{"{ sleep 1; gpg --options x --card-status; } | echo 'agent-program ./y' > x", true},
		{"for i in 1 2; do gpg --options d/x; echo x | tee d/[x]; done", true},
		{"for i in 1 2; do gpg --homedir g --options x; echo x > y; done", false},
		{"gpg --homedir g --options x --card-status; echo 'agent-program ./y' > x", false},
		{"make", false},
		{"make > build.log 2>&1", false},
		{"make 2>&1 | tee build.log", false},
		{"mkdir -p build && make -C build", false},
		{"echo x > out.txt && make", false},
		{"make && echo x > Makefile", false},
		{"echo x > sub/mk && make -f mk", false},
		{"echo x > mk1 && make -f mk*", true},
		{"sed -i s/a/b/ *.c && make", true},
		{"echo x > m.c && make m && ./m", true},
		{"sed -i s/a/b/ *.txt && make", false},
		// A program the line writes and makes executable, handed to a
		// command the analysis does not model, which may run it.
		{"echo x > y && chmod +x y && tool --agent-program=./y", true},
		{"echo x > y && chmod 755 y && tool --agent-program ./y", true},
		{"echo x > y && chmod u=rwx y && tool -p./y", true},
		{"echo x > y && chmod +x *y && tool ./y", true},
		{"cp a y && chmod a+x y && tool ./y", true},
		{"echo x > y && chmod +x y && echo 'agent ./y' > c && tool --options c", true},
		// A configuration the line writes with a text only known when it
		// runs may name any program.
		{"echo \"$(printf 'agent ./y')\" > c && tool --options c", true},
		{"echo \"agent $(printf ./y)\" | tee c && tool --options c", true},
		{"cat > c <<< \"$(printf 'agent ./y')\" && tool --options=c", true},
		{"echo \"$(printf 'agent ./y')\" > z && cat z > c && tool --options c", true},
		{"for v in ./y; do echo \"agent $v\" > c; done; tool --options c", true},
		// A cd, in a subshell or a substitution too, leaves the files
		// written before it where they are.
		{"echo x > y && chmod +x y && echo 'agent ./y' > c && echo \"$(cd sub)\" && tool --options c", true},
		{"echo x > y && chmod +x y && echo 'agent ./y' > c && (cd sub) && tool --options c", true},
		{"echo x > y && chmod +x y && echo 'agent ./y' > c && cd . && tool --options c", true},
		{"echo x > y && chmod +x y && cd sub && echo 'agent ../y' > c && tool --options c", true},
		{"echo \"$(printf x)\" > c && cd sub && echo safe > c && tool --options ../c", true},
		{"echo x > y && chmod +x y && echo 'agent ./z' > c && cd sub && tool --options ../c", false},
		// What a here-string's substitution writes after the truncation
		// stays after the text the command writes at the start.
		{"echo x > y && chmod +x y && echo > c <<< \"$(printf '#\\nagent ./y' >> c)\" && tool --options c", true},
		{"echo x > y && chmod +x y && { echo; } > c <<< \"$(printf '#\\nagent ./y' > c)\" && tool --options c", true},
		{"echo x > y && chmod +x y && echo > c <<< \"$(printf 'agent ./y' > d)\" && tool --options c", false},
		{"echo \"$(printf x)\" > c && echo 'agent ./y' > c && tool --options c", false},
		{"echo \"$(git rev-parse HEAD)\" > out.txt && wc -l out.txt", false},
		{"echo \"$(git rev-parse HEAD)\" > m.txt && gh pr create --body-file m.txt", false},
		// So is one any other command writes: its output is not spelled.
		{"sed s/#// c.example > c && tool --options c", true},
		{"tr A-Z a-z <<< 'AGENT ./Y' > c && tool --options c", true},
		{"echo x | rev | tee c && tool --options=c", true},
		{"go test ./... > out.txt && gh pr create --body-file out.txt", false},
		{"make > build.log 2>&1 && grep -n error build.log", false},
		{"for i in 1 2; do tool --agent=./y; echo x > y; chmod +x y; done", true},
		{"echo x > y && chmod 644 y && tool --agent-program=./y", false},
		{"echo x > y && chmod -x y && tool ./y", false},
		{"chmod +x y && tool ./y", true}, // chmod counts as a write, as for ./y
		{"echo x > y && chmod +x y", false},
		{"echo x > y && chmod +x z && tool ./y", false},
		{"tool ./y && echo x > y && chmod +x y", false},
		// Behind a runner the analysis does not model: the guessed
		// command's writes and code count.
		{"echo x > a && logsave f cp a y.py && python3 y.py", true},
		{"echo x | logsave f tee y.py && python3 y.py", true},
		{"echo x > a && logsave f cp a Makefile && make", true},
		// A copy by pattern into the directory make reads writes a file
		// under each name the pattern matches.
		{"cp kit/* . && make", true},
		{"cp kit/G* . && make", true},
		{"cp -t . kit/{GNUmakefile,x} && make", true},
		{"cp kit/* sub && make -C sub", true},
		{"cp kit/*.txt . && make", false},
		{"cp kit/* . && cat README", false},
		// A word that names the very file a program runs as code counts
		// as written whoever is given it (sponge and cpp write an
		// operand), and so does what a compiler writes as text or under
		// that name; a dependency file -MMD writes is named by no word.
		{"sponge GNUmakefile < x && make", true},
		{"cpp -P m.c GNUmakefile && make", true},
		{"frob MAKEFILE && make", true},
		{"cc -E -P m.c -o x.mk && make -f x.mk", true},
		{"cc -S -o x.mk m.c && make -f x.mk", true},
		{"cc -c -o configure.ac x.c && autoconf", true},
		{"cc -MMD -c x.c && make -f x.d", true},
		{"cc -MD -c x.c -o sub/x.o && make -f sub/x.d", true},
		{"frob x.c && make", false},
		{"sponge x.py < a && python3 -m x", true},
		{"cpp m.c conftest.py && pytest", true},
		{"dos2unix x.py && python3 x.py", true},
		{"cpp m.c | head && python3 -m x", false},
		{"cc -o app x.c && ./app", false},
		{"cc -c x.c -o x.o && cc x.o -o app && ./app", false},
		{"cc -MMD -MF deps.d -c x.c && make -f deps.d", true},
		{"cc -MMD -MFdeps.d -c x.c && make -f deps.d", true},
		{"cc -Wp,-MMD,deps.d -c x.c && make -f deps.d", true},
		{"cc -MMD -MF deps.d -c x.c", false},
		{"echo x > y && logsave f python3 y", true},
		{"echo x > y.py && logsave f python3 -m y", true},
		{"logsave f python3 y.py && echo x > y.py", false},
		{"logsave f python3 x.py && logsave g cp x.py y.txt", false},
		{"echo x > a.txt && logsave f python3 x.py a.txt", false},
		// Interpreters run their script, and the modules it imports.
		{"echo x > x.py && python3 x.py", true},
		{"echo x > README && python3.11 README", true},
		{"echo x > x.py && python3 -m x", true},
		{"echo x > sub/json.py && cd sub && python3 -m json.tool f", true},
		{"mkdir -p p && echo x > p/__init__.py && python3 y.py", true},
		{"echo x > x.pl && perl -w x.pl", true},
		{"echo x > lib/X.pm && perl y.pl", true},
		{"echo x > x.js && node x.js", true},
		{"echo x > pre && node -r ./pre y.js", true},
		{"echo x > pre && node --require=./pre y.js", true},
		{"echo '{}' > package.json && node y.js", true},
		{"echo x > x.ts && deno run x.ts", true},
		{"echo x > x.rb && ruby x.rb", true},
		{"python3 x.py | tee y.py", true},
		{"python3 x.py > out.txt", false},
		{"python3 x.py > out.py", false},
		{"python3 x.py | tee out.txt", false},
		{"echo data > in.txt && python3 x.py in.txt", false},
		{"python3 -m json.tool README > out.json", false},
		{"node x.js > out.txt && cat out.txt", false},
		{"perl x.pl README > out.txt", false},
		{"mkdir -p out && python3 x.py out", false},
		{"python3 x.py && echo x > y.py", false},
		{"echo x > y.txt && ruby x.rb", false},
		// Package managers run the scripts of package.json.
		{"echo '{}' > package.json && npm test", true},
		{"echo x > .npmrc && npm install", true},
		{"echo x > sub/index.js && pnpm run build", true},
		{"echo x > .yarnrc.yml && yarn", true},
		{"npm test", false},
		{"npm run build > build.log 2>&1", false},
		{"echo x > out.txt && npm test", false},
		{"npm --version && echo x > package.json", false},
		{"echo '{}' > package.json && npm --version", false},
		// node finds a module by its bare name below node_modules, where
		// any file is one (node_modules/y), as npm finds its programs.
		{"echo x > node_modules/y && node -r y /dev/null", true},
		{"echo x > node_modules/y/z && node --require=y/z x.js", true},
		{"cd node_modules && echo x > y && cd .. && node -r y x.js", true},
		{"echo x > sub/node_modules/y && node sub/x.js", true},
		{"echo x > node_mod*/y && node -r y x.js", true},
		{"echo x > */y && node -r y x.js", true},
		{"echo x > node_modules/.bin/tsc && npm test", true},
		{"cp y node_modules/ && node x.js", true},
		{"mkdir -p node_modules && node x.js", false},
		{"echo x > out/y && node x.js", false},
		{"node x.js && echo x > node_modules/y", false},
		{"echo x > node_modules.txt && node x.js", false},
		{"echo x > node_modules/y && python3 x.py", false},
		// python runs the import lines of the .pth files of its
		// site-packages as it starts: a venv's, or one PYTHONPATH names.
		{"python3 -m venv v && echo x > v/lib/python3.11/site-packages/x.pth && v/bin/python3 y.py", true},
		{"echo x > v/lib/python3*/site-packages/x.pth && v/bin/python3 y.py", true},
		{"echo x > x.pth && python3 y.py", true},
		// A venv's pyvenv.cfg names where its python finds the standard
		// library (home = …): pointed into the project, .venv/bin/python
		// ran the project's os.py (redteam133 tools). Making a venv does
		// not count.
		{"printf 'home = fake/bin\\n' > .venv/pyvenv.cfg && .venv/bin/python x.py", true},
		{"sed -i s,^home.*,home=fake, .venv/pyvenv.cfg; .venv/bin/python3 -m pytest", true},
		{"python3 -m venv .venv2 && .venv2/bin/python x.py", false},
		{"echo x > site-packages/x.pth && pytest -q", true},
		{"echo x > node_modules/eslint-plugin-x && eslint .", true},
		{"python3 -m venv v && v/bin/python3 y.py", false},
		{"echo x > notes.pth.txt && python3 y.py", false},
		{"python3 y.py && echo x > x.pth", false},
		// Build tools, task runners and others run the files they find
		// where they run: terraform's *.tf, cmake's CMakeLists.txt, a
		// justfile, gpg's gpg.conf in its home directory.
		{"echo x > main.tf && terraform apply -auto-approve", true},
		{"echo x > sub/x.tf.json && terraform -chdir=sub apply", true},
		{"echo x > main.tf && tofu plan", true},
		{"echo x > CMakeLists.txt && cmake -B build", true},
		{"echo x > build.ninja && ninja", true},
		{"echo x > justfile && just", true},
		{"echo x > Taskfile.yml && task build", true},
		{"echo x > noxfile.py && nox", true},
		{"echo x > setup.py && pip3 install .", true},
		{"echo x > d/gpg.conf && gpg --homedir d --card-status", true},
		// Package managers run the scripts of the packages they are given
		// as paths, which a line may pack under other names.
		{"echo x > p/x && tar -czf p.tgz --transform=s/x/package.json/ p/x && npm install ./p.tgz", true},
		{"echo x > p/x && tar -czf p.tgz p/x && npm i --offline file:p.tgz", true},
		{"echo x > p/x && tar -czf p-1.tar.gz p/x && python3 -m pip wheel ./p-1.tar.gz", true},
		{"echo x > p/x && tar -czf p-1.tar.gz p/x && pip3 install --no-index p-1.tar.gz", true},
		{"echo ./p.tgz > r.txt && python3 -m pip install -r r.txt", true},
		{"echo ./p.tgz > r.txt && pip install --requirement=r.txt", true},
		{"mkdir -p build && npm run build", false},
		{"npm install lodash && node x.js", false},
		{"tar -czf p.tgz p && echo x > out.txt", false},
		{".venv/bin/python3 -m pip install -r requirements.txt", false},
		{"echo x > .mvn/jvm.config && mvn -v", true},
		{"echo x > sub/.mvn/jvm.config && cd sub && mvn --version", true},
		{"mvn -v", false},
		{"echo x > out.txt && mvn -q package", false},
		{"echo x > out.txt && terraform apply", false},
		{"terraform plan > plan.txt", false},
		{"echo x > notes.md && cmake --build build", false},
		{"terraform apply && echo x > main.tf", false},
		{"echo x > in.txt && gpg --homedir g --batch --print-md SHA256 in.txt", false},
		// A compiler builds a program of the sources the line writes.
		{"echo x > m.c && cc -o m m.c && ./m", true},
		{"echo x > m.c && x86_64-linux-gnu-gcc-12 m.c", true},
		{"echo x > m.h && cc -include m.h -x c /dev/null", true},
		{"echo x > inc/m.h && gcc -Iinc -c y.c", true},
		{"cc -o m m.c && ./m", false},
		{"mkdir -p build && cc -o build/m m.c", false},
		{"gcc -O2 -o prog x.c > build.log 2>&1", false},
		{"echo x > out.txt && cc -c x.c", false},
		{"echo x > t/as && cc -Bt -c y.c", true},
		{"echo x > sub/as && cc -B sub -c y.c", true},
		{"echo x > p.so && gcc -fplugin=./p.so -c y.c", true},
		{"echo x > t/as && cc -Bother -c y.c", false},
		{"echo x > m.sh && make m && ./m", true},
		{"echo x | cc -x c - -o m", true},
		{"cc -S -o - x.c", false},
		// The output file of a command the analysis does not model.
		{"openssl base64 -d -in x.b64 -out x.py && python3 x.py", true},
		{"tool --output=lib/x.js && node y.js", true},
		{"tool -ox.mk && make", true},
		{"cc -c -o x.o x.c && cc -o m x.o", false},
		{"python3 x.py && python3 x.py", false},
		{"javac X.java && java X", false},
		{"cc -c x.c && make", false},
		{"tool -o out.txt && python3 x.py", false},
		// java runs sources and the classes of its class path.
		{"echo x > X.java && java X.java", true},
		{"echo x > X.java && javac X.java && java X", true},
		{"echo x > README && java --source 21 README", true},
		{"echo x > lib/a.jar && java -cp lib/a.jar X", true},
		{"javac X.java && java X", false},
		{"mkdir -p out && javac -d out X.java && java -cp out X", false},
		{"java -jar app.jar > out.txt", false},
		// A group's redirection is written while its commands run.
		{"{ echo x; python3 x.py; } > x.py", true},
		{"(echo x; python3 x.py) >> x.py", true},
		{"if true; then echo x; make; fi > Makefile", true},
		{"{ echo x; make; } >& Makefile", true},
		{"while true; do echo x; python3 x.py; done > x.py", true},
		{"{ echo x; python3 x.py; } > out.txt 2>&1", false},
		{"{ make; python3 x.py; } 2>&1 | tee build.log", false},
		{"(cd sub && make) > build.log", false},
		// go test, go run and pytest run the code of their directories.
		{"echo x > m.go && go run m.go", true},
		{"echo x > x_test.go && go test .", true},
		{"echo x > sub/x_test.go && go test ./...", true},
		{"echo x > go.mod && go test -run X ./sub/...", true},
		{"echo x > conftest.py && pytest -q", true},
		{"go test ./...", false},
		{"go test ./... > test.log 2>&1", false},
		{"echo x > testdata/in.txt && go test .", false},
		{"echo x > sub/x_test.go && go test ./other/...", false},
		{"gofmt -l . && go test ./...", false},
		// cp -t and mv -t write each operand into the directory.
		{"echo x > x.txt && cp -t t x.txt && python3 t/x.txt", true},
		{"echo x > mk && cp --target-directory=sub mk && make -C sub -f mk", true},
		{"echo x > mk && mv --target=sub mk && make -C sub -f mk", true},
		{"echo x > x.txt && cp -vt t x.txt && python3 t/x.txt", true},
		{"cp -t t x.txt && python3 t/y.py", false},
		{"echo x > sub/mk && cp --parents sub/mk t && make -f t/sub/mk", true},
		{"echo x > sub/mk && cp --parents -t t sub/mk && make -f t/sub/mk", true},
		{"echo x > sub/mk && rsync -R sub/mk t && make -f t/sub/mk", true},
		{"echo x > sub/mk && cp sub/mk t && make -f t/sub/mk", false},
		// The output an unmodelled command is told to write, run by its
		// very name: the data the line gave it may be code.
		{"echo x > b && openssl base64 -d -in b -out mk && make -s -f mk", true},
		{"openssl enc -d -base64 -in b -out y && python3 y", true},
		{"gpg --dearmor -o y b && node y", true},
		{"tool --output=y && perl y", true},
		{"cc -c -o x.o x.c && cc x.o -o m", false},
		{"objcopy -I binary -O binary b mk && make -f mk", true},
		// python finds a native extension module before a source one.
		{"base64 -d b > foo.so && python3 -m foo.bar", true},
		{"echo x > x.abi3.so && python3 t.py", true},
		{"openssl base64 -d -in b -out json.so && python3 -m json.tool f", true},
		{"echo x > lib.so && ruby t.rb", true},
		{"echo x > X.pmc && perl t.pl", true},
		{"cc -shared -fPIC -o x.so x.c && python3 t.py", false},
		// gcc loads -fplugin=NAME from the directory of -iplugindir.
		{"echo x > sub/x.so && gcc -iplugindir=sub -fplugin=x -c y.c", true},
		{"echo x > sub/x.so && cc -fplugin=x -iplugindir=sub -c y.c", true},
		{"echo x > sub/y.txt && gcc -iplugindir=sub -fplugin=x -c y.c", true},
		{"echo x > t/out.txt && gcc -iplugindir=sub -fplugin=x -c y.c", false},
		// The linker loads the plugins and inputs a driver passes it.
		{"echo x > p.so && gcc -Wl,-plugin,/w/p.so m.c", true},
		{"echo x > p.so && cc -Wl,--plugin=p.so m.c", true},
		{"echo x > p.so && cc -Xlinker --plugin=p.so m.c", true},
		{"echo x > out.txt && gcc -Wl,--as-needed,-rpath,/opt/lib -o m m.c", false},
		// pydoc and pygmentize run the files they are given.
		{"echo x > t.txt && pydoc3 ./t.txt", true},
		{"echo x > t.txt && pydoc3.11 -w ./t.txt", true},
		{"echo x > t.py.txt && pygmentize -x -l t.py.txt:L README", true},
		{"echo x > f.py && pygmentize -x -ff.py README", true},
		{"echo x > t.txt && pydoc3 json", false},
		{"echo x > t.txt && pygmentize -l python README", false},
		// git format-patch writes commit messages to numbered files.
		{"git format-patch -1 -q && perl -x 0001-x.patch", true},
		{"git format-patch -1 --suffix=.py && python3 t.py", true},
		{"git format-patch -1 --numbered-files && make -f 1", true},
		{"git format-patch -1 --stdout > out.txt && perl -x t.pl", false},
		{"git format-patch -1 && perl -x t.pl", false},
		// Options of unmodelled commands that load code.
		{"echo x > e.so && openssl enc -engine /w/e.so -in f -out g", true},
		{"echo x > p && nm --plugin p f", true},
		{"echo x > p && ld -plugin=p", true},
		{"echo x > sub/legacy.so && openssl list -provider-path sub -provider legacy", true},
		{"echo x > p && tool --Load-Extension p", true},
		{"echo x > out.txt && openssl enc -engine /opt/e.so -in f -out g", false},
		{"echo x > p && tool --plugin -v p", false},
		// rustc builds its sources, cargo its crate and build script.
		{"echo 'fn main(){}' > m.rs && rustc m.rs && ./m", true},
		{"echo x > lib.rs && rustc --crate-type=lib -o l m.rs", true},
		{"echo x > p.so && rustc --extern p=p.so m.rs", true},
		{"mkdir -p src && echo x > src/main.rs && cargo run -q", true},
		{"echo x > build.rs && cargo build", true},
		{"echo x > Cargo.toml && cargo test", true},
		{"echo x > rust-toolchain.toml && cargo check", true},
		{"rustc m.rs && ./m", false},
		{"rustc -o m m.rs && ./m", false},
		{"cargo build && cargo test", false},
		{"echo x > out.txt && cargo --version", false},
		// The JVM loads native agents and libraries.
		{"echo x > foo.so && java -agentpath:/w/foo.so -version", true},
		{"echo x > a && javac -J-agentpath:/w/a=opt -version", true},
		{"echo x > a && javap -J-agentpath:a X", true},
		{"echo x > sub/libx.so && java -cp . X", true},
		{"echo x > out.txt && java -agentpath:/opt/agent.so -cp . X", false},
		// Standard modules that run a file they are given.
		{"echo x > t.txt && python3 -m doctest -v t.txt", true},
		{"echo x > t.txt && python3 -m pydoc ./t.txt", true},
		{"printf x > p && python3 -mpickle p", true},
		{"echo x > t.txt && python3 -m cProfile -s time t.txt", true},
		{"echo x > t.txt && python3 -m trace --trace t.txt", true},
		{"echo x > t.txt && python3 -m profile t.txt", true},
		{"echo x > t.txt && python3 -m doctest README", false},
		{"echo x > t.txt && python3 -m json.tool t.txt", false},
		{"python3 -m uu -d b y && python3 y", true},
		{"python3 manage.py migrate && python3 manage.py runserver", false},
		{"make -f mk && make -f mk", false},
		{"node build.js && node build.js", false},
		{"cc -c x.c && cc -o m x.o", false},
		{"openssl base64 -in b -out y.txt && python3 z", false},
	}
	for _, tt := range tests {
		a := analyzeBash(tt.line, "/home/u", "/w")
		if got := len(a.reasons) > 0; got != tt.opaque {
			t.Errorf("%q: opaque %v, want %v (reasons %v)", tt.line, got, tt.opaque, a.reasons)
		}
		if r := strings.Join(a.reasons, "; "); tt.opaque && !strings.Contains(r, "which the line writes") && !strings.Contains(r, "from its standard input") {
			t.Errorf("%q: reasons %v, want one about code the line writes", tt.line, a.reasons)
		}
	}
}

func TestBashAnalysisBoundsTheCodeUses(t *testing.T) {
	line := strings.Repeat("make -f x; ", maxCodeUses)
	if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
		t.Errorf("%d makes: not opaque", maxCodeUses)
	}
}

func TestBashAnalysisComparesCodeUsesQuickly(t *testing.T) {
	// Before the comparisons were filtered by base name and bounded, each
	// of these took seconds: the writes were compared with every code use.
	// The line is timed against one of the same writes whose later commands
	// use no code (so nothing is compared), the faster of three runs each,
	// in the same process: a ratio, which a slow or busy machine (or -race)
	// changes far less than a time. Comparing every write with every code
	// use made it over 100; bounded, it is under 3.
	line := func(parts [3]string) string {
		var b strings.Builder
		for i := range 15 {
			b.WriteString(strings.ReplaceAll(parts[0], "%d", strconv.Itoa(i)))
		}
		for i := range 900 {
			b.WriteString(strings.ReplaceAll(parts[1], "%d", strconv.Itoa(i)))
		}
		for i := range 60 {
			b.WriteString(strings.ReplaceAll(parts[2], "%d", strconv.Itoa(i)))
		}
		return b.String()
	}
	fastest := func(l string) time.Duration {
		best := time.Duration(math.MaxInt64)
		for range 3 {
			start := time.Now()
			analyzeBash(l, "/home/u", "/w")
			best = min(best, time.Since(start))
		}
		return best
	}
	for _, parts := range [][3]string{
		{"cd d%d; ", "echo > f%d.txt; ", "python3 a.py; "},
		{"cd d%d; ", "echo > *%d; ", "go test ./d%d; "},
		{"cd d%d; ", "echo > */f%d; ", "node a%d.js; "},
		{"cd node_modules/d%d; ", "echo > f%d; ", "go test ./d%d; "},
		{"cd d%d; ", "echo > x%d/f.go; ", "go test ./d%d; "},
		{"cd d%d; ", "chmod +x f%d; ", "tool --a=./g%d ./h%d x%d y%d z%d; "},
		{"cd d%d; ", "chmod +x f%d*; ", "tool --a=./g%d ./h%d x%d y%d z%d; "},
		{"cd d%d; ", "chmod -R +x t%d; ", "tool --a=./g%d ./h%d x%d y%d z%d; "},
		{"cd d%d; ", "cp k/* d%d; ", "tar cf x.tar *%d; "},
		{"cd d%d; ", "tool -x%d; ", "tar cf x.tar *%d; "},
		{"cd d%d; ", "echo > f%d; ", "make -C s%d; "},
	} {
		plain := fastest(line([3]string{parts[0], parts[1], "true %d; "}))
		got := fastest(line(parts))
		if ratio := float64(got) / float64(max(plain, time.Microsecond)); ratio > 20 {
			t.Errorf("%q…: %v, %.1f times the same writes without code uses (%v)", parts, got, ratio, plain)
		} else {
			t.Logf("%q: %.2f (%v vs %v)", parts[2], ratio, got, plain)
		}
	}
}

func TestChmodModesThatAddExecute(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want bool
	}{
		{"+x", true}, {"u+x", true}, {"a+rx", true}, {"go=rx", true}, {"u=rwx,go=", true}, {"+X", true},
		{"g+u", true}, {"o=g", true}, {"755", true}, {"0700", true}, {"4711", true}, {"001", true}, {"u-w,+x", true},
		{"644", false}, {"0600", false}, {"4644", false}, {"-x", false}, {"a-x", false}, {"u+rw", false},
		{"go=", false}, {"u=rw,go=r", false}, {"+s", false},
	} {
		if got := modeAddsExec(tc.mode); got != tc.want {
			t.Errorf("modeAddsExec(%q) = %v, want %v", tc.mode, got, tc.want)
		}
	}
}

func TestCompilerLinkerOptionFilesAreOpaque(t *testing.T) {
	for _, line := range []string{"gcc -Wl,@o.txt m.c", "cc -Wl,-z,now,@o.txt m.c", "gcc -Xlinker @o.txt m.c"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	if a := analyzeBash("gcc -Wl,-z,now -o m m.c", "/home/u", "/w"); len(a.reasons) > 0 {
		t.Errorf("gcc -Wl,-z,now is opaque: %q", a.reasons)
	}
}

func TestPerlMagicOpenOperandsAreOpaque(t *testing.T) {
	for _, line := range []string{"perl -p /dev/null 'rm -f c|'", "perl -n x.pl ' nuke | '", "perl t.pl '>out.txt'",
		"perl -p /dev/null '<&=0'", "perl -i -p x.pl '+<f'", "perl -ln /dev/null '|nuke'"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{"perl -p /dev/null README", "perl t.pl README out.txt", "perl -w t.pl -- x"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
