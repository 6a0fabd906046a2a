//go:build linux

package permission_test

import (
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// b64 is s in base64, as YAML's !!binary holds it.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// rt125Test is a test pytest runs.
const rt125Test = "def test_a():\n    pass\n"

// canaryRT125 are projects of round redteam125 whose settings files give
// a key the gate checks in a form that its readers of round 124 did not
// see, or name files it did not read, while the tool's own reader did:
// each line was allowed at round 124, and each real run wrote into the
// home or copied ~/.ssh/id_ed25519 into the project.
var canaryRT125 = []settingsCanary{
	// TOML, which the gate read key by key only: a comment holding "]"
	// in a multi-line array, an escaped quote, an unquoted value of an
	// inline table that took the keys after it.
	{tool: "pytest", line: "pytest", files: map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = [\n  \"-q\", # see ]\n" +
		"  \"--junitxml=../home/tc.xml\",\n]\n", "test_a.py": rt125Test}, wrote: "tc.xml"},
	{tool: "pytest", line: "pytest", files: map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\ncache_dir = \"x\\\"/../../home/tq\"\n",
		"test_a.py": rt125Test}, wrote: "tq/CACHEDIR.TAG"},
	{tool: "pytest", line: "pytest", files: map[string]string{"pyproject.toml": "[tool.pytest]\nini_options = {junit_xml = 1, cache_dir = \"../home/ti\"}\n",
		"test_a.py": rt125Test}, wrote: "ti/CACHEDIR.TAG"},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "publishDir = \"x\\\"/../../home/hq\"\n", "content/_index.md": "x\n"}, wrote: "hq/index.xml"},
	// INI: a blank line or a comment inside a value continued on the
	// lines below, and Unicode's blanks and form feed, which Python's
	// iniconfig (pytest) and configparser (mypy) take for spaces.
	{tool: "pytest", line: "pytest", files: map[string]string{"pytest.ini": "[pytest]\naddopts = -q\n\n    --junitxml=../home/ib.xml\n", "test_a.py": rt125Test}, wrote: "ib.xml"},
	{tool: "pytest", line: "pytest", files: map[string]string{"pytest.ini": "[pytest]\naddopts = -q\n# more\n    --junitxml=../home/ic.xml\n", "test_a.py": rt125Test}, wrote: "ic.xml"},
	{tool: "pytest", line: "pytest", files: map[string]string{"pytest.ini": "[pytest]\ncache_dir\u00a0= ../home/inb\n", "test_a.py": rt125Test}, wrote: "inb/CACHEDIR.TAG"},
	{tool: "pytest", line: "pytest", files: map[string]string{"pytest.ini": "[pytest]\naddopts = -q\n\u00a0--junitxml=../home/inc.xml\n", "test_a.py": rt125Test}, wrote: "inc.xml"},
	{tool: "mypy", line: "mypy a.py", files: map[string]string{"mypy.ini": "[mypy]\ncache_dir\u00a0= ../home/mnb\n", "a.py": "x = 1\n"}, wrote: "mnb/CACHEDIR.TAG"},
	{tool: "mypy", line: "mypy a.py", files: map[string]string{"mypy.ini": "[mypy]\ncache_dir\f= ../home/mff\n", "a.py": "x = 1\n"}, wrote: "mff/CACHEDIR.TAG"},
	// pytest and golangci-lint read the settings of the directories their
	// words name, and those above.
	{tool: "pytest", line: "pytest sub/test_a.py", files: map[string]string{"sub/tox.ini": "[pytest]\ncache_dir = ../../home/pt\n", "sub/test_a.py": rt125Test},
		wrote: "pt/CACHEDIR.TAG"},
	{tool: "golangci-lint", line: "golangci-lint run ./sub/...", files: map[string]string{"go.mod": "module m\n\ngo 1.21\n", "sub/m.go": "package m\n",
		"sub/.golangci.yml": "version: \"2\"\noutput:\n  formats:\n    json:\n      path: ../../home/gs.json\n"}, wrote: "gs.json"},
	// mypy checks the files its settings name, and prints their lines.
	{tool: "mypy", line: "mypy", files: map[string]string{"mypy.ini": "[mypy]\nfiles = ../home/.ssh/id_ed25519\npretty = True\n"}, printed: true},
	// YAML keys in base64 (!binary, !!binary), which Ruby's Psych and
	// Go's YAML decode and yaml.v3 leaves as they are.
	{tool: "jekyll", line: "jekyll build", files: map[string]string{"_config.yml": "? !binary " + b64("destination") + "\n: ../home/jbk\n", "index.md": "---\n---\nx\n"}, wrote: "jbk/index.html"},
	{tool: "jekyll", line: "jekyll build", files: map[string]string{"_config.yml": "? !!binary " + b64("destination") + "\n: ../home/jbb\n", "index.md": "---\n---\nx\n"}, wrote: "jbb/index.html"},
	{tool: "rubocop", line: "rubocop", files: map[string]string{".rubocop.yml": "AllCops:\n  ? !binary " + b64("CacheRootDirectory") + "\n  : ../home/rbk\n", "a.rb": "x = 1\n"}, wrote: "rbk/rubocop_cache"},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.yaml": "? !!binary " + b64("publishDir") + "\n: ../home/hbk\n", "content/_index.md": "x\n"}, wrote: "hbk/index.xml"},
	{tool: "golangci-lint", line: "golangci-lint run", files: map[string]string{"go.mod": "module m\n\ngo 1.21\n", "m.go": "package m\n",
		".golangci.yml": "version: \"2\"\noutput:\n  formats:\n    json:\n      ? !!binary " + b64("path") + "\n      : ../home/glb.json\n"}, wrote: "glb.json"},
	// hugo copies into public what its static directories and module
	// mounts hold.
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "staticDir = \"../home/.ssh\"\n", "content/_index.md": "x\n"}, copied: "public/id_ed25519"},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "[module]\n[[module.mounts]]\nsource = \"../home/.ssh\"\ntarget = \"static\"\n",
		"content/_index.md": "x\n"}, copied: "public/id_ed25519"},
	// rubocop takes the words of .rubocop before its own, and hugo reads
	// its themes' settings, whose mounts it copies.
	{tool: "rubocop", line: "rubocop", files: map[string]string{".rubocop": "--out ../home/ro.txt\n", "a.rb": "x = 1\n"}, wrote: "ro.txt"},
	{tool: "rubocop", line: "rubocop", files: map[string]string{".rubocop": "--cache-root ../home/rcr\n", "a.rb": "x = 1\n"}, wrote: "rcr"},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "theme = \"t\"\n", "content/_index.md": "x\n",
		"themes/t/hugo.toml": "[module]\n[[module.mounts]]\nsource = \"../../../home/.ssh\"\ntarget = \"static\"\n"}, copied: "public/id_ed25519"},
	// doxygen recodes its values from DOXYFILE_ENCODING (in UTF-7,
	// +AC4ALgAv- is ../), and bazel joins a line ending in a backslash to
	// the next with nothing between.
	{tool: "doxygen", line: "doxygen", files: map[string]string{"Doxyfile": "DOXYFILE_ENCODING = UTF-7\nGENERATE_LATEX = NO\nOUTPUT_DIRECTORY = +AC4ALgAv-home/u7\n"},
		wrote: "u7/html/index.html"},
	{tool: "bazel", line: "bazel version", files: map[string]string{"WORKSPACE": "",
		".bazelrc": "startup --max_idle_secs=10\nstartup --output_user_root=.\\\n./home/bzc\n"}, wrote: "bzc"},
	// doxygen joins a quoted word to the word it touches.
	{tool: "doxygen", line: "doxygen", files: map[string]string{"Doxyfile": "GENERATE_LATEX = NO\nOUTPUT_DIRECTORY = \".\"./home/dq\n"}, wrote: "dq/html/index.html"},
	{tool: "doxygen", line: "doxygen", files: map[string]string{"Doxyfile": "GENERATE_LATEX = NO\nOUTPUT_DIRECTORY = .\"\"./home/dq2\n"}, wrote: "dq2/html/index.html"},
	// Settings files the gate did not read: bazel's --bazelrc, cspell's
	// .cspell.yml and cspell.jsonc; and cspell.config.js and a reporter's
	// module, which cspell runs.
	{tool: "bazel", line: "bazel --bazelrc=ci.rc version", files: map[string]string{"WORKSPACE": "",
		"ci.rc": "startup --max_idle_secs=10\nstartup --output_user_root=../home/bzr\n"}, wrote: "bzr"},
	{tool: "cspell", line: "cspell lint .", files: map[string]string{".cspell.yml": "cache:\n  useCache: true\n  cacheLocation: ../home/dy\n"}, wrote: "dy"},
	{tool: "cspell", line: "cspell lint .", files: map[string]string{"cspell.jsonc": "{\"cache\": {\"useCache\": true, \"cacheLocation\": \"../home/jc\"}}"}, wrote: "jc"},
	{tool: "cspell", line: "cspell lint .", files: map[string]string{"cspell.config.js": "require('fs').writeFileSync('../home/csjs', 'x');\nmodule.exports = {};\n"}, wrote: "csjs"},
	{tool: "cspell", line: "cspell lint .", files: map[string]string{"cspell.json": `{"reporters": ["./r.cjs"]}`,
		"r.cjs": "require('fs').writeFileSync('../home/rep', 'x');\nmodule.exports = {};\n"}, wrote: "rep"},
}

