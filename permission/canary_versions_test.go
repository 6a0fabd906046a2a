//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// versionedNames are the program names with a version in them that some
// canary lines were written with (Debian 12's), each with the pattern of
// the same program under another version, the most specific first.
var versionedNames = []struct {
	name string
	same *regexp.Regexp
}{
	{"perl5.36-x86_64-linux-gnu", regexp.MustCompile(`^perl5\.\d+-[a-z0-9_]+-linux-gnu$`)},
	{"perl5.36.0", regexp.MustCompile(`^perl5\.\d+\.\d+$`)},
	{"tclsh8.6", regexp.MustCompile(`^tclsh\d+\.\d+$`)},
	{"split-file-14", regexp.MustCompile(`^split-file-\d+$`)},
	{"not-14", regexp.MustCompile(`^not-\d+$`)},
	{"rdbg3.1", regexp.MustCompile(`^rdbg\d+\.\d+$`)},
	{"rbs3.1", regexp.MustCompile(`^rbs\d+\.\d+$`)},
}

// localNames returns a replacer that spells the versioned program names of
// Debian 12 in a canary line as this machine's versions of them, so that
// the line runs the same program on another release: perl5.36.0 becomes
// perl5.40.1 on Debian 13. python3.11 becomes the version of the python3
// found on PATH, and /usr/bin/python3.11 that of /usr/bin/python3. A name
// with no other version here is left as it is (the line then needs it).
var localNames = sync.OnceValue(func() *strings.Replacer {
	var pairs []string
	add := func(from, to string) {
		if to != "" && to != from {
			pairs = append(pairs, from, to)
		}
	}
	if v := pythonVersion("/usr/bin/python3"); v != "" {
		add("/usr/bin/python3.11", "/usr/bin/python"+v)
	}
	if p, err := exec.LookPath("python3"); err == nil {
		if v := pythonVersion(p); v != "" {
			add("python3.11", "python"+v)
		}
	}
	for _, vn := range versionedNames {
		if _, err := exec.LookPath(vn.name); err == nil {
			continue
		}
		add(vn.name, programOnPath(vn.same))
	}
	return strings.NewReplacer(pairs...)
})

// localLine is line with localNames' replacements.
func localLine(line string) string { return localNames().Replace(line) }

// pythonVersion returns "3.N" for the python program, or "" when it does
// not run.
func pythonVersion(python string) string {
	out, err := exec.Command(python, "-c", `import sys; print("%d.%d" % sys.version_info[:2])`).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// programOnPath returns the first executable name on PATH that name
// matches, or "".
func programOnPath(name *regexp.Regexp) string {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !name.MatchString(e.Name()) {
				continue
			}
			if p, err := exec.LookPath(filepath.Join(dir, e.Name())); err == nil {
				return filepath.Base(p)
			}
		}
	}
	return ""
}
