//go:build linux

package permission_test

import (
	"fmt"
	"strings"
	"testing"
)

// manyWords returns n words made of format, each with its index.
func manyWords(format string, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = fmt.Sprintf(format, i)
	}
	return strings.Join(ws, " ")
}

// canaryCaps are lines that pass one of the analysis' bounds before they
// name the key: a value, a read or a variant past the bound was dropped,
// and each printed the key in real bash and was allowed.
func canaryCaps() []string {
	files := manyWords("doc/a%d", 70)
	return []string{
		// More values of a loop's variable than the analysis records.
		`for f in ` + files + ` sub/s/id_ed25519; do cat $f 2>/dev/null; done`,
		`for f in ` + files + ` sub/s/id_ed25519; do cat "$f" 2>/dev/null; done`,
		`for f in doc/a{0..70} sub/s/id_ed25519; do cat $f 2>/dev/null; done`,
		`for f in ` + files + `; do :; done; f=sub/s/id_ed25519; cat $f`,
		`for f in doc/a{0..300}; do :; done; for f in sub/s/id_ed25519; do cat $f; done`,
		// More words of a word with two variables than the gate makes.
		`for a in x0 x1 x2 x3 x4 x5 x6 x7 x8 sub; do for b in /y0 /y1 /y2 /y3 /y4 /y5 /y6 /y7 /s/id_ed25519; do cat $a$b 2>/dev/null; done; done`,
		`for a in x0 x1 x2 x3 x4 x5 x6 x7 x8 sub; do for b in /y0 /y1 /y2 /y3 /y4 /y5 /y6 /y7 /s/id_ed25519; do cat "$a$b" 2>/dev/null; done; done`,
		// More reads only known when the line runs than the analysis
		// records.
		`x=a; cat ` + manyWords("doc/${x}%d", 70) + ` ~/$(echo .ssh/id_ed25519) 2>/dev/null`,
		`x=a; cat ` + manyWords("doc/${x}%d", 70) + ` $(cd; pwd)/.ssh/id_ed25519 2>/dev/null`,
	}
}

// canaryCapsOrdinary stay allowed: a loop over many words whose variable
// only echo prints.
var canaryCapsOrdinary = []string{
	`for i in {1..100}; do echo $i; done`, `for i in $(seq 100); do echo $i; done`,
	`for f in ` + manyWords("doc/a%d", 70) + `; do echo $f; done`,
}

// TestCanaryCaps checks that a line past a bound of the analysis asks.
func TestCanaryCaps(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryCaps(), nil)
	wantQuietAndAllowed(t, decide, canaryCapsOrdinary)
}
