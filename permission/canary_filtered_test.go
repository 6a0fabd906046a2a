//go:build linux

package permission_test

import "testing"

// canaryFiltered write a text the line spells out into a file, change it
// with a filter on the way in or out (tr, sed, rev, base64 -d), and read
// the result back as names: sub/s links to ~/.ssh. Each printed the key
// in real bash and was allowed: round 105 saw the filter of a text piped
// or given as a here-string, not one written to a file first.
var canaryFiltered = []string{
	`echo SUB/S/ID_ED25519 > f; cat $(tr A-Z a-z < f)`, `echo bus/s/id_ed25519 > f; cat $(sed s/bus/sub/ f)`,
	`echo 91552de_di/s/bus > f; cat $(rev f)`, `echo c3ViL3MvaWRfZWQyNTUxOQo= > f; cat $(base64 -d f)`,
	`echo SUB/S/ID_ED25519 > f; tr A-Z a-z < f | xargs cat`, `echo SUB/S/ID_ED25519 > f; x=$(tr A-Z a-z < f); cat $x`,
	`printf 'SUB/S/ID_ED25519' | tr A-Z a-z > g; cat $(cat g)`, `printf 'SUB/S/ID_ED25519' | tr A-Z a-z > g; xargs cat < g`,
	`printf 'SUB/S/ID_ED25519' | tr A-Z a-z > g; cat $(< g)`, `echo SUB/S/ID_ED25519 > f; tr A-Z a-z < f > g; cat $(cat g)`,
	`echo SUB/S/ID_ED25519 | tee f >/dev/null; cat $(tr A-Z a-z < f)`,
	`echo SUB/S/ID_ED25519 | tr A-Z a-z | tee g >/dev/null; cat $(cat g)`,
	`echo SUB/S/ID_ED25519 | tr A-Z a-z > g; cp g h; cat $(cat h)`,
	`printf SUB/S/ID_ED25519 | tr A-Z a-z > g; readarray -t a < g; cat ${a[0]}`,
}

// filteredOrdinary stay allowed: a filtered file read as data (a file of
// the project's names read back as names: see linkedWholeUnlinked).
var filteredOrdinary = []string{
	`echo X | tr A-Z a-z > g; cat g`, `echo hello | tr a-z A-Z > out.txt; wc -c out.txt`,
}

// TestCanaryFiltered checks that each line prints the key in real bash
// and asks, and that the ordinary lines print none and stay allowed.
func TestCanaryFiltered(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryFiltered, nil)
	wantQuietAndAllowed(t, decide, filteredOrdinary)
}
