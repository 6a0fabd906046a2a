//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// utf16LE is s in UTF-16, little-endian, after a byte order mark: PyYAML
// (mkdocs) reads such a file as it reads UTF-8.
func utf16LE(s string) string {
	b := []byte{0xff, 0xfe}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

// canaryRT124 are projects of round redteam124 whose settings files give
// a key the gate checks in a form that its key-by-key reader of round 123
// did not see, while the tool's own YAML or JSON parser did: each line
// was allowed at round 123, and each real run wrote into the home.
var canaryRT124 = []settingsCanary{
	// YAML's explicit keys, in mkdocs, jekyll, rubocop, cspell,
	// golangci-lint and hugo.
	{tool: "mkdocs", line: "mkdocs build", files: map[string]string{"mkdocs.yml": "site_name: x\n? site_dir\n: ../home/ek\n", "docs/index.md": "# x\n"}, wrote: "ek/index.html"},
	{tool: "jekyll", line: "jekyll build", files: map[string]string{"_config.yml": "? destination\n: ../home/jek\n", "index.md": "---\n---\nx\n"}, wrote: "jek/index.html"},
	{tool: "rubocop", line: "rubocop", files: map[string]string{".rubocop.yml": "AllCops:\n  ? CacheRootDirectory\n  : ../home/rce\n", "a.rb": "x = 1\n"}, wrote: "rce/rubocop_cache"},
	{tool: "cspell", line: "cspell lint .", files: map[string]string{"cspell.config.yaml": "cache:\n  useCache: true\n  ? cacheLocation\n  : ../home/csy\n"}, wrote: "csy"},
	{tool: "golangci-lint", line: "golangci-lint run", files: map[string]string{"go.mod": "module m\n\ngo 1.21\n", "m.go": "package m\n",
		".golangci.yml": "version: \"2\"\noutput:\n  formats:\n    json:\n      ? path\n      : ../home/gle.json\n"}, wrote: "gle.json"},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.yaml": "? publishDir\n: ../home/hye\n", "content/_index.md": "x\n"}, wrote: "hye"},
	// A double-quoted YAML key or value continued on the next line, a
	// value on the line after a comment.
	{tool: "mkdocs", line: "mkdocs build", files: map[string]string{"mkdocs.yml": "site_name: x\n? \"site_\\\n  dir\"\n: ../home/cont\n", "docs/index.md": "# x\n"}, wrote: "cont/index.html"},
	{tool: "mkdocs", line: "mkdocs build", files: map[string]string{"mkdocs.yml": "site_name: x\nsite_dir: \"..\\\n  /home/dqcont\"\n", "docs/index.md": "# x\n"}, wrote: "dqcont/index.html"},
	{tool: "mkdocs", line: "mkdocs build", files: map[string]string{"mkdocs.yml": "site_name: x\nsite_dir:   # the site\n  ../home/cmt\n", "docs/index.md": "# x\n"}, wrote: "cmt/index.html"},
	// UTF-16, and the line breaks of Unicode that PyYAML ends lines at.
	{tool: "mkdocs", line: "mkdocs build", files: map[string]string{"mkdocs.yml": utf16LE("site_name: x\nsite_dir: ../home/u16\n"), "docs/index.md": "# x\n"}, wrote: "u16/index.html"},
	{tool: "mkdocs", line: "mkdocs build", files: map[string]string{"mkdocs.yml": "site_name: x\u2028site_dir: ../home/ls\n", "docs/index.md": "# x\n"}, wrote: "ls/index.html"},
	{tool: "mkdocs", line: "mkdocs build", files: map[string]string{"mkdocs.yml": "site_name: x\u0085site_dir: ../home/nel\n", "docs/index.md": "# x\n"}, wrote: "nel/index.html"},
	// JSON with a newline or a comment between a key and its colon.
	{tool: "cspell", line: "cspell lint .", files: map[string]string{"cspell.json": "{\"cache\": {\"useCache\": true, \"cacheLocation\"\n: \"../home/csn\"}}"}, wrote: "csn"},
	{tool: "cspell", line: "cspell lint .", files: map[string]string{"cspell.json": "{\"cache\": {\"useCache\": true, \"cacheLocation\" /* c */ : \"../home/csc\"}}"}, wrote: "csc"},
	{tool: "cmake", line: "cmake --preset x", files: map[string]string{"CMakeLists.txt": "cmake_minimum_required(VERSION 3.20)\nproject(p NONE)\n",
		"CMakePresets.json": "{\"version\": 4, \"configurePresets\": [{\"name\": \"x\", \"binaryDir\"\n: \"../home/cmn\"}]}"}, wrote: "cmn/CMakeCache.txt"},
	{tool: "jest", line: "jest --listTests", files: map[string]string{"package.json": "{\"name\": \"x\", \"jest\": {\"cacheDirectory\"\n: \"../home/jcn\"}}",
		"a.test.js": "test('x', () => {});\n"}, wrote: "jcn"},
	{tool: "golangci-lint", line: "golangci-lint run", files: map[string]string{"go.mod": "module m\n\ngo 1.21\n", "m.go": "package m\n",
		".golangci.json": "{\"version\": \"2\", \"output\": {\"formats\": {\"json\": {\"path\"\n: \"../home/gln.json\"}}}}"}, wrote: "gln.json"},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.json": "{\"publishDir\"\n: \"../home/hjn\"}", "content/_index.md": "x\n"}, wrote: "hjn"},
	// clang-tidy's compilation database: a file it does not list gets
	// the arguments of a similar one, here -include of the key, which
	// the compiler's error then prints.
	{tool: "clang-tidy", line: "clang-tidy a.c", files: map[string]string{"a.c": "int f(void) { return 1; }\n",
		"compile_commands.json": `[{"directory": "/", "file": "/nonexistent/b.c", "arguments": ["cc", "-c", "b.c", "-include", "HOMEDIR/.ssh/id_ed25519"]}]`}, printed: true},
	{tool: "clang-tidy", line: "clang-tidy -p build src/a.c", files: map[string]string{"src/a.c": "int f(void) { return 1; }\n",
		"build/compile_commands.json": `[{"directory": "/", "file": "/x/y.c", "command": "cc -c y.c -include HOMEDIR/.ssh/id_ed25519"}]`}, printed: true},
	{tool: "clang-tidy", line: "clang-tidy a.c", files: map[string]string{"a.c": "int f(void) { return 1; }\n",
		"compile_commands.json": `[{"directory": "WORKDIR", "file": "WORKDIR/a.c", "arguments": ["cc", "-c", "a.c", "-include", "HOMEDIR/.ssh/id_ed25519"]}]`}, printed: true},
	// The options that name a settings file, in the forms the tools'
	// parsers take besides --name=V and --name V: LLVM's single dash,
	// argparse's and Ruby OptionParser's abbreviations, a short
	// option's attached value; and clang-tidy's --vfsoverlay, whose file
	// maps the source to the key.
	{tool: "clang-tidy", line: "clang-tidy -config-file=tidy.yml a.c --", files: map[string]string{"a.c": "int f(void) { return 1; }\n",
		"tidy.yml": "ExtraArgs: ['-include', 'HOMEDIR/.ssh/id_ed25519']\n"}, printed: true},
	{tool: "clang-tidy", line: "clang-tidy --p build a.c", files: map[string]string{"a.c": "int f(void) { return 1; }\n",
		"build/compile_commands.json": `[{"directory": "/", "file": "/x/y.c", "command": "cc -c y.c -include HOMEDIR/.ssh/id_ed25519"}]`}, printed: true},
	{tool: "clang-tidy", line: "clang-tidy --vfsoverlay=o.yaml a.c --", files: map[string]string{"a.c": "int f(void) { return 1; }\n",
		"o.yaml": "{version: 0, roots: [{name: 'WORKDIR/a.c', type: file, external-contents: 'HOMEDIR/.ssh/id_ed25519'}]}\n"}, printed: true},
	{tool: "rubocop", line: "rubocop --conf alt.yml a.rb", files: map[string]string{"alt.yml": "AllCops:\n  CacheRootDirectory: ../home/rca\n", "a.rb": "x = 1\n"}, wrote: "rca"},
	{tool: "jekyll", line: "jekyll build --conf _ci.yml", files: map[string]string{"_ci.yml": "destination: ../home/jca\n", "index.md": "---\n---\nx\n"}, wrote: "jca/index.html"},
	{tool: "mypy", line: "mypy --conf m.ini a.py", files: map[string]string{"m.ini": "[mypy]\ncache_dir = ../home/mca\n", "a.py": "x = 1\n"}, wrote: "mca"},
	{tool: "pytest", line: "pytest -q -cp.ini", files: map[string]string{"p.ini": "[pytest]\ncache_dir = ../home/pca\n", "test_a.py": "def test_a():\n    pass\n"}, wrote: "pca"},
	{tool: "mkdocs", line: "mkdocs build -falt.yml", files: map[string]string{"alt.yml": "site_name: x\nsite_dir: ../home/mfa\n", "docs/index.md": "# x\n"}, wrote: "mfa/index.html"},
	{tool: "hugo", line: "hugo -ssite", files: map[string]string{"site/hugo.toml": "publishDir = \"../../home/hsa\"\n", "site/content/_index.md": "x\n"}, wrote: "hsa"},
	{tool: "golangci-lint", line: "golangci-lint run -calt.yml", files: map[string]string{"go.mod": "module m\n\ngo 1.21\n", "m.go": "package m\n",
		"alt.yml": "version: \"2\"\noutput:\n  formats:\n    json:\n      path: ../home/gla.json\n"}, wrote: "gla.json"},
	{tool: "cspell", line: "cspell lint -calt.json .", files: map[string]string{"alt.json": `{"cache": {"useCache": true, "cacheLocation": "../home/csa"}}`}, wrote: "csa"},
	{tool: "bazel", line: "bazel --bazelrc=ci.rc version", files: map[string]string{"WORKSPACE": "",
		"ci.rc": "startup --max_idle_secs=10\nstartup --output_user_root=../home/bzr\n"}, wrote: "bzr"},
	// A short option that names a settings file at the end of a cluster
	// of flags (argparse, Ruby's OptionParser and pflag take them).
	{tool: "pytest", line: "pytest -qc p.ini", files: map[string]string{"p.ini": "[pytest]\ncache_dir = ../home/pqc\n",
		"test_a.py": "def test_a():\n    pass\n"}, wrote: "pqc"},
	{tool: "rubocop", line: "rubocop -Dc alt.yml a.rb", files: map[string]string{"alt.yml": "AllCops:\n  CacheRootDirectory: ../home/rdc\n",
		"a.rb": "x = 1\n"}, wrote: "rdc"},
	{tool: "golangci-lint", line: "golangci-lint run -vc alt.yml", files: map[string]string{"go.mod": "module m\n\ngo 1.21\n", "m.go": "package m\n",
		"alt.yml": "version: \"2\"\noutput:\n  formats:\n    json:\n      path: ../home/gvc.json\n"}, wrote: "gvc.json"},
	// rubocop's .rubocop file holds options it adds to every command line.
	{tool: "rubocop", line: "rubocop a.rb", files: map[string]string{".rubocop": "--cache-root ../home/rcr\n", "a.rb": "x = 1\n"}, wrote: "rcr"},
	{tool: "rubocop", line: "rubocop a.rb", files: map[string]string{".rubocop": "--config alt.yml\n", "alt.yml": "AllCops:\n  CacheRootDirectory: ../home/rcc\n",
		"a.rb": "x = 1\n"}, wrote: "rcc"},
	{tool: "rubocop", line: "rubocop a.rb", files: map[string]string{".rubocop": "--require ./cops.rb\n", "cops.rb": "File.write('../home/rrq', 'x')\n",
		"a.rb": "x = 1\n"}, wrote: "rrq"},
	// A line that writes the settings file an option names and runs the
	// tool: the gate reads the file as it is before the line.
	{tool: "mkdocs", line: `printf 'site_name: x\nsite_dir: ../home/wf\n' > alt.yml && mkdocs build -f alt.yml`,
		files: map[string]string{"docs/index.md": "# x\n"}, wrote: "wf/index.html"},
	{tool: "mypy", line: `printf '[mypy]\ncache_dir = ../home/wm\n' > m.ini && mypy --config-file m.ini a.py`, files: map[string]string{"a.py": "x = 1\n"}, wrote: "wm"},
	{tool: "mypy", line: `printf '[mypy]\ncache_dir = ../home/wma\n' > m.ini && mypy --conf m.ini a.py`, files: map[string]string{"a.py": "x = 1\n"}, wrote: "wma"},
	{tool: "clang-tidy", line: `printf "ExtraArgs: ['-MD', '-MF', '../home/wt.d']\n" > t.yml && clang-tidy --config-file=t.yml a.c --`,
		files: map[string]string{"a.c": "int f(void);\n"}, wrote: "wt.d"},
	{tool: "cspell", line: `echo '{"cache": {"useCache": true, "cacheLocation": "../home/wc"}}' > alt.json && cspell lint -c alt.json .`, wrote: "wc"},
	{tool: "jest", line: `echo '{"cacheDirectory": "../home/wj"}' > j.json && jest -c j.json --listTests`,
		files: map[string]string{"a.test.js": "test('x', () => {});\n"}, wrote: "wj"},
}

