package shellscan

import (
	"slices"
	"strings"
	"testing"
)

// A command the analysis does not model carries, as guessed spellings,
// the commands it may run: from each operand, from each option's value
// given with '=', and each command string attached to a short option;
// message options' values are not commands, and modelled commands carry
// none.
func TestGuessedSpellingsOfUnmodelledCommands(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // the first command's guessed spellings
	}{
		{"logsave /dev/null terraform destroy", []string{"/dev/null terraform destroy", "null terraform destroy", "terraform destroy", "destroy"}},
		{"tool --exec=rm x", []string{"rm x", "x"}},
		{"tool --run='terraform   destroy' -v", []string{"terraform destroy -v"}},
		{"tool -c'terraform destroy'", []string{"terraform destroy"}},
		{"tool -erm x", []string{"rm x", "x"}},
		{"tool -v", nil},
		{"tool -q /opt/bin/terraform destroy", []string{"/opt/bin/terraform destroy", "terraform destroy", "destroy"}},
		{"gh pr create --title 'terraform destroy'", []string{"pr create --title terraform destroy", "create --title terraform destroy"}},
		{"tool --title='rm x' y", []string{"y"}},
		{"ls terraform destroy", nil},
		{"tool", nil},
	} {
		a := Analyze(tc.line, Options{})
		if len(a.Commands) == 0 {
			t.Fatalf("%q: no command", tc.line)
		}
		if got := a.Commands[0].Guessed; !slices.Equal(got, tc.want) {
			t.Errorf("%q: guessed %q, want %q", tc.line, got, tc.want)
		}
	}
}

// A command with more operands than guesses are recorded for is opaque:
// a denied command past the bound would otherwise go unseen.
func TestGuessedSpellingsAreBounded(t *testing.T) {
	line := "tool " + strings.Repeat("x ", maxInnerSpellings) + "terraform destroy"
	if a := Analyze(line, Options{}); !a.Opaque {
		t.Errorf("%d operands: not opaque", maxInnerSpellings+2)
	}
	line = "tool " + strings.Repeat("x ", maxInnerSpellings-1)
	if a := Analyze(line, Options{}); a.Opaque {
		t.Errorf("%d operands: opaque: %s", maxInnerSpellings-1, a.Reason())
	}
}
