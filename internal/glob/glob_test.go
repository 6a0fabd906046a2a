package glob

import (
	"errors"
	"path"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		glob string
		in   string
		want bool
	}{
		{"*", "bash", true},
		{"*", "a/b", false},
		{"*", "", true},
		{"", "", true},
		{"", "a", false},
		{"Task*", "TaskCreate", true},
		{"Task*", "task", false},
		{"mcp__*", "mcp__github__create_issue", true},
		{"mcp__*", "mcp_connect", false},
		{"?ash", "bash", true},
		{"?ash", "bbash", false},
		{"?", "/", false},
		{"{read,write}_file", "write_file", true},
		{"{read,write}_file", "edit_file", false},
		{"{a,{b,c}}x", "cx", true},
		{"mcp__{a,b{1,2}}__*", "mcp__b2__x", true},
		{"mcp__{a,b{1,2}}__*", "mcp__b3__x", false},
		{"{,x}y", "y", true},
		{"{a}", "{a}", true}, // no comma: literal braces
		{"[rw]*", "write_file", true},
		{"[!rw]*", "write_file", false},
		{"[^rw]*", "edit_file", true},
		{"[a-c]", "b", true},
		{"[a-c]", "d", false},
		{"[]]", "]", true},
		{"[!]]", "a", true},
		{"[a-]", "-", true},
		{`[\]]`, "]", true},
		{`[\-]`, "-", true},
		{`[\-]`, "b", false},
		{"[é]", "é", true},
		{"é?", "éa", true},
		{"*.env", ".env", true}, // dot files are not special
		{"secrets/**", "secrets", true},
		{"secrets/**", "secrets/a/b/c", true},
		{"secrets/**", "secretsx", false},
		{"secrets/**", "secrets/a\nb", true},
		{"**/id_rsa", "id_rsa", true},
		{"**/id_rsa", "home/u/.ssh/id_rsa", true},
		{"**/id_rsa", "xid_rsa", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/xb", false},
		{"**", "a/b/c", true},
		{"**/*.go", "main.go", true},
		{"**/*.go", "cmd/x/main.go", true},
		{"**/*.go", "cmd/x/main.gox", false},
		{"src/**/*.{go,md}", "src/a/b/README.md", true},
		{"{src,cmd}/**", "cmd", true},
		{"{src,cmd}/**", "cmd/a/b", true},
		{"src/{**/,}x", "src/x", true},
		{"src/{**/,}x", "src/a/b/x", true},
		{"a**b", "a/b", false}, // ** inside a segment is *
		{"a**b", "axxb", true},
		{`\*`, "*", true},
		{`\*`, "x", false},
		{"x.y", "xzy", false},       // regexp metacharacters are literal
		{`\(a\|b\)`, "(a|b)", true}, // escaped, a group's characters are literal
		{"[(|)]x", "|x", true},      // and in a class
		{"a+b$", "a+b$", true},
		{"\xffx", "\xffx", true}, // invalid UTF-8 reads as U+FFFD, on both sides
		{"\xffx", "\uFFFDx", true},
		{"x\xff", "x\xfe", true},
		{"abc", "ab", false},
		{"ab*ba", "aba", false}, // prefix and suffix may not overlap
		{"ab*ba", "abba", true},
	}
	for _, tt := range tests {
		for _, lenient := range []bool{false, true} {
			p, err := Compile(tt.glob, Options{LiteralUnbalanced: lenient})
			if err != nil {
				t.Fatalf("Compile(%q, lenient %v): %v", tt.glob, lenient, err)
			}
			if got := p.Match(tt.in); got != tt.want {
				t.Errorf("glob %q on %q = %v, want %v", tt.glob, tt.in, got, tt.want)
			}
			if re, err := oracle(tt.glob, Options{LiteralUnbalanced: lenient}); err != nil || re.MatchString(tt.in) != tt.want {
				t.Errorf("oracle %v on %q disagrees (%v)", re, tt.in, err)
			}
		}
	}
}

