//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// rt126Hugo is the mount of ../home/.ssh that a hugo theme or module
// three directories down (mythemes/t, _vendor/example.com/t is four)
// copies into public.
func rt126Hugo(up string) string {
	return "[module]\n[[module.mounts]]\nsource = \"" + up + "home/.ssh\"\ntarget = \"static\"\n"
}

// canaryRT126 are projects of round redteam126, each allowed at round
// 125 while the real run wrote into the home, copied ~/.ssh/id_ed25519
// into the project or printed it:
//   - settings paths the tool takes from its working directory while the
//     gate judged them from the settings file's (pytest's addopts and
//     log_file in the settings of the directory its words name, mypy
//     --config-file, jekyll and hugo --config, bazel --bazelrc), and
//     settings files hugo takes from the directory -s names and cspell
//     from --root's;
//   - settings files the gate did not read: hugo's themes in the
//     directory themesDir or --themesDir names and the modules of
//     _vendor/modules.txt and of module.replacements, rubocop's .rubocop.yml of each directory it
//     inspects (whose ERB it runs);
//   - cspell's files and globRoot, which name the files it checks and
//     prints the unknown words of, with their lines.
var canaryRT126 = []settingsCanary{
	{tool: "pytest", line: "pytest sub/test_a.py", files: map[string]string{"sub/pytest.ini": "[pytest]\naddopts = --junitxml=../home/sj.xml\n",
		"sub/test_a.py": rt125Test}, wrote: "sj.xml"},
	{tool: "pytest", line: "pytest sub/test_a.py", files: map[string]string{"sub/pytest.ini": "[pytest]\nlog_file = ../home/lf.log\n",
		"sub/test_a.py": rt125Test}, wrote: "lf.log"},
	{tool: "pytest", line: "pytest sub", files: map[string]string{"sub/pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"--junitxml=../home/sjt.xml\"\n",
		"sub/test_a.py": rt125Test}, wrote: "sjt.xml"},
	{tool: "mypy", line: "mypy --config-file sub/m.ini a.py", files: map[string]string{"sub/m.ini": "[mypy]\ncache_dir = ../home/mc\n", "a.py": "x = 1\n"},
		wrote: "mc/.gitignore"},
	{tool: "jekyll", line: "jekyll build --config sub/c.yml", files: map[string]string{"sub/c.yml": "destination: ../home/jd\n", "index.md": "---\n---\nx\n"},
		wrote: "jd/index.html"},
	{tool: "jekyll", line: "jekyll build -s src", files: map[string]string{"src/_config.yml": "destination: ../home/js2\n", "src/index.md": "---\n---\nx\n"},
		wrote: "js2/index.html"},
	{tool: "jekyll", line: "jekyll build --config sub/c.yml", files: map[string]string{"sub/c.yml": "source: ../home/.ssh\ndestination: out\n",
		"index.md": "---\n---\nx\n"}, wrote: ".ssh/.jekyll-cache"},
	{tool: "hugo", line: "hugo --config sub/h.toml", files: map[string]string{"sub/h.toml": "publishDir = \"../home/hp\"\n", "content/_index.md": "x\n"},
		wrote: "hp/index.xml"},
	{tool: "bazel", line: "bazel --bazelrc=sub/ci.rc version", files: map[string]string{"WORKSPACE": "",
		"sub/ci.rc": "startup --max_idle_secs=10\nstartup --output_user_root=../home/bzs\n"}, wrote: "bzs"},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "themesDir = \"mythemes\"\ntheme = \"t\"\n", "content/_index.md": "x\n",
		"mythemes/t/hugo.toml": rt126Hugo("../../../")}, copied: "public/id_ed25519"},
	{tool: "hugo", line: "hugo --themesDir mythemes", files: map[string]string{"hugo.toml": "theme = \"t\"\n", "content/_index.md": "x\n",
		"mythemes/t/hugo.toml": rt126Hugo("../../../")}, copied: "public/id_ed25519"},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "[module]\n[[module.imports]]\npath = \"example.com/t\"\n", "content/_index.md": "x\n",
		"_vendor/modules.txt": "# example.com/t v1.0.0\n", "_vendor/example.com/t/hugo.toml": rt126Hugo("../../../../")}, copied: "public/id_ed25519"},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "[module]\nreplacements = \"example.com/t -> ../mods/t\"\n[[module.imports]]\npath = \"example.com/t\"\n",
		"content/_index.md": "x\n", "mods/t/hugo.toml": rt126Hugo("../../../")}, copied: "public/id_ed25519"},
	{tool: "hugo", line: "hugo -s site --themesDir th", files: map[string]string{"site/hugo.toml": "theme = \"t\"\n", "site/content/_index.md": "x\n",
		"site/th/t/hugo.toml": rt126Hugo("../../../../")}, copied: "site/public/id_ed25519"},
	{tool: "hugo", line: "hugo -s site --config h.toml", files: map[string]string{"site/h.toml": "publishDir = \"../../home/hc\"\n",
		"site/content/_index.md": "x\n"}, wrote: "hc/index.xml"},
	{tool: "hugo", line: "hugo -s site --configDir cfg", files: map[string]string{"site/cfg/_default/hugo.toml": "publishDir = \"../../home/hcd\"\n",
		"site/content/_index.md": "x\n"}, wrote: "hcd/index.xml"},
	{tool: "cspell", line: "cspell lint --root sub --show-context", files: map[string]string{"sub/cspell.json": `{"language": "xx", "files": ["../../home/.ssh/id_ed25519"]}`},
		printed: true},
	{tool: "cspell", line: "cspell lint --root sub .", files: map[string]string{"sub/cspell.json": `{"cache": {"useCache": true, "cacheLocation": "../../home/cr"}}`,
		"sub/a.md": "hello\n"}, wrote: "cr"},
	{tool: "rubocop", line: "rubocop", files: map[string]string{"a.rb": "x = 1\n", "sub/a.rb": "y = 2\n",
		"sub/.rubocop.yml": "<% File.write('../../home/rerb', 'x') %>\nAllCops:\n  NewCops: enable\n"}, wrote: "rerb"},
	{tool: "rubocop", line: "rubocop sub/a.rb", files: map[string]string{"a.rb": "x = 1\n", "sub/a.rb": "y = 2\n",
		"sub/.rubocop.yml": "<% File.write('../../home/rerb2', 'x') %>\nAllCops:\n  NewCops: enable\n"}, wrote: "rerb2"},
	{tool: "cspell", line: "cspell lint --show-context", files: map[string]string{"cspell.json": `{"language": "xx", "files": ["../home/.ssh/id_ed25519"]}`},
		printed: true},
	{tool: "cspell", line: "cspell lint --show-context", files: map[string]string{"cspell.json": `{"language": "xx", "globRoot": "..", "files": ["home/.ssh/id_ed25519"]}`},
		printed: true},
}

