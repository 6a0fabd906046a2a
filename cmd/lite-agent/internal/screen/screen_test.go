package screen

import "testing"

func TestHostileCharactersAreEscapedAndOrdinaryTextKept(t *testing.T) {
	tests := []struct {
		name, in, line, text string
	}{
		{"plain", "héllo wörld 日本 🙂", "héllo wörld 日本 🙂", "héllo wörld 日本 🙂"},
		{"csi", "a\x1b[2Jb", `a\x1b[2Jb`, `a\x1b[2Jb`},
		{"osc52", "\x1b]52;c;ZXZpbA==\a", `\x1b]52;c;ZXZpbA==\a`, `\x1b]52;c;ZXZpbA==\a`},
		{"c1 csi", "a\u009b2Jb", `a\u009b2Jb`, `a\u009b2Jb`},
		{"raw 9b byte", "a\x9b2J", `a\x9b2J`, `a\x9b2J`},
		{"cr backspace", "ok\r\bX", `ok\r\bX`, `ok\r\bX`},
		{"bidi", "a\u202eb\u2066c\u200fd\u061c", `a\u202eb\u2066c\u200fd\u061c`, `a\u202eb\u2066c\u200fd\u061c`},
		{"format", "a\u200bb\ufeffc\u2060", `a\u200bb\ufeffc\u2060`, `a\u200bb\ufeffc\u2060`},
		{"line separators", "a\u2028b\u2029c", `a\u2028b\u2029c`, `a\u2028b\u2029c`},
		{"newline and tab", "a\n\tb", `a\n\tb`, "a\n\tb"},
		{"empty", "", "", ""},
		{"looks quoted", `"x"`, `"x"`, `"x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Line(tt.in); got != tt.line {
				t.Errorf("Line = %q, want %q", got, tt.line)
			}
			if got := Text(tt.in); got != tt.text {
				t.Errorf("Text = %q, want %q", got, tt.text)
			}
		})
	}
}
