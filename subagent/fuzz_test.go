package subagent_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/lite-agent/lite-agent-go/subagent"
)

// FuzzParseDefinition checks the frontmatter splitter and parser: no
// panics, errors name the path, and accepted definitions satisfy the
// invariants the prompt and the Agent tool rely on.
func FuzzParseDefinition(f *testing.F) {
	f.Add([]byte("---\nname: x\ndescription: d\ntools: [a, b]\nmodel: m\n---\nbody\n"))
	f.Add([]byte("---\r\ntools: 'a, ,b'\r\n---\r\n"))
	f.Add([]byte("no frontmatter"))
	f.Add([]byte("---\nname: [\n---\n"))
	const path = "/agents/dir/reviewer.md"
	f.Fuzz(func(t *testing.T, data []byte) {
		d, ok, err := subagent.Parse(path, data)
		if err != nil {
			var de *subagent.Error
			if !errors.As(err, &de) || de.Path != path || ok {
				t.Fatalf("error %T %v does not name the path (ok %v)", err, err, ok)
			}
			return
		}
		if !ok {
			if d.Name != "" {
				t.Fatalf("skipped file gave %+v", d)
			}
			return
		}
		if d.Name == "" || d.Name != strings.TrimSpace(d.Name) || len(d.Name) > subagent.MaxNameBytes || strings.ContainsFunc(d.Name, unicode.IsControl) {
			t.Fatalf("name %q", d.Name)
		}
		if d.Description == "" || strings.ContainsFunc(d.Description, unicode.IsControl) || len([]rune(d.Description)) > subagent.MaxDescriptionRunes {
			t.Fatalf("description %q", d.Description)
		}
		if d.Tools != nil && len(d.Tools) == 0 {
			t.Fatal("empty non-nil tools")
		}
		for _, tl := range d.Tools {
			if tl == "" || tl != strings.TrimSpace(tl) || strings.ContainsFunc(tl, unicode.IsControl) {
				t.Fatalf("tool %q", tl)
			}
		}
		if d.Model != strings.TrimSpace(d.Model) || strings.ContainsFunc(d.Model, unicode.IsControl) {
			t.Fatalf("model %q", d.Model)
		}
		if d.Prompt != strings.TrimSpace(d.Prompt) || d.Path != path {
			t.Fatalf("definition %+v", d)
		}
		line := subagent.Describe([]subagent.Definition{d})
		if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
			t.Fatalf("list line %q", line)
		}
	})
}
