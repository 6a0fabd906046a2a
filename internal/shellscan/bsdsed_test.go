package shellscan

import (
	"slices"
	"testing"
)

// BSD sed (macOS's) reads its options otherwise than GNU sed: they end at
// the first operand (sed '1w x' -e p f takes 1w x as the script), -I edits
// in place as -i does, -i and -I take the next word as the backup suffix
// whatever it holds, -l takes no value, and the backup is FILE+SUFFIX.
// Where the analysis cannot know which sed runs, it judges the line under
// both readings.
func TestBSDSedReadingIsJudgedToo(t *testing.T) {
	for _, line := range []string{
		`sed -I '' '1w /Users/u/.zshrc' f`, `sed -I.bak '1w /Users/u/.zshrc' f`, `sed -nI '' 'w /tmp/x' f`,
		`sed -E -I '' 's/a/b/w /tmp/x' f`, `sed '1w /Users/u/.zshrc' -e p README`, `sed -n '$w ../x' f -e p`,
		`sed -l '1w /Users/u/.zshrc' x`, `sed -nl '1w /Users/u/.zshrc' x`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for line, want := range map[string][]string{
		`sed -I.bak s/a/b/ .lite-agent/permissions.json`: {".lite-agent/permissions.json", ".lite-agent/permissions.json.bak"},
		`sed -I '' s/a/b/ .lite-agent/permissions.json`:  {".lite-agent/permissions.json"},
		`sed -i x/permissions.json -e s/a/b/ a`:          {"ax/permissions.json", "a"},
		`sed -nI .orig -e p f`:                           {"f", "f.orig"},
	} {
		a := analyzeBash(line, "/Users/u", "/w")
		var written []string
		for _, acc := range a.accesses {
			if acc.mode == modeWrite {
				written = append(written, acc.path)
			}
		}
		for _, w := range want {
			if !slices.Contains(written, w) {
				t.Errorf("%q: %s is not written (writes %q)", line, w, written)
			}
		}
	}
	a := analyzeBash(`sed p -e .env`, "/Users/u", "/w")
	if !slices.ContainsFunc(a.accesses, func(acc access) bool { return acc.path == ".env" && acc.mode == modeRead }) {
		t.Errorf("sed p -e .env: BSD sed's read of .env is not recorded: %+v", a.accesses)
	}
	for _, line := range []string{
		`sed -I '' s/a/b/ x`, `sed -I.bak -e s/a/b/ x`, `sed -i s/a/b/ x y`, `sed -i '' -e 's/a/b/' x`,
		`sed -n 1p f`, `sed -E -n 's/a/b/p' f`, `sed -l 80 -n l f`, `sed -i -e s/a/b/ x`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