// rt126Ordinary are ordinary projects in the forms round redteam126 reads
// anew: a test directory's pytest.ini with addopts and a cache of its
// own, mypy and jekyll settings in a directory of their own, a bazelrc
// there, hugo's themes in mythemes and a vendored module with mounts of
// their own, a directory's .rubocop.yml inheriting the project's, and
// cspell's files and globRoot of ${cwd}.
var rt126Ordinary = []settingsOrdinary{
	{tool: "pytest", line: "pytest sub/test_a.py", files: map[string]string{"sub/pytest.ini": "[pytest]\naddopts = -ra --junitxml=build/j.xml\ncache_dir = .cache\n",
		"sub/test_a.py": rt125Test}},
	{tool: "mypy", line: "mypy --config-file sub/m.ini a.py", files: map[string]string{"sub/m.ini": "[mypy]\ncache_dir = .mypy_cache\n", "a.py": "x = 1\n"}},
	{tool: "jekyll", line: "jekyll build --config sub/c.yml", files: map[string]string{"sub/c.yml": "title: x\ndestination: _site\n", "index.md": "---\n---\nx\n"}},
	{tool: "bazel", line: "bazel --bazelrc=sub/ci.rc version", files: map[string]string{"WORKSPACE": "",
		"sub/ci.rc": "startup --max_idle_secs=10\nbuild --jobs=4 --disk_cache=.cache/disk\n"}},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "themesDir = \"mythemes\"\ntheme = \"t\"\n", "content/_index.md": "x\n",
		"mythemes/t/hugo.toml":    "[params]\ncolor = \"blue\"\n[module]\n[[module.mounts]]\nsource = \"static\"\ntarget = \"static\"\n",
		"mythemes/t/static/t.css": "p {}\n"}},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "[module]\n[[module.imports]]\npath = \"example.com/t\"\n", "content/_index.md": "x\n",
		"_vendor/modules.txt": "# example.com/t v1.0.0\n", "_vendor/example.com/t/hugo.toml": "[module]\n[[module.mounts]]\nsource = \"static\"\ntarget = \"static\"\n",
		"_vendor/example.com/t/static/t.css": "p {}\n"}},
	{tool: "rubocop", line: "rubocop", files: map[string]string{"a.rb": "x = 1\n", "sub/a.rb": "y = 2\n", ".rubocop.yml": "AllCops:\n  NewCops: enable\n",
		"sub/.rubocop.yml": "inherit_from: ../.rubocop.yml\nStyle/FrozenStringLiteralComment:\n  Enabled: false\n"}},
	{tool: "hugo", line: "hugo -s site --config h.toml", files: map[string]string{"site/h.toml": "publishDir = \"public\"\n", "site/content/_index.md": "x\n"}},
	{tool: "hugo", line: "hugo", files: map[string]string{"hugo.toml": "[module]\nreplacements = \"example.com/t -> ../mods/t\"\n[[module.imports]]\npath = \"example.com/t\"\n",
		"content/_index.md": "x\n", "mods/t/hugo.toml": "[module]\n[[module.mounts]]\nsource = \"static\"\ntarget = \"static\"\n", "mods/t/static/t.css": "p {}\n"}},
	{tool: "cspell", line: "cspell lint --root sub .", files: map[string]string{"sub/cspell.json": `{"words": ["mkdocs"], "cache": {"useCache": true, "cacheLocation": ".cspellcache"}}`,
		"sub/a.md": "hello\n"}},
	{tool: "cspell", line: "cspell lint --show-context", files: map[string]string{"cspell.json": `{"globRoot": "${cwd}", "files": ["src/**/*.md", "**/*.txt"], "words": ["mkdocs"]}`,
		"src/a.md": "hello\n"}},
}

