package pathmatch

import "testing"

// A case-insensitive APFS volume compares names by Unicode's full case
// folding: besides ſ and the Kelvin sign, ß and ẞ fold to "ss" and the
// Latin ligatures ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ to their letters, so
// .lite-agent/permißions.json is the rules file and .git/conﬁg git's
// configuration there.
func TestHitsUnderFullCaseFolding(t *testing.T) {
	protected := []string{"/w/.git/config", "/w/.lite-agent/permissions.json", "/w/.lite-agent/skills", "/w/.git/hooks"}
	for _, target := range []string{
		"/w/.lite-agent/permi\u00dfions.json", "/w/.lite-agent/PERMI\u1e9eIONS.JSON", "/w/.git/con\ufb01g",
		"/w/.git/con\ufb01g", "/w/.lite-agent/\u017fkill\u017f/x", "/w/.git/hoo\u212as",
	} {
		if !Hits(target, protected, false) {
			t.Errorf("Hits(%s) = false", target)
		}
		if !PatternHits(target, protected, false) {
			t.Errorf("PatternHits(%s) = false", target)
		}
	}
	for _, target := range []string{"/w/.git/con\ufb01?", "/w/.lite-agent/permi\u00df*"} {
		if !PatternHits(target, protected, false) {
			t.Errorf("PatternHits(%s) = false", target)
		}
	}
	if FoldName("Stra\u00dfe-\ufb06") != "strasse-st" {
		t.Errorf("FoldName = %q", FoldName("Stra\u00dfe-\ufb06"))
	}
}

// An HFS+ volume (an external disk, an older Mac) ignores some invisible
// code points when it compares names (Apple's TN1150; git refuses
// ".g\u200cit" for that reason): .git/hoo\u200cks is .git/hooks there.
func TestHitsIgnoringHFSIgnorables(t *testing.T) {
	protected := []string{"/w/.git/hooks", "/w/.lite-agent/permissions.json"}
	for _, target := range []string{
		"/w/.g\u200cit/hooks/x", "/w/.git/hoo\u200dks", "/w/.git/\u200ehooks", "/w/.git/hooks\u200f",
		"/w/.lite-agent/permissions\u202a.json", "/w/.lite\u202e-agent/permissions.json", "/w/.git\u206a/hooks",
		"/w/.git\u206f/hooks", "/w/\ufeff.git/hooks",
	} {
		if !Hits(target, protected, false) || !PatternHits(target, protected, false) {
			t.Errorf("%q does not hit", target)
		}
	}
	if Hits("/w/.git/hoo\u200bks", protected, false) {
		t.Error("U+200B, which HFS+ does not ignore, hits")
	}
}
