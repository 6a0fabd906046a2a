package shellscan

import "testing"

// Round redteam61: each opaque line of the first group did damage in the
// home under real bash (in bwrap, a throwaway home) and "allow bash"
// allowed it: bun gave a test's child node the NODE_OPTIONS of a written
// .env.test or .env.local; flask called subprocess.getoutput from its
// --app (or a written .flaskenv's FLASK_APP) and ran the Python of its
// standard input in flask shell; python3 -m pickle - unpickled its
// standard input; pandoc ran a Lua filter named x.txt, read the defaults
// of x.yaml for -d x and those and the filters of a --data-dir; go test
// linked the .sx file the line wrote into a cgo package's test binary.
// The second group is of the same kinds, found by reading where the tool
// does not run here: maven compiles and runs src/test/java, pytest 9
// reads pytest.toml, coverage's settings as python -m coverage, the
// shell of Django's manage.py and django-admin.
func TestRedteam61(t *testing.T) {
	opaque := []string{
		// bun's .env files beside .env, by NODE_ENV and .local.
		"printf 'NODE_OPTIONS=--require ./p.txt\\n' > .env.test; bun test",
		"echo x > .env.local; bun run.js", "echo x > .env.development; bun run build",
		"echo x > .env.production; bun run build", "echo x > .env.staging; NODE_ENV=staging bun test",
		// flask's app factory call, its dotenv files, its shell.
		`flask --app "subprocess:getoutput('cd ..;touch home/p')" routes`,
		`flask -A "subprocess:getoutput('x')" routes`, `flask --app="os:popen('x')" run`,
		`python3 -m flask --app "subprocess:getoutput('x')" routes`,
		`gunicorn "app:create('x')"`, `hypercorn "subprocess:getoutput('x')"`,
		`printf "FLASK_APP=subprocess:getoutput('x')\n" > .flaskenv; flask routes`,
		"echo x > .env; flask routes", "echo x > .flaskenv; python3 -m flask run",
		"echo x > e; flask --env-file e routes", "echo x > e; flask -e e routes", "echo x > e; flask --env-file=e routes",
		"echo 'import os' | flask shell", "flask shell < f", "flask --app app shell <<< 'import os'",
		"python3 -m flask shell < f",
		// python -m pickle of its standard input.
		`printf 'cos\nsystem\n(S"x"\ntR.' | python3 -m pickle -`, "base64 -d f | python3 -m pickle -",
		"python3 -m pickle - < f", "python3 -m pickle a.pkl - < f",
		// pandoc's Lua filters, defaults and data directory.
		"printf 'os.execute(\"x\")' > x.txt; pandoc -L x.txt README",
		"echo x > x.txt; pandoc --lua-filter x.txt README", "echo x > x.txt; pandoc --lua-filter=x.txt README",
		"echo x > x.txt; pandoc -Lx.txt README", "echo x > x.txt; pandoc --lua-f=x.txt README",
		"echo x | pandoc -L - README", "pandoc -L $f README",
		"printf 'output-file: ../home/p\\n' > x.yaml; pandoc -d x README",
		"echo x > x.yaml; pandoc --defaults=x README", "echo x > x.yaml; pandoc -dx README",
		"mkdir -p d/defaults; echo x > d/defaults/x.yaml; pandoc --data-dir=d -d x README",
		"mkdir -p d/filters; echo x > d/filters/f.lua; pandoc --data-dir=d -L f.lua README",
		"mkdir -p d; echo x > d/init.lua; pandoc --data-dir d README", "pandoc --data-dir=$d README",
		// go's other cgo sources.
		"printf '.text\\n' > x.sx; go test ./...", "echo x > x.sx; go run .", "echo x > x.f90; go test ./...",
		"echo x > x.F; go test", "echo x > x.for; go vet ./...", "echo x > x.swig; go test ./...", "echo x > x.swigcxx; go run .",
		// Second group.
		"mkdir -p src/test/java; echo x > src/test/java/XTest.java; mvn test", "echo x > A.kt; mvn package",
		"echo x > A.java; ./mvnw test", "echo x > A.groovy; mvn verify",
		"printf '[pytest]\\naddopts = [\"--basetemp=../home\"]\\n' > pytest.toml; pytest",
		"echo x > .pytest.toml; pytest -q", "echo x > .pytest.ini; python3 -m pytest",
		"echo x > .coveragerc; python3 -m coverage run -m pytest", "echo x > setup.cfg; python3 -m coverage report",
		"python3 manage.py shell < f", "echo x | python3 manage.py shell", "python3 manage.py shell -c 'import os'",
		"python3 manage.py shell --command='x'", "django-admin shell -c 'import os'", "django-admin shell < f",
		"python3 manage.py dbshell < f",
	}
	clean := []string{
		"bun test", "bun run build", "echo x > notes.txt; bun test", "echo x > .envrc.txt; bun test",
		"flask routes", "flask run", "flask --app app run", "flask --app hello:app routes", "flask --version",
		"echo x > notes.txt; flask routes", "python3 -m flask routes",
		"gunicorn app:app", "gunicorn 'app:create_app'", "uvicorn main:app",
		"python3 -m pickle a.pkl", "python3 -m pickletools a.pkl",
		"pandoc README", "pandoc -L f.lua README", "pandoc --lua-filter=f.lua README", "pandoc -d x README",
		"pandoc --data-dir=d README", "echo x > notes.txt; pandoc -L f.lua README",
		"go test ./...", "echo x > notes.txt; go test ./...", "echo x > x.txt; go build",
		"echo x > x.sx; go build", "echo x > x.c; go build",
		"mvn test", "echo x > notes.txt; mvn test", "pytest", "echo x > notes.txt; pytest",
		"python3 -m coverage report", "python3 manage.py test", "python3 manage.py migrate",
	}
	checkRT57Lines(t, opaque, clean)
}

