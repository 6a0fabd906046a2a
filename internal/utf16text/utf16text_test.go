package utf16text

import "testing"

func TestLenCutLast(t *testing.T) {
	tests := []struct {
		s         string
		max       int
		len       int
		cut, last string
		wasCut    bool
	}{
		{s: "", max: 3, len: 0, cut: "", last: ""},
		{s: "abc", max: 3, len: 3, cut: "abc", last: "abc"},
		{s: "abcd", max: 3, len: 4, cut: "abc", last: "bcd", wasCut: true},
		// 界 is one unit in three bytes; 😀 is two units in four bytes.
		{s: "界😀x", max: 2, len: 4, cut: "界", last: "x", wasCut: true},
		{s: "界😀x", max: 3, len: 4, cut: "界😀", last: "😀x", wasCut: true},
		{s: "\xff\xfe", max: 1, len: 2, cut: "\xff", last: "\xfe", wasCut: true},
	}
	for _, tt := range tests {
		if got := Len(tt.s); got != tt.len {
			t.Errorf("Len(%q) = %d, want %d", tt.s, got, tt.len)
		}
		if got, cut := Cut(tt.s, tt.max); got != tt.cut || cut != tt.wasCut {
			t.Errorf("Cut(%q, %d) = %q, %v; want %q, %v", tt.s, tt.max, got, cut, tt.cut, tt.wasCut)
		}
		if got := Last(tt.s, tt.max); got != tt.last {
			t.Errorf("Last(%q, %d) = %q, want %q", tt.s, tt.max, got, tt.last)
		}
	}
}
