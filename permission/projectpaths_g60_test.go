package permission_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// g60ProjectPaths are projects whose settings files (as a cloned
// repository holds them) name where their tools write, and lines that run
// those tools: HOMEDIR stands for the home, WORKDIR for the workdir. Real
// tsc, hugo, pytest, mypy and mvn wrote the home for the refused ones at
// gate60, when "allow bash" allowed each; the others are ordinary
// projects and stay allowed.
var g60ProjectPaths = []struct {
	files map[string]string
	line  string
	run   bool
}{
	{map[string]string{"tsconfig.json": `{"compilerOptions": {"outDir": "HOMEDIR/.config/x"}}`}, "tsc", false},
	{map[string]string{"tsconfig.json": `{"compilerOptions": {"outDir": "HOMEDIR/.config/x"}}`}, "npx tsc", false},
	{map[string]string{"tsconfig.json": `{"compilerOptions": {"outDir": "HOMEDIR/.config/x"}}`}, "pnpm tsc", false},
	{map[string]string{"tsconfig.json": `{"compilerOptions": {"outDir": "HOMEDIR/.config/x"}}`}, "npm run build", false},
	{map[string]string{"tsconfig.json": `{"compilerOptions": {"declarationDir": "../../x"}}`}, "yarn build", false},
	{map[string]string{"tsconfig.json": "{\n  // c\n  \"compilerOptions\": {\n    \"tsBuildInfoFile\": \"~/.x\"\n  }\n}"}, "tsc -b", false},
	{map[string]string{"tsconfig.json": `{"compilerOptions": {"outFile": ".git/hooks/pre-commit"}}`}, "tsc", false},
	{map[string]string{"tsconfig.json": `{"extends": "./base.json"}`, "base.json": `{"compilerOptions": {"outDir": "/tmp/g60x"}}`}, "tsc", false},
	{map[string]string{"tsconfig.json": `{"references": [{"path": "./pkg"}]}`, "pkg/tsconfig.json": `{"compilerOptions": {"outDir": "HOMEDIR/x"}}`}, "tsc -b", false},
	{map[string]string{"sub/tsconfig.json": `{"compilerOptions": {"outDir": "HOMEDIR/x"}}`}, "tsc -p sub", false},
	{map[string]string{"tsconfig.json": `{"compilerOptions": {"out\u0044ir": "/x"}}`}, "tsc", false},
	{map[string]string{"tsconfig.json": `{"compilerOptions": {"outDir": "dist", "rootDir": "src", "declarationDir": "${configDir}/types"}, "include": ["src/**/*"], "$schema": "https://json.schemastore.org/tsconfig"}`}, "tsc", true},
	{map[string]string{"tsconfig.json": `{"extends": "./base.json", "references": [{"path": "./pkg"}]}`, "base.json": `{"compilerOptions": {"outDir": "dist"}}`}, "npm run build", true},
	{map[string]string{"hugo.toml": "baseURL = \"/\"\npublishDir = \"HOMEDIR/pub\"\n"}, "hugo", false},
	{map[string]string{"config.yaml": "baseURL: /\npublishDir: HOMEDIR/pub\n"}, "hugo --minify", false},
	{map[string]string{"config/_default/hugo.toml": "[caches.assets]\ndir = \"/tmp/g60c\"\n"}, "hugo", false},
	{map[string]string{"hugo.yaml": "publishDir: *a\n"}, "hugo", false},
	{map[string]string{"hugo.toml": "baseURL = \"https://example.org/\"\ntitle = \"x\"\npublishDir = \"public\"\n[caches.images]\ndir = \":resourceDir/_gen\"\n[permalinks]\nposts = \"/:year/:slug/\"\n"}, "hugo", true},
	{map[string]string{"pytest.ini": "[pytest]\ncache_dir = HOMEDIR/pc\n"}, "pytest -q", false},
	{map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"--basetemp=HOMEDIR/t\"\n"}, "python3 -m pytest", false},
	{map[string]string{"tox.ini": "[pytest]\nlog_file = ../../x.log\n"}, "pytest", false},
	{map[string]string{"setup.cfg": "[tool:pytest]\naddopts = -ra --junitxml /tmp/g60j.xml\n"}, "pytest", false},
	{map[string]string{"pytest.ini": "[pytest]\naddopts = -ra -q --strict-markers\ntestpaths = tests\ncache_dir = .cache/pytest\nmarkers =\n    slow: slow tests\n"}, "pytest", true},
	{map[string]string{"mypy.ini": "[mypy]\ncache_dir = HOMEDIR/mc\n"}, "mypy .", false},
	{map[string]string{"pyproject.toml": "[tool.mypy]\nplugins = [\"/tmp/g60p.py\"]\n"}, "mypy src", false},
	{map[string]string{"pyproject.toml": "[tool.mypy]\nstrict = true\ncache_dir = \".mypy_cache\"\nplugins = [\"pydantic.mypy\"]\n"}, "mypy src", true},
	{map[string]string{"ruff.toml": "cache-dir = \"~/.config/r\"\n"}, "ruff check", false},
	{map[string]string{"pyproject.toml": "[tool.ruff]\nextend = \"../../ruff.toml\"\n"}, "ruff format .", false},
	{map[string]string{"pyproject.toml": "[tool.ruff]\nline-length = 100\n[tool.ruff.lint]\nselect = [\"E\", \"F\"]\n"}, "ruff check .", true},
	{map[string]string{".mvn/maven.config": "-Dmaven.repo.local=HOMEDIR/m2\n"}, "mvn -q validate", false},
	{map[string]string{"sub/.mvn/maven.config": "-Dmaven.repo.local=HOMEDIR/m2\n"}, "mvn -f sub/pom.xml validate", false},
	{map[string]string{"site/hugo.toml": "publishDir = \"HOMEDIR/pub\"\n"}, "hugo -s site", false},
	{map[string]string{"site/config/_default/hugo.toml": "publishDir = \"HOMEDIR/pub\"\n"}, "hugo --source=site", false},
	{map[string]string{".mvn/maven.config": "-l\n/tmp/g60m.log\n"}, "mvn validate", false},
	{map[string]string{".mvn/jvm.config": "-javaagent:/tmp/g60a.jar\n"}, "mvn validate", false},
	{map[string]string{"ci/settings.xml": "<settings><localRepository>HOMEDIR/r</localRepository></settings>"}, "mvn -s ci/settings.xml validate", false},
	{map[string]string{".mvn/maven.config": "-s ci/settings.xml\n", "ci/settings.xml": "<settings><localRepository>/tmp/r</localRepository></settings>"}, "mvn validate", false},
	{map[string]string{".mvn/maven.config": "-T 1C -B\n", ".mvn/jvm.config": "-Xmx2g\n", "ci/settings.xml": "<settings><localRepository>${user.home}/.m2/repository</localRepository></settings>"}, "mvn -s ci/settings.xml validate", true},
}