func TestUnbalancedIsLiteralOnlyWhenLenient(t *testing.T) {
	tests := []struct {
		glob, in string
	}{
		{"a{b", "a{b"},
		{"a[b", "a[b"},
		{"a}b", "a}b"},
		{"{a,b", "{a,b"},
		{`a\`, `a\`},
		{"[a-", "[a-"},
		{"[x", "[x"},
	}
	for _, tt := range tests {
		p, err := Compile(tt.glob, Options{LiteralUnbalanced: true})
		if err != nil {
			t.Fatalf("lenient Compile(%q): %v", tt.glob, err)
		}
		if !p.Match(tt.in) {
			t.Errorf("lenient %q does not match %q", tt.glob, tt.in)
		}
		if _, err := Compile(tt.glob, Options{}); err == nil {
			t.Errorf("strict Compile(%q) succeeded, want an error", tt.glob)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	tests := map[string]struct {
		glob string
		opts Options
		msg  string
	}{
		"negated":             {"!secret", Options{}, "negated"},
		"bad range":           {"[z-a]", Options{LiteralUnbalanced: true}, "class range"},
		"too long":            {strings.Repeat("a", DefaultMaxLen+1), Options{}, "longer than 4096"},
		"too long for limit":  {strings.Repeat("a", 257), Options{MaxLen: 256}, "longer than 256"},
		"alternatives":        {strings.Repeat("{a,b}", 9), Options{}, "more than 256 alternatives"},
		"alternatives limit":  {strings.Repeat("{a,b,c}", 4), Options{MaxAlternatives: 64}, "more than 64"},
		"nested alternatives": {strings.Repeat("{a,", 8) + strings.Repeat("b}", 8) + strings.Repeat("{x,y}", 6), Options{MaxAlternatives: 64}, "alternatives"},
		"too deep":            {strings.Repeat("{a,", 17) + strings.Repeat("}", 17), Options{}, "nest too deeply"},
		"extglob":             {"**/*.@(pem|key)", Options{}, "extglobs"},
		"group":               {"secret.(txt|md)", Options{}, "groups"},
		"plus":                {"*.+(a)", Options{}, "groups"},
		"star group":          {"x*(y)", Options{}, "groups"},
		"bar":                 {"a|b", Options{}, "groups"},
		"paren":               {"a)", Options{}, "groups"},
		"stray brace":         {"a}", Options{}, "unbalanced braces"},
		"open brace":          {"{a,b", Options{}, "unbalanced braces"},
		"open class":          {"[a-", Options{}, "malformed pattern"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Compile(tt.glob, tt.opts)
			var ge *Error
			if !errors.As(err, &ge) {
				t.Fatalf("Compile = %v, want *Error", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
			if len(tt.glob) > 8 && strings.Contains(err.Error(), tt.glob) {
				t.Errorf("error %q quotes the pattern", err)
			}
		})
	}
}

func TestExactLimitsCompile(t *testing.T) {
	if _, err := Compile(strings.Repeat("a", DefaultMaxLen), Options{}); err != nil {
		t.Errorf("pattern of DefaultMaxLen bytes: %v", err)
	}
	if _, err := Compile(strings.Repeat("{a,b}", 8), Options{}); err != nil {
		t.Errorf("256 alternatives: %v", err)
	}
	if _, err := Compile(strings.Repeat("{a,", 16)+strings.Repeat("}", 16), Options{}); err != nil {
		t.Errorf("16 nested groups: %v", err)
	}
}

func TestBaseAndDepth(t *testing.T) {
	tests := []struct {
		glob  string
		base  string
		depth int
	}{
		{"*.go", "", 1},
		{"src/*.go", "src", 2},
		{"src/cmd/*.go", "src/cmd", 3},
		{"src/c*/x", "src", 3},
		{"src/**", "src", -1},
		{"src/**/*.go", "src", -1},
		{"**/*.go", "", -1},
		{`a\*b/c`, "a*b", 2},
		{"{a,b}/c", "", 2},
		{"{a,b/c}/d", "", -1},
		{"/abs/x/*", "/abs/x", 4},
		{"a/b", "a", 2},
	}
	for _, tt := range tests {
		p := MustCompile(tt.glob)
		if p.Base() != tt.base || p.Depth() != tt.depth {
			t.Errorf("%q: Base, Depth = %q, %d; want %q, %d", tt.glob, p.Base(), p.Depth(), tt.base, tt.depth)
		}
		if p.String() != tt.glob {
			t.Errorf("String() = %q", p.String())
		}
	}
}

func TestQuoteMetaMatchesLiterally(t *testing.T) {
	for _, s := range []string{"a*b", "[x]", "{a,b}", "!neg", "(a|b)", `back\slash`, "é?", "/home/u"} {
		p, err := Compile(QuoteMeta(s), Options{})
		if err != nil {
			t.Fatalf("Compile(QuoteMeta(%q)): %v", s, err)
		}
		if !p.Match(s) {
			t.Errorf("QuoteMeta(%q) = %q does not match it", s, QuoteMeta(s))
		}
		if s != "/home/u" && p.Match("x"+s) {
			t.Errorf("QuoteMeta(%q) matches more", s)
		}
	}
}

func TestMustCompilePanicsOnBadPattern(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustCompile did not panic")
		}
	}()
	MustCompile("[")
}

// FuzzMatch checks that no pattern panics, that strict and lenient modes
// agree where both compile, that the automaton agrees with the pattern
// translated to an RE2 regular expression, that an escaped name matches
// itself, and that on the syntax path.Match shares with this engine the
// two agree.
func FuzzMatch(f *testing.F) {
	f.Fuzz(func(t *testing.T, pattern, name string) {
		strict, serr := Compile(pattern, Options{})
		lenient, lerr := Compile(pattern, Options{LiteralUnbalanced: true})
		if serr == nil {
			if lerr != nil {
				t.Fatalf("strict compiles %q, lenient fails: %v", pattern, lerr)
			}
			if strict.Match(name) != lenient.Match(name) {
				t.Fatalf("strict and lenient disagree on %q ~ %q", pattern, name)
			}
		}
		if lerr == nil {
			re, err := oracle(pattern, Options{LiteralUnbalanced: true})
			if err != nil {
				t.Fatalf("oracle of %q: %v", pattern, err)
			}
			if got, want := lenient.Match(name), re.MatchString(name); got != want {
				t.Fatalf("%q ~ %q = %v, the regexp %s says %v", pattern, name, got, re, want)
			}
		}
		if len(name) <= 64 {
			q, err := Compile(QuoteMeta(name), Options{})
			if err != nil || !q.Match(name) {
				t.Fatalf("QuoteMeta(%q) = %q: %v", name, QuoteMeta(name), err)
			}
		}
		if simple(pattern) && serr == nil {
			want, err := path.Match(pattern, name)
			if err == nil && want != strict.Match(name) {
				t.Fatalf("%q ~ %q: path.Match says %v", pattern, name, want)
			}
		}
	})
}

// simple reports whether p uses only the syntax path.Match reads the same:
// letters, '/', '?' and single stars.
func simple(p string) bool {
	if strings.Contains(p, "**") {
		return false
	}
	for _, c := range p {
		if !strings.ContainsRune("ab./*?", c) {
			return false
		}
	}
	return true
}

// perOp returns a finished benchmark's time per operation in ns.
func perOp(b *testing.B) float64 { return float64(b.Elapsed().Nanoseconds()) / float64(b.N) }

// benchPair measures p.Match on name, and the same pattern as an RE2
// regular expression (the test oracle) in the same run, reporting the
// automaton's time as a multiple of RE2's ("x-RE2").
func benchPair(b *testing.B, label, pattern, name string, want bool) {
	p := MustCompile(pattern)
	re, err := oracle(pattern, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var base float64
	b.Run(label+"/baseline=RE2", func(b *testing.B) {
		b.SetBytes(int64(len(name)))
		for b.Loop() {
			if re.MatchString(name) != want {
				b.Fatal("wrong answer")
			}
		}
		base = perOp(b)
	})
	b.Run(label+"/glob", func(b *testing.B) {
		b.SetBytes(int64(len(name)))
		b.ReportAllocs()
		for b.Loop() {
			if p.Match(name) != want {
				b.Fatal("wrong answer")
			}
		}
		b.ReportMetric(perOp(b)/base, "x-RE2")
	})
}

// BenchmarkHostilePattern matches patterns that make backtracking matchers
// take time exponential in the number of stars; here the time grows
// linearly with the length of the name.
func BenchmarkHostilePattern(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		// The literal "b" at the end rejects the name before the
		// automaton runs; a class there makes it run.
		benchPair(b, "stars/n="+itoa(n), "*a*a*a*a*a*a*a*a*b", strings.Repeat("a", n), false)
		benchPair(b, "stars-class/n="+itoa(n), "*a*a*a*a*a*a*a*a*[bc]", strings.Repeat("a", n), false)
	}
	benchPair(b, "globstars/n=10000", "**/a/**/a/**/a/**/a/**/b", strings.Repeat("a/", 5_000), false)
}

func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := Compile("src/**/*.{go,md,txt}", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTypicalPath matches the kind of pattern and path the glob tool
// and the permission rules see.
func BenchmarkTypicalPath(b *testing.B) {
	benchPair(b, "globstar", "src/**/*.go", "src/internal/glob/testdata/fuzz/matcher_test.go", true)
	benchPair(b, "braces", "**/*.{go,md}", "cmd/lite-agent/internal/render/README.txt", false)
	benchPair(b, "tool", "mcp__*", "mcp__github__create_issue", true)
}

func itoa(n int) string {
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}
