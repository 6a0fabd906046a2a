package permission

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestGlobMatchesLikePicomatchWithDotFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		glob string
		in   string
		want bool
	}{
		{"*", "bash", true},
		{"*", "a/b", false},
		{"Task*", "TaskCreate", true},
		{"Task*", "task", false},
		{"mcp__*", "mcp__github__create_issue", true},
		{"mcp__*", "mcp_connect", false},
		{"?ash", "bash", true},
		{"?ash", "bbash", false},
		{"{read,write}_file", "write_file", true},
		{"{read,write}_file", "edit_file", false},
		{"{a,{b,c}}x", "cx", true},
		{"[rw]*", "write_file", true},
		{"[!rw]*", "write_file", false},
		{"[^rw]*", "edit_file", true},
		{"[a-c]", "b", true},
		{"[]]", "]", true},
		{"*.env", ".env", true}, // dot files are not special
		{"secrets/**", "secrets", true},
		{"secrets/**", "secrets/a/b/c", true},
		{"secrets/**", "secretsx", false},
		{"**/id_rsa", "id_rsa", true},
		{"**/id_rsa", "home/u/.ssh/id_rsa", true},
		{"**/id_rsa", "xid_rsa", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/xb", false},
		{"**", "a/b/c", true},
		{"a**b", "a/b", false}, // ** inside a segment is *
		{"a**b", "axxb", true},
		{"\\*", "*", true},
		{"\\*", "x", false},
		{"a{b", "a{b", true}, // unbalanced braces are literal
		{"a[b", "a[b", true},
		{"x.y", "xzy", false},       // regex metacharacters are literal
		{`\(a\|b\)`, "(a|b)", true}, // escaped, a group's characters are literal
		{"[(|)]x", "|x", true},      // and in a bracket expression
		{"é?", "éa", true},
		{"[é]", "é", true},
	}
	for _, tt := range tests {
		re, err := compileGlob(tt.glob)
		if err != nil {
			t.Fatalf("compileGlob(%q): %v", tt.glob, err)
		}
		if got := re.Match(tt.in); got != tt.want {
			t.Errorf("glob %q on %q = %v, want %v", tt.glob, tt.in, got, tt.want)
		}
	}
}

// TestGlobRejectsNegationAndBadClasses also rejects the groups and extglobs
// the reference's globs have and these do not: read literally, a deny rule
// such as "**/*.@(pem|key)" would match nothing.
func TestGlobRejectsNegationAndBadClasses(t *testing.T) {
	t.Parallel()
	for _, g := range []string{"!secret", "[z-a]", strings.Repeat("a", maxPatternLen+1), strings.Repeat("{a,b}", 10),
		"**/*.@(pem|key)", "secret.(txt|md)", "*.+(a)", "x*(y)", "a|b", "a)"} {
		if _, err := compileGlob(g); err == nil {
			t.Errorf("compileGlob(%.20q) succeeded, want an error", g)
		}
	}
}

func TestToolGlobsRejectForeignSyntax(t *testing.T) {
	t.Parallel()
	for _, g := range []string{"Bash(git:*)", "bash git", "read_file:*"} {
		if err := checkToolGlob(g); err == nil {
			t.Errorf("checkToolGlob(%q) = nil, want an error", g)
		}
	}
	for _, g := range []string{"bash", "mcp__*", "{read,write}_file", "Task?"} {
		if err := checkToolGlob(g); err != nil {
			t.Errorf("checkToolGlob(%q) = %v", g, err)
		}
	}
}

// field is a value as a condition sees it; missing marks an absent field.
type field struct {
	json    string
	missing bool
}