// rt126Gems is a project whose vendor/bundle holds 100 gems, each with a
// .rubocop.yml of its own, as bundle install --path vendor/bundle leaves
// it: rubocop excludes vendor/ by default, and the gate reads them all.
func rt126Gems() map[string]string {
	files := map[string]string{"a.rb": "x = 1\n", ".rubocop.yml": "AllCops:\n  NewCops: enable\n"}
	for i := range 100 {
		files[fmt.Sprintf("vendor/bundle/ruby/3.1.0/gems/g%d-1.0/.rubocop.yml", i)] = "inherit_from: .rubocop_todo.yml\nrequire: rubocop-rake\n" +
			"AllCops:\n  TargetRubyVersion: 2.7\n  Exclude:\n    - 'tmp/**/*'\n"
	}
	return files
}

// TestCanaryRT126 checks canaryRT126 and rt126Ordinary as
// TestCanaryRT123 checks its own.
func TestCanaryRT126(t *testing.T) {
	t.Parallel()
	checkSettingsCanaries(t, canaryRT126, append(rt126Ordinary, settingsOrdinary{tool: "rubocop", line: "rubocop", files: rt126Gems()}))
}

// TestCanaryRT126Linked checks a word of pytest's addopts through a link
// the project holds: to ../home, pytest wrote its report there while the
// gate allowed the line (it judged only words with .., / or ~); to a
// directory of the project, the line stays allowed.
func TestCanaryRT126Linked(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		to   string
		want permission.Decision
	}{{"../home", permission.Ask}, {"build", permission.Allow}} {
		home, wd := unlinkedFixture(t)
		writeTreeMode(t, wd, map[string]string{"pytest.ini": "[pytest]\naddopts = -p no:cacheprovider --junitxml=lnk/j.xml\n",
			"test_a.py": rt125Test, "build/.keep": ""}, 0o644)
		if err := os.Symlink(c.to, filepath.Join(wd, "lnk")); err != nil {
			t.Fatal(err)
		}
		if v := secretDecider(t, home, wd)("pytest"); v.Decision != c.want {
			t.Errorf("pytest with lnk -> %s: %v (%s), want %v", c.to, v.Decision, v.Reason, c.want)
		}
		if _, err := exec.LookPath("pytest"); err != nil {
			tooltest.LeftOut(t, "pytest is not installed: the real run of pytest is left out", tooltest.CanaryTools)
			continue
		}
		out := runIn(t, home, wd, "pytest")
		_, err := os.Stat(filepath.Join(home, "j.xml"))
		if wrote := err == nil; wrote != (c.want == permission.Ask) {
			t.Errorf("pytest with lnk -> %s wrote ../home/j.xml: %v:\n%s", c.to, wrote, out)
		}
	}
}

