package pathmatch

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestResolveFollowsLinksAsTheKernelDoes(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	must(os.Symlink(filepath.Join(dir, "real", "sub"), filepath.Join(dir, "abs")))
	must(os.Symlink("real/sub", filepath.Join(dir, "rel")))
	must(os.Symlink("loop", filepath.Join(dir, "loop")))
	tests := []struct{ in, want string }{
		{filepath.Join(dir, "abs", "f"), filepath.Join(dir, "real", "sub", "f")},
		{dir + "/rel/../x", filepath.Join(dir, "real", "x")}, // ".." steps back from where the link led
		{dir + "/missing/../y", dir + "/missing/../y"},       // below a missing component, lexical
		{filepath.Join(dir, "loop", "z"), filepath.Join(dir, "loop", "z")},
		{"relative/../p", "p"},
	}
	for _, tt := range tests {
		got := Resolve(tt.in)
		if filepath.Clean(got) != filepath.Clean(tt.want) {
			t.Errorf("Resolve(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestHitsAndPatternHits(t *testing.T) {
	protected := []string{"/w/.git/config", "/w/.lite-agent"}
	tests := []struct {
		target    string
		ancestors bool
		hits      bool
		pattern   bool
	}{
		{"/w/.git/config", false, true, true},
		{"/w/.lite-agent/permissions.json", false, true, true},
		{"/w/.git", false, false, false},
		{"/w/.git", true, true, true},
		{"/w/src/a.go", true, false, false},
		{"/w/.git/conf*", false, false, true},
		{"/w/.git/{config,HEAD}", false, false, true},
		{"/w/*/config", false, false, false}, // * does not match a leading dot
		{"/w/.[g]it/config", false, false, true},
		{"/w/.lite-agent/{a..z}", false, true, true},
	}
	for _, tt := range tests {
		if got := Hits(tt.target, protected, tt.ancestors); got != tt.hits {
			t.Errorf("Hits(%s, %v) = %v, want %v", tt.target, tt.ancestors, got, tt.hits)
		}
		if got := PatternHits(tt.target, protected, tt.ancestors); got != tt.pattern {
			t.Errorf("PatternHits(%s, %v) = %v, want %v", tt.target, tt.ancestors, got, tt.pattern)
		}
	}
}

func TestBraceWordsExpandsAsBashDoes(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a{b,c}d", []string{"abd", "acd"}},
		{"{a,b{c,d}}", []string{"a", "bc", "bd"}},
		{"{a}", []string{"{a}"}},
		{"{1..3}", []string{"{1..3}"}},
		{"x", []string{"x"}},
	}
	for _, tt := range tests {
		if got := braceWords(tt.in, 256); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("braceWords(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := braceWords("{a,b}{c,d}{e,f}", 4); !reflect.DeepEqual(got, []string{"{a,b}{c,d}{e,f}"}) {
		t.Errorf("past the limit: %q", got)
	}
}

func TestLiteralDirAndWithin(t *testing.T) {
	for in, want := range map[string]string{"/a/b/*.go": "/a/b", "/a/b/c": "/a/b", "/*": "/", "/a/{x,y}/z": "/a"} {
		if got := LiteralDir(in); got != want {
			t.Errorf("LiteralDir(%s) = %s, want %s", in, got, want)
		}
	}
	for _, tt := range []struct {
		p, base string
		want    bool
	}{{"/a/b", "/a", true}, {"/a", "/a", true}, {"/ab", "/a", false}, {"/x", "/", true}} {
		if got := Within(tt.p, tt.base); got != tt.want {
			t.Errorf("Within(%s, %s) = %v", tt.p, tt.base, got)
		}
	}
}

func TestSegmentMayBe(t *testing.T) {
	for pat, want := range map[string]bool{
		"sub/r/.gi?/config": true, "sub/*/.g*/x": true, "a/.{git,x}/c": true, "a/.[g]it": true, ".git": true,
		"sub/*/config": false, "sub/?git/x": false, "a/*.txt": false, "a/.gitignore": false, "a/.git?": false,
	} {
		if got := SegmentMayBe(pat, ".git"); got != want {
			t.Errorf("SegmentMayBe(%q) = %v, want %v", pat, got, want)
		}
	}
}

// Glob expands a pattern as bash does in a UTF-8 locale and in the C
// locale, where "?" matches one byte, and reads "[!x]" as bash's negation.
func TestGlobMatchesAsBashInEveryLocale(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".git", "dötgit", "sub", ".hidden"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, d, "config"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		pat  string
		want []string
	}{
		{"d??tgit/config", []string{"dötgit/config"}},     // C: ö is two bytes
		{"d?tgit/config", []string{"dötgit/config"}},      // UTF-8: ö is one character
		{"d[ö][ö]tgit/config", []string{"dötgit/config"}}, // C: a class of two bytes
		{"su[!x]/config", []string{"sub/config"}},
		{"su[^x]/config", []string{"sub/config"}},
		{"su[!b]/config", nil},
		{"*/config", []string{"dötgit/config", "sub/config"}}, // no dot files
		{".[g]it/config", []string{".git/config"}},
		{"{sub,x}/c?nfig", []string{"sub/config"}},
		{"s{1..3}/config", []string{"sub/config"}},       // a sequence matches loosely
		{"[[:alpha:]]ub/config", []string{"sub/config"}}, // a class is any one character
		{"[![:digit:]]ub/config", []string{"sub/config"}},
		{"d[[:alpha:]]tgit/config", []string{"dötgit/config"}},
		{"[[:alpha:]]*", []string{"dötgit", "sub"}},
		{"sub/missing?", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range Glob(dir + "/" + tt.pat) {
			rel, _ := filepath.Rel(dir, m)
			got = append(got, rel)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Glob(%s) = %v, want %v", tt.pat, got, tt.want)
		}
	}
}

// On a case-insensitive file system (macOS's default) .Lite-Agent is the
// .lite-agent directory: a protected path is hit in any letter case, by a
// literal path and by a pattern, and a class that rules out one case
// still hits by the other.
func TestHitsInAnyLetterCase(t *testing.T) {
	protected := []string{"/w/.git/config", "/w/.lite-agent/permissions.json", "/w/.lite-agent/agents", "/w/.git/hooks"}
	if !Hits("/w/.git/hoo\u212as/pre-commit", protected, false) {
		t.Error("a Kelvin sign for k does not hit .git/hooks")
	}
	for _, target := range []string{
		"/w/.GIT/config", "/w/.Git/CONFIG", "/w/.Lite-Agent/permissions.json",
		"/w/.LITE-AGENT/Permissions.JSON", "/w/.lite-agent/AGENTS/x.md", "/W/.lite-agent/agents",
		"/w/.lite-agent/permi\u017f\u017fions.json", "/w/.lite-agent/permi\u017fsions.json",
	} {
		if !Hits(target, protected, false) {
			t.Errorf("Hits(%s) = false", target)
		}
		if !PatternHits(target, protected, false) {
			t.Errorf("PatternHits(%s) = false", target)
		}
	}
	for _, target := range []string{"/w/.Lite-Agen?/permissions.json", "/w/.[!G]it/Config", "/w/.GI[T]/config", "/w/.lite-agent/permi\u017f?ions.json"} {
		if !PatternHits(target, protected, false) {
			t.Errorf("PatternHits(%s) = false", target)
		}
	}
	for _, target := range []string{"/w/.lite-agent/permissions.json.bak", "/w/.gitx/config"} {
		if Hits(target, protected, false) || PatternHits(target, protected, false) {
			t.Errorf("%s hits", target)
		}
	}
}
