package shellscan

import (
	"slices"
	"strings"
	"testing"
)

// TestRewrittenNames checks that a line reading, as names, what a filter
// or a format of the line made out of other names is opaque, or records
// the substitution in Rewritten, and that the edits that keep names where
// they are stay clear.
func TestRewrittenNames(t *testing.T) {
	for line, want := range map[string]bool{
		`find h | sed s,^h,../home, | xargs cat`:                           true,
		`find .x. | tr -d x | xargs cat`:                                   true,
		`find h | awk '{print "../" $0}' | while read f; do :; done`:       true,
		`find h -printf '../home/%P\n' | xargs cat`:                        true,
		`find h | sed s,^h,../home, | sort | xargs cat`:                    true,
		`{ find h | cut -c2-; } | xargs cat`:                               true,
		`for f in $(ls); do echo ../$f; done | xargs cat`:                  true,
		`find h | while read f; do echo "../$f"; done | xargs cat`:         true,
		`find h | while read f; do tr -d x <<< "$f"; done | xargs cat`:     true,
		`find h | xargs realpath --relative-to=a | xargs cat`:              true,
		`find h | xargs basename -s x | xargs cat`:                         true,
		`c=sed; find h | $c s/x// | xargs cat`:                             true,
		`find h | env $c s/x// | xargs cat`:                                true,
		`printf "$f" x | xargs cat`:                                        true,
		`find h | sed s/x// > g; xargs cat < g`:                            true,
		`find h -fprintf g '../%P\n'; xargs cat < g`:                       true,
		`xargs cat <<< "$(find h | sed s/x//)"`:                            true,
		`git ls-files | sed 's,^,./,' | xargs wc -l`:                       false,
		`ls doc | sed 's/^/doc\//' | xargs cat`:                            false,
		`find . -name '*.md' | tr '\n' '\0' | xargs -0 wc -l`:              false,
		`find doc | xargs grep -l a | xargs cat`:                           false,
		`find doc -printf '%p\n' | xargs cat`:                              false,
		`find doc | sort -u | head -3 | xargs cat`:                         false,
		`find doc | xargs -n1 dirname | sort -u | xargs ls`:                false,
		`git ls-files | while read -r f; do echo "$f"; done | xargs wc -l`: false,
		`find . x -maxdepth 0 | tr -d '\n' | xargs cat`:                    true,
		`find . | tr -d '\r' | xargs cat`:                                  true,
		`find . | tr -s '\n' | xargs cat`:                                  false,
		`cat urls | sed s/x/y/ | xargs -n1 echo`:                           false,
		`sed s/x/y/ a > b; cat b`:                                          false,
	} {
		a := Analyze(line, Options{Home: "/h", Workdir: "/w"})
		if got := a.Opaque || len(a.Rewritten) > 0; got != want {
			t.Errorf("%q: opaque %v (%s), rewritten %q, want %v", line, a.Opaque, a.Reason(), a.Rewritten, want)
		}
	}
	for line, want := range map[string][]string{
		`cat $(find h | sed s,^h,../home,)`:               {`$(find h | sed s,^h,../home,)`},
		`f=$(date +../%F); cat $f`:                        {`$(date +../%F)`},
		`cat $(realpath --relative-to=a b)`:               {`$(realpath --relative-to=a b)`},
		`cat $(git ls-files --format='../%(path)')`:       {`$(git ls-files --format='../%(path)')`},
		`cat $(ls doc | sed 's,^,doc/,') $(date +%F).log`: nil,
	} {
		if got := Analyze(line, Options{Home: "/h", Workdir: "/w"}).Rewritten; !slices.Equal(got, want) {
			t.Errorf("%q: rewritten %q, want %q", line, got, want)
		}
	}
}

// TestFindPrintsText checks the find commands that print names with
// text of their own.
func TestFindPrintsText(t *testing.T) {
	for line, want := range map[string]bool{
		`find h -printf ../home/ -printf %P\n`: true, `find . -printf %H -print`: true, `find h -printf ..`: true,
		`find h -printf %p\n`: false, `find h -print0`: false, `find h -printf %P\n`: false,
	} {
		var ws []word
		for _, f := range strings.Fields(line) {
			ws = append(ws, word{text: f})
		}
		if got := findPrintsText(ws); got != want {
			t.Errorf("findPrintsText(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestPrefixesDir checks the sed scripts that add a plain directory of
// the project before each name.
func TestPrefixesDir(t *testing.T) {
	for s, want := range map[string]bool{
		`s,^,./,`: true, `s/^/.\//`: true, `s|^|doc/|g`: true, `s/^/src\/pkg\//`: true, `s,^,.github/,`: true,
		`s,^,../,`: false, `s,^,/,`: false, `s,^,.,`: false, `s,^,doc,`: false, `s,^,~/,`: false,
		`s,^,a/../,`: false, `s,^,./,p`: false, `s,x,./,`: false, `s,^,$HOME/,`: false, `s,^,-x/,`: false,
	} {
		if got := prefixesDir(s); got != want {
			t.Errorf("prefixesDir(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestFormatWithText checks which formats print text of their own that
// may join a name to a path elsewhere.
func TestFormatWithText(t *testing.T) {
	for w, want := range map[string]bool{
		`../home/%P\n`: true, `%h/%f`: true, `+../x`: false, `+../%s`: true, `~/%s`: true, `../%(path)`: true, `+%F.d`: true,
		`%p\n`: false, `%P\0`: false, `./%P\n`: false, `+%F`: false, `+%Y-%m-%d`: false, `%s %n`: false,
		`README`: false, `a.b/c`: false, `%H%p\n`: true, `\056\056\057home\057%P\n`: true, `%p\012`: true,
		`%p\000`: false, `%p%%`: false, `%s\t%p\n`: false,
	} {
		if got := formatWithText(w); got != want {
			t.Errorf("formatWithText(%q) = %v, want %v", w, got, want)
		}
	}
}
