package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// A case-insensitive APFS volume compares names by Unicode's full case
// folding: permißions.json opens permissions.json and conﬁg opens config.
// diskCase spells such a name as the directory lists it, and the rule-file
// check of a folding workspace hits it, as they do .ENV for .env.
func TestFullCaseFoldingOnAFoldingVolume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".lite-agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".lite-agent/permissions.json", "config"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for in, want := range map[string]string{
		".lite-agent/permi\u00dfions.json": ".lite-agent/permissions.json",
		".LITE-AGENT/PERMI\u1e9eIONS.JSON": ".lite-agent/permissions.json",
		"con\ufb01g":                       "config",
		"CON\ufb01G":                       "config",
	} {
		if got := diskCase(filepath.Join(dir, in)); got != filepath.Join(dir, want) {
			t.Errorf("diskCase(%s) = %s, want %s", in, got, filepath.Join(dir, want))
		}
	}
	prot := filepath.Join(dir, ".lite-agent", "permissions.json")
	set := &fileSet{prot: []string{prot}, ws: &fsResolver{dir: dir, real: dir, fold: true}}
	res := &resolved{r: lexical{dir: dir}}
	for _, p := range []string{".lite-agent/permi\u00dfions.json", ".lite-agent/PERMI\u1e9eIONS.JSON"} {
		if !set.hits(res, filepath.Join(dir, p), false) {
			t.Errorf("hits(%s) = false", p)
		}
	}
	if !set.hits(res, filepath.Join(dir, ".lite-agent"), true) {
		t.Error("hits(.lite-agent, ancestors) = false")
	}
}
