package permission

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// npm, pnpm, yarn and bun install (and rebuild) a project that has a
// binding.gyp and no install script by running node-gyp rebuild, which
// runs the commands of the file's <!(…) expansions, actions and rules as
// it reads it (and those of the .gyp and .gypi files it includes or
// depends on), and builds with the compiler flags it names. Round 79 made
// a line that writes such a file before installing opaque; a cloned
// project's binding.gyp, or one an earlier call wrote, was still run:
// real npm 11 and pnpm 10 removed the canary with npm install, npm
// rebuild and pnpm install given a binding.gyp saying <!(rm -f c), and
// "allow bash" allowed each (review66c). The gate does not model gyp: a
// package manager's command that may install, in a working directory
// (or the one its -C, --dir, --prefix or --cwd names) that holds a
// binding.gyp, makes the line opaque.

// gypRunners are the package managers that build a binding.gyp.
var gypRunners = map[string]bool{"npm": true, "pnpm": true, "yarn": true, "bun": true}

// gypQuiet are the commands of those package managers that install and
// build nothing: the rest (install and its abbreviations, ci, rebuild,
// add, update, link, a bare yarn …) may run node-gyp.
var gypQuiet = map[string]bool{"test": true, "t": true, "tst": true, "run": true, "run-script": true,
	"start": true, "stop": true, "restart": true, "view": true, "info": true, "show": true, "ls": true,
	"list": true, "ll": true, "la": true, "outdated": true, "why": true, "explain": true, "root": true,
	"bin": true, "help": true, "config": true, "get": true, "pkg": true, "version": true, "pack": true,
	"publish": true, "init": true, "search": true, "whoami": true, "login": true, "logout": true,
	"cache": true, "doctor": true, "prefix": true, "fund": true, "query": true, "sbom": true,
	"licenses": true, "exec": true, "x": true, "dlx": true, "build": true, "pm": true}

// gypDirOptions are the options that name the project's directory.
var gypDirOptions = []string{"-C", "--dir", "--prefix", "--cwd"}

// gypMayBuild reports whether the package manager's args may install or
// rebuild (see gypQuiet), and returns the directories its options name.
// A command word that may be an option's value is taken as unknown, so
// as building.
func gypMayBuild(args []string) (bool, []string) {
	var dirs []string
	for i, a := range args {
		for _, o := range gypDirOptions {
			if v, ok := strings.CutPrefix(a, o+"="); ok {
				dirs = append(dirs, v)
			} else if a == o && i+1 < len(args) {
				dirs = append(dirs, args[i+1])
			}
		}
	}
	if len(args) > 0 && onlyVersionArgs(args) {
		return false, nil
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") {
			return true, dirs // a's may be the option's value
		}
		return !gypQuiet[a], dirs
	}
	return true, dirs
}

// onlyVersionArgs reports whether args only ask for a version or help.
func onlyVersionArgs(args []string) bool {
	for _, a := range args {
		switch a {
		case "--version", "-v", "-V", "--help", "-h":
		default:
			return false
		}
	}
	return true
}

// gypConfUnsound says why a package manager's command of the line makes
// it opaque: a directory it may build holds a binding.gyp (or cannot be
// checked), or is unknown; "" otherwise.
func (g *Gate) gypConfUnsound(a *shellscan.Analysis) string {
	for _, c := range a.Commands {
		if !gypRunners[strings.ToLower(filepath.Base(c.Name))] {
			continue
		}
		build, optDirs := gypMayBuild(c.Args)
		if !build {
			continue
		}
		for _, dir := range a.Dirs {
			cwd := g.absTarget(dir, ".")
			if cwd == "" {
				return c.Name + " runs in an unknown directory, where a binding.gyp would be built"
			}
			projects := []string{cwd}
			for _, d := range optDirs {
				if !filepath.IsAbs(d) {
					d = filepath.Join(cwd, d)
				}
				projects = append(projects, d)
			}
			for _, p := range projects {
				f := filepath.Join(p, "binding.gyp")
				if _, err := os.Lstat(f); err == nil || !errors.Is(err, fs.ErrNotExist) {
					return c.Name + " may build " + clip(f) + " with node-gyp, which runs the commands and compiler flags it names"
				}
			}
		}
	}
	return ""
}
