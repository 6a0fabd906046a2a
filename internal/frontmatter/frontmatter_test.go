package frontmatter

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestSplitFindsTheBlockBetweenDelimiterLines(t *testing.T) {
	tests := []struct {
		name, in, front, body string
		err                   string
	}{
		{name: "no frontmatter is all body", in: "# Title\ntext", body: "# Title\ntext"},
		{name: "empty document", in: "", body: ""},
		{name: "block and body", in: "---\na: 1\n---\nbody\n", front: "a: 1\n", body: "body\n"},
		{name: "empty block", in: "---\n---\nbody", front: "", body: "body"},
		{name: "closing line ends the file", in: "---\na: 1\n---", front: "a: 1\n", body: ""},
		{name: "CRLF and byte order mark", in: "\ufeff---\r\na: 1\r\n---\r\nb\r\n", front: "a: 1\n", body: "b\n"},
		{name: "delimiters may end in blanks", in: "--- \t\na: 1\n---  \nb", front: "a: 1\n", body: "b"},
		{name: "a longer dash line is no delimiter", in: "----\na: 1\n", body: "----\na: 1\n"},
		{name: "unclosed block", in: "---\na: 1\n", err: "frontmatter has no closing --- line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			front, body, err := Split([]byte(tt.in))
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(front) != tt.front || string(body) != tt.body {
				t.Errorf("Split = %q, %q; want %q, %q", front, body, tt.front, tt.body)
			}
		})
	}
}

func TestFieldsVisitsATopLevelMappingStrictly(t *testing.T) {
	tests := []struct {
		name, in string
		keys     []string
		err      string
	}{
		{name: "empty", in: " \n"},
		{name: "only comments", in: "# nothing\n"},
		{name: "null document", in: "~\n"},
		{name: "keys in order", in: "b: 1\na: [x]\nc:\n", keys: []string{"b", "a", "c"}},
		{name: "duplicate key", in: "a: 1\na: 2\n", err: `line 2: duplicate key "a"`},
		{name: "non-scalar key", in: "? [a]\n: 1\n", err: "line 1: keys must be scalars"},
		{name: "not a mapping", in: "- a\n", err: "must be a mapping of keys to values"},
		{name: "syntax error loses the yaml prefix", in: "a: [\n", err: "line 1: did not find expected node content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			n, err := Fields([]byte(tt.in), func(key string, _ *yaml.Node) error {
				got = append(got, key)
				return nil
			})
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.keys) || n != len(tt.keys) {
				t.Errorf("keys = %q (%d), want %q", got, n, tt.keys)
			}
		})
	}
}

func TestFieldsResolvesAliasesAndStopsOnTheCallbacksError(t *testing.T) {
	var name string
	_, err := Fields([]byte("base: &b hello\nname: *b\n"), func(key string, v *yaml.Node) error {
		if key == "name" {
			s, ok, err := Scalar(v)
			if err != nil || !ok {
				t.Fatalf("Scalar = %q, %v, %v", s, ok, err)
			}
			name = s
		}
		return nil
	})
	if err != nil || name != "hello" {
		t.Fatalf("name = %q, err = %v; want hello", name, err)
	}
	stop := errors.New("stop")
	calls := 0
	n, err := Fields([]byte("a: 1\nb: 2\n"), func(string, *yaml.Node) error { calls++; return stop })
	if err != stop || calls != 1 || n != 1 {
		t.Fatalf("err = %v after %d calls, %d keys; want stop after 1", err, calls, n)
	}
}

func TestScalarRefusesCollectionsAndReportsNull(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("[a, ~, [b]]"), &doc); err != nil {
		t.Fatal(err)
	}
	items := doc.Content[0].Content
	if s, ok, err := Scalar(items[0]); s != "a" || !ok || err != nil {
		t.Errorf("Scalar(a) = %q, %v, %v", s, ok, err)
	}
	if s, ok, err := Scalar(items[1]); s != "" || ok || err != nil {
		t.Errorf("Scalar(~) = %q, %v, %v", s, ok, err)
	}
	if _, _, err := Scalar(items[2]); err == nil || err.Error() != "must be a string" {
		t.Errorf("Scalar([b]) err = %v", err)
	}
}

func TestValidNameRefusesEmptyLongAndControlNames(t *testing.T) {
	tests := []struct{ name, in, err string }{
		{"plain name", "review", ""},
		{"exactly the limit", strings.Repeat("x", 8), ""},
		{"empty", "", "the name is empty"},
		{"too long", strings.Repeat("x", 9), "the name is longer than 8 bytes"},
		{"control character", "a\tb", "the name contains a control character or line break"},
		{"line separator", "a\u2028b", "the name contains a control character or line break"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := ValidName(tt.in, 8); err != nil {
				got = err.Error()
			}
			if got != tt.err {
				t.Errorf("ValidName(%q) = %q, want %q", tt.in, got, tt.err)
			}
		})
	}
}

func TestOneLineCollapsesWhiteSpaceAndDropsControls(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  plain  ", "plain"},
		{"a\n\n b\t\tc", "a b c"},
		{"a\u2028b\u2029c", "a b c"},
		{"a\x00b\x7fc", "abc"},
		{"\x00 a", "a"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := OneLine(tt.in); got != tt.want {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add([]byte("---\na: 1\n---\nbody"))
	f.Add([]byte("\ufeff---\r\n---\r\n"))
	f.Add([]byte("no frontmatter"))
	f.Fuzz(func(t *testing.T, data []byte) {
		front, body, err := Split(data)
		if err != nil {
			return
		}
		if len(front)+len(body) > len(data) {
			t.Fatalf("front %d + body %d bytes from %d", len(front), len(body), len(data))
		}
	})
}