func TestConditionsMatchAsDocumented(t *testing.T) {
	t.Parallel()
	missing := field{missing: true}
	v := func(s string) field { return field{json: s} }
	tests := []struct {
		name string
		c    Condition
		in   field
		want bool
	}{
		{"EqualsString", Equals("a"), v(`"a"`), true},
		{"EqualsOtherString", Equals("a"), v(`"b"`), false},
		{"EqualsNumberByValue", Equals(1), v(`1.0`), true},
		{"EqualsNumberExponent", Equals(1000), v(`1e3`), true},
		{"EqualsBigNumbersExactly", Equals(json.Number("9007199254740993")), v(`9007199254740992`), false},
		{"EqualsNumberNotString", Equals(1), v(`"1"`), false},
		{"EqualsObjectIgnoresKeyOrder", Equals(map[string]any{"a": 1, "b": []any{true, nil}}), v(`{"b":[true,null],"a":1}`), true},
		{"EqualsObjectExtraKey", Equals(map[string]any{"a": 1}), v(`{"a":1,"b":2}`), false},
		{"EqualsArrayOrderMatters", Equals([]int{1, 2}), v(`[2,1]`), false},
		{"EqualsNull", Equals(nil), v(`null`), true},
		{"EqualsNullIsNotMissing", Equals(nil), missing, false},
		{"EqualsBool", Equals(true), v(`true`), true},
		{"InAny", In("a", "b", 3), v(`3`), true},
		{"InNone", In("a", "b"), v(`"c"`), false},
		{"InEmpty", In(), v(`"c"`), false},
		{"RegexUnanchored", Regex("b+"), v(`"abbc"`), true},
		{"RegexAnchored", Regex("^b"), v(`"abbc"`), false},
		{"RegexOnNumber", Regex("1"), v(`1`), false},
		{"GlobAnchored", Glob("src/*.go"), v(`"src/a.go"`), true},
		{"GlobNoMatch", Glob("src/*.go"), v(`"src/a/b.go"`), false},
		{"GlobOnArray", Glob("*"), v(`["a"]`), false},
		{"StartsWith", StartsWith("ab"), v(`"abc"`), true},
		{"StartsWithNo", StartsWith("bc"), v(`"abc"`), false},
		{"StartsWithOnBool", StartsWith("t"), v(`true`), false},
		{"Contains", Contains("b"), v(`"abc"`), true},
		{"ContainsNo", Contains("x"), v(`"abc"`), false},
		{"ContainsOnObject", Contains("a"), v(`{"a":1}`), false},
		{"NotMatches", Not(Equals("a")), v(`"b"`), true},
		{"NotNoMatch", Not(Equals("a")), v(`"a"`), false},
		{"NotEqualsOtherType", Not(Equals("a")), v(`1`), true},
		{"NotStringOpTypeMismatchFailsClosed", Not(StartsWith("x")), v(`42`), false},
		{"NotGlobOnNullFailsClosed", Not(Glob("*")), v(`null`), false},
		{"NotRegexOnArrayFailsClosed", Not(Regex("x")), v(`["y"]`), false},
		{"DoubleNot", Not(Not(Contains("a"))), v(`"abc"`), true},
		{"DoubleNotTypeMismatch", Not(Not(Contains("a"))), v(`1`), false},
		{"MissingMatchesNothing", Contains(""), missing, false},
		{"MissingMatchesNoNot", Not(Equals("a")), missing, false},
		{"MissingMatchesNoIn", In(nil), missing, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := compileCondition(tt.c, nil, false, false)
			if err != nil {
				t.Fatal(err)
			}
			var val any
			if !tt.in.missing {
				val, err = decodeValue([]byte(tt.in.json))
				if err != nil {
					t.Fatal(err)
				}
			}
			if got := m.match(val, !tt.in.missing); got != tt.want {
				t.Errorf("%s on %s = %v, want %v", tt.c, tt.in.json, got, tt.want)
			}
		})
	}
}

func TestInvalidConditionsFailToCompile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    Condition
	}{
		{"Zero", Condition{}},
		{"BadRegex", Regex("(")},
		{"Lookahead", Regex("a(?=b)")},
		{"BadGlob", Glob("!x")},
		{"NotOfZero", Not(Condition{})},
		{"Unmarshalable", Equals(make(chan int))},
		{"InUnmarshalable", In(1, func() {})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := compileCondition(tt.c, nil, false, false); err == nil {
				t.Errorf("compileCondition(%s) succeeded", tt.name)
			}
		})
	}
}

