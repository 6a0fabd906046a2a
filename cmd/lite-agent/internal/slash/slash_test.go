package slash

import (
	"strings"
	"testing"
)

func TestIsCommand(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"/rewind", true},
		{"/help me", true},
		{"/rewnd", true},
		{"/tmp/x is big?", false},
		{"/", false},
		{"hello /rewind", false},
		{"", false},
	} {
		if got := IsCommand(c.line); got != c.want {
			t.Errorf("IsCommand(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// TestHelpAlignsTheDescriptions: every description starts in one column,
// however long a command's name and arguments are ("/compact
// [instructions]" is longer than the 16 columns the first version padded to).
func TestHelpAlignsTheDescriptions(t *testing.T) {
	table := []Command[struct{}]{
		{Name: "/help", Short: "list these commands"},
		{Name: "/compact", Args: "[instructions]", Short: "compact the session now"},
		{Name: "/exit", Short: "end chat"},
	}
	var buf strings.Builder
	Help(&buf, table)
	want := "  /help                    list these commands\n" +
		"  /compact [instructions]  compact the session now\n" +
		"  /exit                    end chat\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