// rt124Ordinary are ordinary projects whose YAML and JSON settings take
// the forms the parser reads: pretty-printed JSON, comments and trailing
// commas where the tool takes them, CRLF line ends, an explicit key,
// folded and quoted strings, text beyond ASCII.
var rt124Ordinary = []settingsOrdinary{
	{tool: "mkdocs", line: "mkdocs build", files: map[string]string{"mkdocs.yml": "site_name: Café docs\r\nsite_dir: site\r\n" +
		"? site_description\r\n: >\r\n  Folded text\r\n  on two lines\r\nrepo_name: \"me/\\\r\n  docs\"\r\nnav:\r\n  - Home: index.md\r\n",
		"docs/index.md": "# x\n"}},
	{tool: "cspell", line: "cspell lint .", files: map[string]string{"cspell.json": "{\n  // the team's words\n  \"version\": \"0.2\",\n" +
		"  \"words\": [\"mkdocs\"], /* more below */\n  \"cache\": {\"useCache\": true, \"cacheLocation\": \".cspellcache\"}\n}\n"}},
	{tool: "cmake", line: "cmake --preset dev", files: map[string]string{"CMakeLists.txt": "cmake_minimum_required(VERSION 3.20)\nproject(p NONE)\n",
		"CMakePresets.json": "{\n  \"version\": 3,\n  \"configurePresets\": [\n    {\n      \"name\": \"dev\",\n" +
			"      \"binaryDir\": \"${sourceDir}/build\"\n    }\n  ]\n}\n"}},
	{tool: "jest", line: "jest --listTests", files: map[string]string{"package.json": "{\n  \"name\": \"x\",\n  \"jest\": {\n" +
		"    \"cacheDirectory\": \"<rootDir>/.jest-cache\",\n    \"roots\": [\"<rootDir>/src\"]\n  }\n}\n", "src/a.test.js": "test('x', () => {});\n"}},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.yaml": "title: x\npublishDir: public\nparams:\n  description: 'it''s ours'\n", "content/_index.md": "x\n"}},
	{tool: "golangci-lint", line: "golangci-lint run", files: map[string]string{"go.mod": "module m\n\ngo 1.21\n", "m.go": "package m\n",
		".golangci.json": "{\n  \"version\": \"2\",\n  \"output\": {\"formats\": {\"json\": {\"path\": \"build/lint.json\"}}}\n}\n"}},
	{tool: "rubocop", line: "rubocop a.rb", files: map[string]string{".rubocop": "--format progress --display-cop-names\n--parallel\n", "a.rb": "x = 1\n"}},
	// cmake's compilation database, with its absolute paths.
	{tool: "clang-tidy", line: "clang-tidy -p build src/a.c", files: map[string]string{"src/a.c": "#include \"a.h\"\nint f(void) { return A; }\n",
		"include/a.h": "#define A 1\n", "build/compile_commands.json": `[{"directory": "WORKDIR/build", "command": "/usr/bin/cc -DN=1 ` +
			`-DNAME=\\\"x\\\" -IWORKDIR/include -isystem /usr/include/x -Wall -Wextra -std=gnu11 -o CMakeFiles/p.dir/src/a.c.o ` +
			`-c WORKDIR/src/a.c", "file": "WORKDIR/src/a.c"}]`}},
}

