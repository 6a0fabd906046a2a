package shellscan

import "testing"

// TestFilteredWritten checks that a line is opaque when a file it wrote
// with a text it spells out, changed by a filter the analysis does not
// follow, or changed on its way out of such a file, is read back as
// names: the names are the author's, and no word of the line shows them.
func TestFilteredWritten(t *testing.T) {
	for line, want := range map[string]bool{
		`echo SUB/S/ID > f; cat $(tr A-Z a-z < f)`:                   true,
		`echo bus/s/id > f; cat $(sed s/bus/sub/ f)`:                 true,
		`echo di/s/bus > f; cat $(rev f)`:                            true,
		`echo c3Vi > f; x=$(base64 -d f); cat $x`:                    true,
		`echo SUB/S/ID > f; tr A-Z a-z < f | xargs cat`:              true,
		`printf X | tr A-Z a-z > g; cat $(cat g)`:                    true,
		`printf X | tr A-Z a-z > g; cat $(< g)`:                      true,
		`printf X | tr A-Z a-z > g; xargs cat < g`:                   true,
		`printf X | tr A-Z a-z > g; cp g h; cat $(sort h)`:           true,
		`echo X | tr A-Z a-z | tee g; cat $(cat g)`:                  true,
		`echo X > f; tr A-Z a-z < f > g; cat $(head -1 g)`:           true,
		`echo R > f; echo X | tr A-Z a-z > g; cat f g | xargs cat`:   true,
		`printf X | tr A-Z a-z > g; readarray -t a < g; cat ${a[0]}`: true,
		`echo X | tr A-Z a-z > g; cat g`:                             false,
		`find . -name '*.md' > files; wc -l $(cat files)`:            false,
		`go env GOPATH > p; ls $(cat p)`:                             false,
		`echo hello | tr a-z A-Z > out.txt; wc -c out.txt`:           false,
		`echo X | tr A-Z a-z > g; echo README > g; cat $(cat g)`:     false,
	} {
		if got := Analyze(line, Options{Home: "/h", Workdir: "/w"}).Opaque; got != want {
			t.Errorf("%q: opaque %v, want %v", line, got, want)
		}
	}
}