func TestRegexErrorsDoNotQuoteThePattern(t *testing.T) {
	t.Parallel()
	_, err := compileCondition(Regex("(sk-supersecretvalue"), nil, false, false)
	if err == nil || strings.Contains(err.Error(), "supersecret") {
		t.Fatalf("error = %v, want one without the pattern", err)
	}
}

func TestDotPathsReachNestedFieldsAndArrayElements(t *testing.T) {
	t.Parallel()
	in, _ := decodeValue([]byte(`{"a":{"b":[{"c":"x"}]},"n":[1,2]}`))
	tests := []struct {
		path string
		want any
		ok   bool
	}{
		{"a.b.0.c", "x", true},
		{"n.1", json.Number("2"), true},
		{"n.2", nil, false},
		{"n.-1", nil, false},
		{"n.01", nil, false},
		{"a.x", nil, false},
		{"a.b.c", nil, false},
	}
	for _, tt := range tests {
		got, ok := lookup(in, strings.Split(tt.path, "."))
		if ok != tt.ok || (ok && !jsonEqual(got, tt.want)) {
			t.Errorf("lookup(%q) = %v, %v; want %v, %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
}

// TestStartsWithOnCommandsRespectsTokenBoundaries checks startsWith in an
// allow rule on a bash command, and the other cases: a deny rule and not.
func TestStartsWithOnCommandsRespectsTokenBoundaries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		prefix, cmd string
		want        bool
	}{
		{"ls", "ls", true},
		{"ls", "ls -la", true},
		{"ls", "lsof", false},
		{"git push", "git push origin main", true},
		{"git push", "git pushx", false},
		{"git  push", "git push", true}, // the prefix is squeezed like the command
		{"git ", "gitx", false},
		{"git ", "git status", true},
		{"cat /etc", "cat /etc/passwd", false},
		{"cat /etc/", "cat /etc/passwd", true},
		{"curl https://a.io", "curl https://a.io.evil.com", false},
		{"curl https://a.io", "curl https://a.io@evil.com", false},
		{"curl https://a.io/", "curl https://a.io/v1", true},
		{"", "anything", true},
	}
	for _, tt := range tests {
		allow, err := compileCondition(StartsWith(tt.prefix), nil, true, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := allow.match(tt.cmd, true); got != tt.want {
			t.Errorf("allow: startsWith %q on %q = %v, want %v", tt.prefix, tt.cmd, got, tt.want)
		}
		// In a deny rule, and under not in an allow rule, the prefix is a
		// plain string prefix, which matches more where matching more is
		// the safe side.
		plain := strings.HasPrefix(tt.cmd, squeezeSpaces(tt.prefix))
		deny, err := compileCondition(StartsWith(tt.prefix), nil, true, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := deny.match(tt.cmd, true); got != plain {
			t.Errorf("deny: startsWith %q on %q = %v, want %v", tt.prefix, tt.cmd, got, plain)
		}
		notAllow, err := compileCondition(Not(StartsWith(tt.prefix)), nil, true, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := notAllow.match(tt.cmd, true); got != !plain {
			t.Errorf("allow: not startsWith %q on %q = %v, want %v", tt.prefix, tt.cmd, got, !plain)
		}
		notDeny, err := compileCondition(Not(StartsWith(tt.prefix)), nil, true, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := notDeny.match(tt.cmd, true); got != !tt.want {
			t.Errorf("deny: not startsWith %q on %q = %v, want %v", tt.prefix, tt.cmd, got, !tt.want)
		}
	}
}

func TestConditionJSONRoundTrips(t *testing.T) {
	t.Parallel()
	for _, c := range []Condition{Equals(map[string]any{"a": []any{1, "x"}}), In(1, "a", nil), Regex("^a"), Glob("**/x"), StartsWith("s"), Contains("c"), Not(Not(Glob("y")))} {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		rules, err := DecodeRules([]byte(`{"version":1,"rules":[{"when":{"k":` + string(b) + `},"effect":"deny"}]}`))
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if got := rules[0].When["k"]; !got.equal(c) {
			t.Errorf("round trip of %s gave %s", c, got)
		}
	}
}