func TestG60ProjectSettingsNamePaths(t *testing.T) {
	t.Parallel()
	for _, c := range g60ProjectPaths {
		root := t.TempDir()
		home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
		for name, text := range c.files {
			p := filepath.Join(wd, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(strings.NewReplacer("HOMEDIR", home, "WORKDIR", wd).Replace(text)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Join(wd, "node_modules", ".bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(wd, "node_modules", ".bin", "tsc"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(home, 0o755); err != nil {
			t.Fatal(err)
		}
		g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home})
		if out := authorize(t, g, c.line); out.Run != c.run {
			t.Errorf("%q with %v: run %v, want %v (%+v)", c.line, c.files, out.Run, c.run, out.Verdict)
		}
	}
}

// TestG60ProjectSettingsDirOption: tsc -p DIR reads DIR's tsconfig.json,
// not every file of DIR (a large source file there is no settings file).
func TestG60ProjectSettingsDirOption(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	wd := filepath.Join(root, "work")
	if err := os.MkdirAll(filepath.Join(wd, "web"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"web/tsconfig.json": `{"compilerOptions": {"outDir": "dist"}}`,
		"web/big.ts":        strings.Repeat(`const s = "\u0041";`+"\n", 8000),
	} {
		if err := os.WriteFile(filepath.Join(wd, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: filepath.Join(root, "home")})
	for _, line := range []string{"tsc -p web", "tsc --project=web", "tsc -p web/tsconfig.json"} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("%q was refused: %+v", line, out.Verdict)
		}
	}
}