// rt125Ordinary are ordinary projects in the forms round redteam125 reads
// anew: pyproject.toml with multi-line arrays, comments, literal strings
// and escaped quotes; pytest.ini with CRLF, a comment and a blank line in
// addopts; mypy.ini's sections; hugo's static directories and module
// mounts in the project, and a theme's; cspell's .cspell.yml; bazel's
// --bazelrc with a line continued; a YAML key tagged !!str; rubocop's
// .rubocop of formats; a Doxyfile in UTF-8.
var rt125Ordinary = []settingsOrdinary{
	{tool: "pytest", line: "pytest", files: map[string]string{"pyproject.toml": "[project]\nname = \"x\"\nversion = \"1.0\"\n\n" +
		"[tool.pytest.ini_options]\nminversion = \"7.0\"\naddopts = [\n  \"-ra\",  # report all [but passes]\n  '--strict-markers',\n" +
		"  \"--junitxml=build/junit.xml\",\n]\ntestpaths = [\"tests\"]\ncache_dir = '.cache/pytest'\nmarkers = [\"slow: \\\"slow\\\" tests\"]\n\n" +
		"[tool.mypy]\ncache_dir = \".mypy_cache\"\n\n[tool.coverage.html]\ndirectory = \"htmlcov\"\n", "tests/test_a.py": rt125Test}},
	{tool: "pytest", line: "pytest", files: map[string]string{"pytest.ini": "[pytest]\r\naddopts =\r\n    -ra\r\n    # --pdb\r\n\r\n    --strict-markers\r\n" +
		"testpaths = tests\r\n\r\n; the cache\r\ncache_dir = .cache/pytest\r\n", "tests/test_a.py": rt125Test}},
	{tool: "pytest", line: "pytest tests/test_a.py::test_a", files: map[string]string{"tests/pytest.ini": "[pytest]\naddopts = -ra\ncache_dir = .cache\n",
		"tests/test_a.py": rt125Test}},
	{tool: "mypy", line: "mypy", files: map[string]string{"setup.cfg": "[mypy]\nfiles = a.py, src\npretty = True\n", "a.py": "x = 1\n", "src/b.py": "y = 2\n"}},
	{tool: "mypy", line: "mypy a.py", files: map[string]string{"mypy.ini": "[mypy]\ncache_dir = .cache/mypy\nwarn_unused_configs = True\n\n" +
		"[mypy-tests.*]\nignore_errors = True\n", "a.py": "x = 1\n"}},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "baseURL = \"https://example.org/\"\ntitle = \"x\"\nstaticDir = [\"static\", \"more\"]\n" +
		"contentDir = 'content'\n\n[module]\n[[module.mounts]]\nsource = \"assets\"\ntarget = \"assets\"\n[[module.mounts]]\nsource = \"static\"\n" +
		"target = \"static\"\n\n[params]\ndescription = \"it's \\\"ours\\\"\"\n", "content/_index.md": "x\n", "static/a.txt": "a\n",
		"more/b.txt": "b\n", "assets/c.css": "p {}\n"}},
	{tool: "cspell", line: "cspell lint .", files: map[string]string{".cspell.yml": "version: \"0.2\"\nwords:\n  - mkdocs\ncache:\n  useCache: true\n" +
		"  cacheLocation: .cspellcache\n"}},
	{tool: "bazel", line: "bazel --bazelrc=ci.bazelrc version", files: map[string]string{"WORKSPACE": "",
		"ci.bazelrc": "startup --max_idle_secs=10\nbuild --jobs=4 \\\n    --disk_cache=.cache/disk\n"}},
	{tool: "doxygen", line: "doxygen", files: map[string]string{"Doxyfile": "DOXYFILE_ENCODING = UTF-8\nGENERATE_LATEX = NO\nOUTPUT_DIRECTORY = docs\n"}},
	{tool: "jekyll", line: "jekyll build", files: map[string]string{"_config.yml": "title: x\n!!str destination: _site\n", "index.md": "---\n---\nx\n"}},
	{tool: "rubocop", line: "rubocop", files: map[string]string{".rubocop": "--format progress\n--display-cop-names --parallel\n--fail-level=warning\n",
		"a.rb": "x = 1\n"}},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "theme = \"t\"\n", "content/_index.md": "x\n",
		"themes/t/hugo.toml":    "[params]\ncolor = \"blue\"\n[module]\n[[module.mounts]]\nsource = \"static\"\ntarget = \"static\"\n",
		"themes/t/static/t.css": "p {}\n"}},
}

