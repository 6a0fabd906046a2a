package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/utf16text"
)

func TestShrinkKeepsHeadAndTailWithinMax(t *testing.T) {
	tests := []struct {
		name string
		s    string
		max  int
	}{
		{"short", "hello", 768},
		{"exact", strings.Repeat("a", 256), 256},
		{"ascii", strings.Repeat("0123456789", 100), 256},
		{"wide", strings.Repeat("界😀", 400), 512},
		{"tiny max", strings.Repeat("b", 100), 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shrink(tt.s, tt.max)
			n := utf16text.Len(tt.s)
			if n <= tt.max {
				if got != tt.s {
					t.Errorf("a string within max changed: %q", got)
				}
				return
			}
			if l := utf16text.Len(got); l > tt.max {
				t.Errorf("%d units, max %d", l, tt.max)
			}
			head, rest, ok := strings.Cut(got, "\n[… ")
			if !ok {
				if !strings.HasPrefix(tt.s, got) {
					t.Errorf("no marker and not a prefix: %q", got)
				}
				return
			}
			var omitted int
			var tail string
			if _, err := fmt.Sscanf(rest, "%d chars omitted …]", &omitted); err != nil {
				t.Fatalf("marker %q: %v", rest, err)
			}
			tail = rest[strings.Index(rest, "…]\n")+len("…]\n"):]
			if !strings.HasPrefix(tt.s, head) || !strings.HasSuffix(tt.s, tail) {
				t.Errorf("head %q or tail %q not from the string", head, tail)
			}
			if utf16text.Len(head)+omitted+utf16text.Len(tail) != n {
				t.Errorf("head %d + omitted %d + tail %d != %d", utf16text.Len(head), omitted, utf16text.Len(tail), n)
			}
			if utf16text.Len(head) < utf16text.Len(tail) {
				t.Errorf("head %d shorter than tail %d", utf16text.Len(head), utf16text.Len(tail))
			}
		})
	}
}

func TestMentionsFindsWholeWords(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"You must keep the API.", true},
		{"You MUST NOT change it", true},
		{"Constraints: none", true},
		{"the requirements are listed", true},
		{"Acceptance criteria: green tests", true},
		{"mustard on the side", false},
		{"a requirementless plan", false},
		{"must_have is a variable", false},
		{"x-must-y", true},
		{"必须使用 Go", true},
		{"nothing here", false},
		{"musts", true},
	}
	for _, tt := range tests {
		if got := mentions(tt.text, constraintWords, constraintHan); got != tt.want {
			t.Errorf("mentions(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	if !mentions("Our objectives:", goalWords, goalHan) || mentions("goalkeeper", goalWords, goalHan) {
		t.Error("goal words")
	}
}
