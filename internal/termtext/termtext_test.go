package termtext

import (
	"reflect"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"cd web && npm test", "cd web && npm test"},
		{"héllo wörld — 日本語 😀", "héllo wörld — 日本語 😀"},
		{`printf 'a\n' | grep "x"`, `printf 'a\n' | grep "x"`},
		{"a\nb", `a\nb`},
		{"a\tb", `a\tb`},
		{"ls\rrm -rf ~", `ls\rrm -rf ~`},
		{"x\x1b[2K\x1b[1Gecho hi", `x\x1b[2K\x1b[1Gecho hi`},
		{"\x1b]52;c;ZXZpbA==\x07", `\x1b]52;c;ZXZpbA==\a`},
		{"abc\bdef\x7f", `abc\bdef\x7f`},
		{"c1 \u009b2J csi", `c1 \u009b2J csi`},
		{"rm -rf /tmp/\u202eexe.txt", `rm -rf /tmp/\u202eexe.txt`},
		{"a\u2066b\u2069c\u200ed\u200fe\u061cf", `a\u2066b\u2069c\u200ed\u200fe\u061cf`},
		{"zero\u200bwidth\u200c\u200d\u2060\ufeff", `zero\u200bwidth\u200c\u200d\u2060\ufeff`},
		{"nb\u00a0sp ideo\u3000sp thin\u2009", `nb\u00a0sp ideo\u3000sp thin\u2009`},
		{"line\u2028para\u2029", `line\u2028para\u2029`},
		{"hangul\u3164filler\u115f", `hangul\u3164filler\u115f`},
		{"vs\ufe0f tag\U000e0041", `vs\ufe0f tag\U000e0041`},
		{"soft\u00adhyphen", `soft\u00adhyphen`},
		{"private\ue000use", `private\ue000use`},
		{"bad \xff\xfe bytes", `bad \xff\xfe bytes`},
		{"literal \ufffd", `literal \ufffd`},
		{"unassigned \U0010fffd", `unassigned \U0010fffd`},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"one", []string{"one"}},
		{"cat <<-EOF\n\tx\nEOF\n", []string{"cat <<-EOF", "\tx", "EOF", ""}},
		{"a\r\nb\x1b[A", []string{`a\r`, `b\x1b[A`}},
		{"", []string{""}},
	} {
		if got := Lines(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Whatever the input, the escaped text holds nothing a terminal would act
// on or hide: only runes Shown accepts (and tabs and newlines' absence).
func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "plain", "a\x1b[2Jb", "\u202e\u200b\xff", "\t\n\r", "\U000e0041\ufe0f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Line(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if !Shown(r) {
				t.Fatalf("Line(%q) = %q holds %U", s, out, r)
			}
		}
		for _, l := range Lines(s) {
			for _, r := range l {
				if !Shown(r) && r != '\t' {
					t.Fatalf("Lines(%q) holds %U", s, r)
				}
			}
		}
	})
}