// TestCanaryRT124 checks canaryRT124 and rt124Ordinary as
// TestCanaryRT123 checks its own.
func TestCanaryRT124(t *testing.T) {
	t.Parallel()
	checkSettingsCanaries(t, canaryRT124, rt124Ordinary)
}

// TestRT124Tsconfig checks tsconfig.json files, which tsc reads with
// comments and trailing commas, by the decision alone (tsc is not among
// the canaries' tools): a key hidden by a newline or a comment before its
// colon asks, an ordinary file with comments and trailing commas does not.
func TestRT124Tsconfig(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		tsconfig string
		want     permission.Decision
	}{
		{"{\"compilerOptions\": {\"outDir\"\n: \"../home/out\"}}", permission.Ask},
		{"{\"compilerOptions\": {\"outDir\" /* build */ : \"../home/out\"}}", permission.Ask},
		{"{\"compilerOptions\": {\"outDir\" // build\n : \"../home/out\"}}", permission.Ask},
		{"{\"compilerOptions\": {\"outDir\": \"dist\"}} {\"compilerOptions\": {\"outDir\": \"../home/out\"}}", permission.Ask},
		{"{\"compilerOptions\": {\"outDir\": \"dist\"", permission.Ask},
		{"{\n  // Build settings\n  \"compilerOptions\": {\n    \"outDir\": \"dist\", /* emitted here */\n" +
			"    \"strict\": true,\n  },\n  \"include\": [\"src\",],\n}\n", permission.Allow},
	} {
		home, wd := unlinkedFixture(t)
		writeTreeMode(t, wd, map[string]string{"tsconfig.json": c.tsconfig}, 0o644)
		if v := secretDecider(t, home, wd)("tsc"); v.Decision != c.want {
			t.Errorf("tsc with %q: %v (%s), want %v", c.tsconfig, v.Decision, v.Reason, c.want)
		}
	}
}
