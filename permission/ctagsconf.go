package permission

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// Universal ctags reads, before its command line, the option files of the
// directory it runs in: .ctags.d/*.ctags and ctags.d/*.ctags (exuberant
// ctags .ctags and ctags.cnf), one option a line, and the files its
// --options names. A cloned repository's, or one an earlier call wrote,
// may say -f ../x or -o (the tag file, written there), --options (another
// file), --optlib-dir, or give optscript code (--_prelude-…). Real ctags
// created ~/.profile with -f../home/.profile in .ctags.d/x.ctags while the
// gate allowed ctags README (redteam66). The gate reads those files for
// each ctags command of the line from each of its working directories,
// and allows the line only when each option is one known to name no path
// and run no code.

// ctagsPrograms are the names universal and exuberant ctags go by.
var ctagsPrograms = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"ctags": true, "etags": true, "ctags-universal": true,
		"universal-ctags": true, "uctags": true, "ctags-exuberant": true, "exuberant-ctags": true}
})

// ctagsOptionFiles are the option files ctags reads in its working
// directory; a name that ends in "/" is a directory whose *.ctags files it
// reads.
var ctagsOptionFiles = []string{".ctags.d/", "ctags.d/", ".ctags", "ctags.cnf"}

// ctagsSafeOptions are the options (their names, before any '=') that
// name no path and run no code: what is tagged, how, and how the tag file
// looks. The prefixed families (--regex-LANG, --kinds-LANG …) are in
// ctagsSafePrefixes.
var ctagsSafeOptions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-R": true, "--recurse": true, "-a": true, "--append": true, "-B": true,
		"-F": true, "-n": true, "-N": true, "-u": true, "-e": true, "--exclude": true, "--exclude-exception": true,
		"--languages": true, "--langmap": true, "--langdef": true, "--fields": true, "--extras": true, "--sort": true,
		"--tag-relative": true, "--excmd": true, "--links": true, "--maxdepth": true, "--format": true,
		"--output-format": true, "--pattern-length-limit": true, "--guess-language-eagerly": true, "-G": true,
		"--input-encoding": true, "--output-encoding": true, "--file-scope": true, "--if0": true, "--kinds-all": true}
})

// ctagsSafePrefixes are the option families of ctagsSafeOptions, one per
// language.
var ctagsSafePrefixes = []string{"--regex-", "--mline-regex-", "--kinds-", "--kinddef-", "--fields-", "--extras-",
	"--map-", "--param-", "--roles-", "--alias-", "--input-encoding-"}

// ctagsOptionsUnsound says why the text of a ctags option file may name a
// path or run code, or "".
func ctagsOptionsUnsound(text string) string {
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		name, _, _ := strings.Cut(t, "=")
		if ctagsSafeOptions()[name] {
			continue
		}
		safe := false
		for _, p := range ctagsSafePrefixes {
			if strings.HasPrefix(name, p) && !strings.ContainsAny(name, " \t") {
				safe = true
			}
		}
		if !safe {
			return "sets " + clip(t) + ", which may name a file ctags writes or reads options from, or run code"
		}
	}
	return ""
}

// ctagsConfUnsound says why a ctags command of the line makes it opaque:
// an option file it reads in a working directory, or one its --options
// names, sets an option that may name a path or run code (see
// ctagsOptionsUnsound), or cannot be read; "" otherwise.
func (g *Gate) ctagsConfUnsound(a *shellscan.Analysis) string {
	for _, c := range a.Commands {
		if !ctagsPrograms()[strings.ToLower(filepath.Base(c.Name))] {
			continue
		}
		for _, dir := range a.Dirs {
			cwd := g.absTarget(dir, ".")
			if cwd == "" {
				return "ctags runs in an unknown directory, whose option files the gate cannot read"
			}
			files := make([]string, 0, len(ctagsOptionFiles))
			for _, f := range ctagsOptionFiles {
				files = append(files, filepath.Join(cwd, f))
				if strings.HasSuffix(f, "/") {
					files[len(files)-1] += "/"
				}
			}
			for i, arg := range c.Args {
				if arg == "--" {
					break
				}
				// --options-maybe=FILE reads FILE as --options does
				// when it exists (review66c).
				v, ok := strings.CutPrefix(arg, "--options=")
				if !ok {
					v, ok = strings.CutPrefix(arg, "--options-maybe=")
				}
				if (arg == "--options" || arg == "--options-maybe") && i+1 < len(c.Args) {
					v, ok = c.Args[i+1], true
				}
				if ok && v != "" && v != "NONE" {
					p := v
					if !filepath.IsAbs(p) {
						p = filepath.Join(cwd, p)
					}
					if fi, err := os.Stat(p); err == nil && fi.IsDir() {
						p += "/"
					}
					files = append(files, p)
				}
			}
			for _, p := range files {
				var paths []string
				if d, ok := strings.CutSuffix(p, "/"); ok {
					entries, err := os.ReadDir(d)
					if err != nil {
						continue
					}
					for _, e := range entries {
						if strings.HasSuffix(e.Name(), ".ctags") {
							paths = append(paths, filepath.Join(d, e.Name()))
						}
					}
				} else {
					paths = []string{p}
				}
				for _, q := range paths {
					if why := configFileUnsound(q, ctagsOptionsUnsound); why != "" {
						return "ctags reads its options from " + clip(q) + ", which " + why
					}
				}
			}
		}
	}
	return ""
}
