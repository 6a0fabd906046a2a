package archive

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrapCutsNeitherCharactersNorEntities(t *testing.T) {
	body := strings.Repeat("a界😀<&>é\n", 40)
	open := openSearch("q")
	full, err := wrap(open, body, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	minimum := len(open) + len("\n"+warningLine+"\n") + len(closeTag)
	if _, err := wrap(open, body, minimum-1); !errors.Is(err, ErrWrapperBudget) {
		t.Fatalf("budget below the wrapper: %v", err)
	}
	broken := regexp.MustCompile(`&(?:[a-z]{0,3})?(?:[^a-z;]|$)`)
	for budget := minimum; budget <= len(full); budget++ {
		out, err := wrap(open, body, budget)
		if budget < minimum+len(truncatedMark) {
			if !errors.Is(err, ErrWrapperBudget) {
				t.Fatalf("budget %d leaves no room for the truncation mark: %q, %v", budget, out, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		if len(out) > budget || !utf8.ValidString(out) {
			t.Fatalf("budget %d: %d bytes, valid UTF-8 %v", budget, len(out), utf8.ValidString(out))
		}
		if !strings.HasPrefix(out, open+"\n"+warningLine+"\n") || !strings.HasSuffix(out, closeTag) {
			t.Fatalf("budget %d: wrapper broken: %q", budget, out)
		}
		inner := strings.TrimSuffix(strings.TrimPrefix(out, open+"\n"+warningLine+"\n"), closeTag)
		if budget < len(full) {
			if !strings.HasSuffix(inner, truncatedMark) {
				t.Fatalf("budget %d: cut body does not end with [truncated]", budget)
			}
			inner = strings.TrimSuffix(inner, truncatedMark)
			// The cut loses less than one escaped character (at most "&amp;").
			if budget-len(out) > 4+3 {
				t.Fatalf("budget %d: only %d bytes used", budget, len(out))
			}
		} else if out != full {
			t.Fatalf("full budget changed the result")
		}
		if m := broken.FindString(inner); m != "" {
			t.Fatalf("budget %d: broken entity %q", budget, m)
		}
		if !strings.HasPrefix(escapeBody.Replace(body), inner) {
			t.Fatalf("budget %d: body is not a prefix of the escaped body", budget)
		}
	}
}

func TestByteOffsetCountsUTF16Units(t *testing.T) {
	const s = "a😀界b" // units: a 0, 😀 1-2, 界 3, b 4; length 5
	tests := []struct {
		off, i        int
		splits, found bool
	}{
		{0, 0, false, true},
		{1, 1, false, true},
		{2, 0, true, true},
		{3, 5, false, true},
		{4, 8, false, true},
		{5, 9, false, true},
		{6, 0, false, false},
	}
	for _, tt := range tests {
		i, splits, ok := byteOffset(s, tt.off)
		if i != tt.i || splits != tt.splits || ok != tt.found {
			t.Errorf("byteOffset(%d) = %d, %v, %v; want %d, %v, %v", tt.off, i, splits, ok, tt.i, tt.splits, tt.found)
		}
	}
	if n := unitLen(s); n != 5 {
		t.Errorf("unitLen = %d", n)
	}
}
