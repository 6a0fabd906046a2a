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
		{`keep \r\n:` + "\rimport os", `keep \\r\\n:\rimport os`},
		{`printf 'a\n'`, `printf 'a\n'`},
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
		{"braille\u2800blank", `braille\u2800blank`},
		{"r\u0336m\u0336 x", `r\u0336m\u0336 x`},
		{"enclosed 1\u20dd", `enclosed 1\u20dd`},
		{"e\u0301\u0302\u0303\u0304", "e\u0301\u0302" + `\u0303\u0304`},
		{"café naïve", "café naïve"},
		{"echo א 1 2>&1 ב", "echo א 1 2>&1 ב"},
		{"unassigned \U0010fffd", `unassigned \U0010fffd`},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"echo א 1 2>&1 ב", `echo \u05d0 1 2>&1 \u05d1`},
		{"x = 'مرحبا'", `x = '\u0645\u0631\u062d\u0628\u0627'`},
		{"日本語 café", "日本語 café"},
	} {
		if got := Exact.Line(tc.in); got != tc.want {
			t.Errorf("Exact.Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWidth(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{{"abc", 3}, {"日本", 4}, {"é", 2}, {"", 0}} {
		if got := Width(tc.in); got != tc.want {
			t.Errorf("Width(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"one", []string{"one"}},
		{"cat <<-EOF\n\tx\nEOF\n", []string{"cat <<-EOF", "        x", "EOF", ""}},
		{"ab\tc\td", []string{"ab      c       d"}},
		{"a\r\nb\x1b[A", []string{`a\r`, `b\x1b[A`}},
		{"# keep \\r\\n\rimport os", []string{`# keep \\r\\n\r`, "import os"}},
		{"// x\u2028alert(1)\u2029y\vz\fw\u0085v", []string{`// x\u2028`, `alert(1)\u2029`, `y\v`, `z\f`, `w\u0085`, "v"}},
		{"end\r", []string{`end\r`}},
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
		for _, m := range []Mode{Text, Exact} {
			for _, l := range m.Lines(s) {
				for _, r := range l {
					if !Shown(r) {
						t.Fatalf("Lines(%q) holds %U", s, r)
					}
				}
			}
		}
	})
}

func TestProse(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Done.\n\n- item\twith tab\n", "Done.\n\n- item\twith tab\n"},
		{"a\x1b]52;c;eA==\x07b\r\n", "a\\x1b]52;c;eA==\\ab\\r\n"},
		{"é 日本 😀 \u202e", "é 日本 😀 \\u202e"},
	} {
		if got := Prose(tc.in); got != tc.want {
			t.Errorf("Prose(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
