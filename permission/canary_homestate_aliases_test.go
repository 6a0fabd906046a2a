//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryHomeStateAliases are lines the review of round 43 found still
// allowed under "allow bash" that change state outside the workdir with
// no path on the line: other spellings of the programs it models
// (rustup's aliases, gem's and bundle's abbreviations, dotnet new's older
// options, npm's other spellings of global mode) and tools missing from
// its tables. They run in real bash with the fake home as HOME: npm is the
// real one, with its global prefix in the home; the others are fakes that
// write into HOME as the real ones do.
var canaryHomeStateAliases = []string{
	`rustup install nightly`,
	`rustup uninstall nightly`,
	`gem i rails`,
	`gem ins rails`,
	`bundle`,
	`bundle i`,
	`bundle add rack`,
	`dotnet new -i Foo.Templates`,
	`cargo-binstall ripgrep`,
	`uvx ruff`,
	`uv tool run ruff`,
	`pipx run ruff`,
	`pkgx node`,
	`proto install node`,
	`aqua i`,
	`npm i --g --offline ./pkg`,
	`npm i -g=true --offline ./pkg`,
	`npm i -location=global --offline ./pkg`,
	`npm i -global=true --offline ./pkg`,
}

// canaryHomeStateAliasesOrdinary are the lines beside them that "allow
// bash" must still allow.
var canaryHomeStateAliasesOrdinary = []string{
	"gem list", "bundle check", "bundle list", "rustup show", "dotnet new list", "uv tool list", "pipx list",
	"proto list", "npm i --offline ./pkg", "npm i -g=false --offline ./pkg",
}

// fakeAliasTools are the programs canaryHomeStateAliases runs from a fake.
var fakeAliasTools = []string{"rustup", "gem", "bundle", "dotnet", "cargo-binstall", "uvx", "uv", "pipx", "pkgx",
	"proto", "aqua"}

func TestCanaryHomeStateAliases(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.NodeJS, "npm")
	template := canaryTemplate(t)
	pkg := filepath.Join(template, "work", "pkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"p","version":"1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := fakeHomeBin(t, fakeAliasTools...)
	// Each line in a fixture of its own, beside the others: most of its
	// time is spent waiting for npm to start.
	t.Run("lines", func(t *testing.T) {
		for i, line := range canaryHomeStateAliases {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				root := canaryFixture(t, template)
				refusedEverywhere(t, root, line)
				before := canarySnapshot(t, root)
				out := runLine(t, root, line, time.Minute, bin, "NPM_CONFIG_PREFIX="+filepath.Join(root, "home", ".npm-global"),
					"npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false")
				if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, filepath.Join(root, "home")+string(filepath.Separator)) {
					t.Errorf("%q changed nothing in the home when run (%q):\n%s", line, p, out)
				}
			})
		}
	})
	checkOrdinary(t, template, canaryHomeStateAliasesOrdinary, nil)
}
