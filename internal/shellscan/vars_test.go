package shellscan

import (
	"reflect"
	"testing"
)

// The analysis records the variables a line binds with their known
// values, the read words only known at run time, and a working directory
// it cannot follow (secret66).
func TestAnalyzeVarsAndDynamicReads(t *testing.T) {
	opts := Options{Home: "/home/u", Workdir: "/w"}
	for _, tc := range []struct {
		line    string
		vars    map[string][]string
		dynamic []string
		dirs    bool
	}{
		{`for f in ~/.pgpass x; do cat $f; done`, map[string][]string{"f": {"/home/u/.pgpass", "x"}}, []string{"$f"}, false},
		{`for f in {a,~/b}; do cat $f; done`, map[string][]string{"f": {"a", "/home/u/b"}}, []string{"$f"}, false},
		{`h=~; cat $h/.pgpass`, map[string][]string{"h": {"/home/u"}}, []string{"$h/.pgpass"}, false},
		{`f=$(ls -d ~); x=; cat "$f"`, map[string][]string{"f": {"$(ls -d ~)"}, "x": {""}}, []string{"$f"}, false},
		{`a=(~/.netrc y); cat $a`, map[string][]string{"a": {"/home/u/.netrc", "y"}}, []string{"$a"}, false},
		{`h+=x; cat $h`, nil, []string{"$h"}, false},
		{`cat "$OLDPWD/.pgpass" README`, nil, []string{"$OLDPWD/.pgpass"}, false},
		// A bare $name followed by text of another part is written
		// ${name}: "$PS4"sub is PS4 then sub (round 103).
		{`cat x$PS4"sub/s/id" "$a"b $c/d "$e"`, nil, []string{"x${PS4}sub/s/id", "${a}b", "$c/d", "$e"}, false},
		{`cd -; cat .pgpass`, nil, nil, true},
		{`cd src; cat x`, nil, nil, false},
	} {
		a := Analyze(tc.line, opts)
		if len(tc.vars) > 0 || len(a.Vars) > 0 {
			if !reflect.DeepEqual(a.Vars, tc.vars) {
				t.Errorf("%q: vars %q, want %q", tc.line, a.Vars, tc.vars)
			}
		}
		if !reflect.DeepEqual(a.DynamicReads, tc.dynamic) {
			t.Errorf("%q: dynamic reads %q, want %q", tc.line, a.DynamicReads, tc.dynamic)
		}
		if a.DirsUnknown != tc.dirs {
			t.Errorf("%q: dirs unknown %v, want %v", tc.line, a.DirsUnknown, tc.dirs)
		}
	}
}