// Round redteam61, doctests: pytest collects the doctests of test*.txt
// by default (and of the files its --doctest-glob matches), and cargo
// test runs those of a README.md the crate includes as its
// documentation (#![doc = include_str!("../README.md")]); each ran the
// code of a file the line wrote and damaged the home under real bash,
// and "allow bash" allowed it.
func TestRedteam61Doctests(t *testing.T) {
	opaque := []string{
		`printf '>>> import os\n' > test_x.txt; pytest`, "echo x > test_x.txt; python3 -m pytest -q",
		"echo x > sub/testing.txt; pytest-3 sub", "echo x > README.md; pytest --doctest-glob='*.md'",
		"echo x > x.rst; pytest --doctest-glob=*.rst", "echo x > x.rst; python3 -m pytest --doctest-glob '*.rst'",
		"pytest --doctest-glob=$g",
		"printf '```\\nstd::fs::write(\"../home/p\", \"\").unwrap();\\n```\\n' > README.md; cargo test",
		"echo x >> README.md; cargo test --doc", "echo x > docs/x.md; cargo t", "echo x > README.md; cargo +nightly test",
	}
	clean := []string{
		"pytest", "echo x > notes.txt; pytest", "echo x > README.md; pytest", "pytest --doctest-glob='*.md'",
		"cargo test", "echo x > README.md; cargo build", "echo x > notes.txt; cargo test",
	}
	checkRT57Lines(t, opaque, clean)
}

// Round redteam61, linker scripts: ld -T x.ld writes the file the
// script's OUTPUT names (ld -r -b binary README -T x.ld wrote ~/p under
// real bash), and "allow bash" allowed it.
func TestRedteam61LinkerScripts(t *testing.T) {
	opaque := []string{
		"printf 'OUTPUT(../home/p)\\n' > x.ld; ld -r -b binary README -T x.ld",
		"echo x > x.ld; ld x.o -T x.ld", "echo x > x.ld; ld x.o --script=x.ld", "echo x > x.ld; ld x.o -Tx.ld",
		"echo x > x.ld; ld.bfd x.o -T x.ld", "echo x > x.ld; ld.gold x.o -T x.ld", "echo x > x.ld; ld x.o -dT x.ld",
		"echo x > x.ld; ld x.o --default-script x.ld", "echo x > s; ld -c s x.o", "echo x > x.ld; ld.lld x.o -T x.ld",
		"echo x > x.ld; ld x.o x.ld",
	}
	clean := []string{"ld -T x.ld x.o", "ld -r -b binary README -o r.o", "echo x > notes.txt; ld x.o -T x.ld"}
	checkRT57Lines(t, opaque, clean)
}

// Round redteam61, pip's settings: a virtual environment's pip.conf (and
// pip.ini) says where any pip command writes its log (log=, which wrote
// ~/x under real bash for .venv/bin/pip list), and "allow bash" allowed
// every pip command but install after the line wrote one.
func TestRedteam61PipConf(t *testing.T) {
	opaque := []string{
		"printf '[global]\\nlog=../home/x\\n' > .venv/pip.conf; .venv/bin/pip list",
		"echo x > .venv/pip.conf; .venv/bin/pip freeze", "echo x > .venv/pip.conf; pip3 show pip",
		"echo x > .venv/pip.conf; .venv/bin/python -m pip list", "echo x > venv/pip.ini; venv/bin/pip check",
		"echo x > .venv/pip.conf; python3 -m pip freeze",
	}
	clean := []string{".venv/bin/pip list", "pip freeze", "echo x > notes.txt; pip list", "python3 -m pip list"}
	checkRT57Lines(t, opaque, clean)
}