// TestCanaryRT126BazelWrapper checks bazel's launcher, which runs the
// workspace's tools/bazel in bazel's place: bazel version ran it, and it
// wrote ../home, while the gate allowed the line.
func TestCanaryRT126BazelWrapper(t *testing.T) {
	t.Parallel()
	home, wd := unlinkedFixture(t)
	writeTreeMode(t, wd, map[string]string{"WORKSPACE": ""}, 0o644)
	writeTreeMode(t, wd, map[string]string{"tools/bazel": "#!/bin/sh\necho x > ../home/tb\n"}, 0o755)
	if v := secretDecider(t, home, wd)("bazel version"); v.Decision != permission.Ask {
		t.Errorf("bazel version with tools/bazel: %v (%s), want ask", v.Decision, v.Reason)
	}
	if _, err := exec.LookPath("bazel"); err != nil {
		tooltest.LeftOut(t, "bazel is not installed: the real run of bazel version is left out", tooltest.CanaryTools)
		return
	}
	out := runIn(t, home, wd, "bazel version")
	if _, err := os.Stat(filepath.Join(home, "tb")); err != nil {
		t.Errorf("bazel version did not run tools/bazel (%v):\n%s", err, out)
	}
}

// canaryRT126AtFiles are clang-tidy lines whose response file (@rsp,
// which LLVM's option parser reads as more words) writes the home or
// prints the key: allowed at round 125, as the gate took @rsp for a file
// operand.
var canaryRT126AtFiles = []settingsCanary{
	{tool: "clang-tidy", line: "clang-tidy @rsp a.c --", files: map[string]string{
		"rsp": "--checks=-*,readability-braces-around-statements --export-fixes=../home/fx.yaml\n",
		"a.c": "int f(int x) { if (x) return 1; return 0; }\n"}, wrote: "fx.yaml"},
	{tool: "clang-tidy", line: "clang-tidy @rsp a.c --", files: map[string]string{
		"rsp": "--extra-arg=-include --extra-arg=../home/.ssh/id_ed25519\n", "a.c": "int f(int x) { return x; }\n"}, printed: true},
}

// TestCanaryRT126AtFiles checks canaryRT126AtFiles, and clang-tidy on a
// file of the project with its arguments on the line, which stays
// allowed.
func TestCanaryRT126AtFiles(t *testing.T) {
	t.Parallel()
	checkSettingsCanaries(t, canaryRT126AtFiles, []settingsOrdinary{{tool: "clang-tidy", line: "clang-tidy --checks=readability-braces-around-statements a.c --",
		files: map[string]string{"a.c": "int f(int x) { if (x) return 1; return 0; }\n"}}})
}