// TestCanaryRT125 checks canaryRT125 and rt125Ordinary as
// TestCanaryRT123 checks its own.
func TestCanaryRT125(t *testing.T) {
	t.Parallel()
	checkSettingsCanaries(t, canaryRT125, rt125Ordinary)
}

// TestCanaryRT125CompileCommands checks clang-tidy's compile_commands.json
// (which names the project's absolute directory, so the files are made in
// the fixture): a compile command with -include ../home/.ssh/id_ed25519
// asks and, run, prints the key; one as cmake writes it stays allowed and
// prints nothing of the home.
func TestCanaryRT125CompileCommands(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		command string
		want    permission.Decision
	}{
		{"cc -include ../home/.ssh/id_ed25519 -c a.c", permission.Ask},
		{"cc -I../home/.ssh -c a.c", permission.Ask},
		{"/usr/bin/cc -DNDEBUG -I{wd}/include -Iinclude -O2 -Wall -std=c11 -o CMakeFiles/p.dir/a.c.o -c {wd}/a.c", permission.Allow},
	} {
		home, wd := unlinkedFixture(t)
		command := strings.ReplaceAll(c.command, "{wd}", wd)
		db, err := json.Marshal([]map[string]string{{"directory": wd, "file": filepath.Join(wd, "a.c"), "command": command}})
		if err != nil {
			t.Fatal(err)
		}
		writeTreeMode(t, wd, map[string]string{"compile_commands.json": string(db), "a.c": "int f(void) { return 1; }\n",
			"include/a.h": "#define A 1\n"}, 0o644)
		if v := secretDecider(t, home, wd)("clang-tidy a.c"); v.Decision != c.want {
			t.Errorf("clang-tidy a.c with %q: %v (%s), want %v", command, v.Decision, v.Reason, c.want)
		}
		if _, err := exec.LookPath("clang-tidy"); err != nil {
			tooltest.LeftOut(t, "clang-tidy is not installed: the real run of clang-tidy a.c is left out", tooltest.CanaryTools)
			continue
		}
		out := runIn(t, home, wd, "clang-tidy a.c")
		if printed := strings.Contains(out, round84Key); printed != (c.want == permission.Ask && strings.Contains(command, "-include")) {
			t.Errorf("clang-tidy a.c with %q printed the key: %v:\n%s", command, printed, out)
		}
	}
}
