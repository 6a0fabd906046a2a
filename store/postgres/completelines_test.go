package postgres

import (
	"slices"
	"strings"
	"testing"
)

// TestCompleteLinesLeavesATornTailOut checks the split an import of a data
// home's files uses for session logs and archive indexes: a torn tail
// (bytes after the last newline) is not a line, as the file stores' readers
// ignore it; before, an archive index with one failed the whole import.
func TestCompleteLinesLeavesATornTailOut(t *testing.T) {
	big := `{"ref":"` + strings.Repeat("x", 200<<10)
	for _, tt := range []struct {
		data string
		want []string
	}{
		{"", nil},
		{"{", nil},
		{big, nil},
		{"a\n", []string{"a"}},
		{"a\nb\n", []string{"a", "b"}},
		{"a\nb", []string{"a"}},
		{"a\n" + big, []string{"a"}},
		{"a\n\nb\n", []string{"a", "", "b"}}, // an empty line is a line, refused by the import
	} {
		var got []string
		for _, l := range completeLines([]byte(tt.data)) {
			got = append(got, string(l))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("completeLines(%.20q) = %.40q, want %.40q", tt.data, got, tt.want)
		}
	}
}
