package permission

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// cargoRiskyWords are the words of a cargo alias that make it more than
// a build of the project: subcommands that write the home (install,
// login) or publish, and options that name settings or directories the
// gate does not read from the alias.
var cargoRiskyWords = []string{"install", "uninstall", "login", "logout", "publish", "yank", "owner",
	"--config", "-Z", "--root", "--target-dir", "--artifact-dir", "--out-dir", "--manifest-path", "-C"}

// cargoConfigUnsound says why a .cargo/config.toml (or .cargo/config) in
// dir may make cargo write outside the workdir, or "" (round redteam133:
// each of these made a real cargo build or cargo ci write ../home while
// the gate allowed the line). Its relative paths are those of the
// directory that holds .cargo:
//   - build.target-dir and build.build-dir, where cargo builds;
//   - the rustc flags of build.rustflags, build.rustdocflags and a
//     target's (-C incremental=../home/inc);
//   - an alias's words (ci = "build --target-dir ../home/ci"), and an
//     alias to install, login, publish or an option that names settings
//     or a directory.
func (g *Gate) cargoConfigUnsound(dir, text string) string {
	root := dir
	if filepath.Base(dir) == ".cargo" {
		root = filepath.Dir(dir)
	}
	var doc map[string]any
	if _, err := toml.Decode(text, &doc); err != nil {
		return "cannot be read as TOML (" + clip(err.Error()) + ")"
	}
	table := func(v any) map[string]any {
		m, _ := v.(map[string]any)
		return m
	}
	build := table(doc["build"])
	for _, k := range []string{"target-dir", "build-dir"} {
		v, ok := build[k]
		if !ok {
			continue
		}
		s, isString := v.(string)
		if !isString {
			return "sets build." + k + " to a value that is not a string"
		}
		if why := g.settingsPathUnsound(root, s); why != "" {
			return "sets build." + k + " to " + clip(s) + ": " + why
		}
	}
	flags := map[string]any{"build.rustflags": build["rustflags"], "build.rustdocflags": build["rustdocflags"]}
	for t, v := range table(doc["target"]) {
		flags["target."+t+".rustflags"] = table(v)["rustflags"]
		flags["target."+t+".rustdocflags"] = table(v)["rustdocflags"]
	}
	for k, v := range table(doc["alias"]) {
		flags["alias."+k] = v
	}
	for _, k := range slices.Sorted(maps.Keys(flags)) {
		for _, s := range treeStrings(flags[k], nil) {
			for _, w := range strings.Fields(s) {
				if strings.HasPrefix(k, "alias.") && slices.Contains(cargoRiskyWords, strings.SplitN(w, "=", 2)[0]) {
					return "sets " + clip(k) + " to words with " + clip(w) + ", which the gate does not follow"
				}
				for _, c := range []string{w, w[strings.LastIndexByte(w, '=')+1:]} {
					if !strings.ContainsAny(c, "/~$%") && c != ".." {
						continue
					}
					if why := g.settingsPathUnsound(root, c); why != "" {
						return "sets " + clip(k) + " to words with " + clip(w) + ": " + why
					}
				}
			}
		}
	}
	return ""
}
