package skill_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/lite-agent/lite-agent-go/skill"
)

// FuzzParseSkill checks the frontmatter splitter and parser: no panics,
// errors name the path, and accepted skills satisfy the documented
// invariants the prompt relies on.
func FuzzParseSkill(f *testing.F) {
	f.Add([]byte("---\nname: x\ndescription: d\ntags: [a, b]\n---\nbody\n"))
	f.Add([]byte("---\r\nname: x\r\n---\r\n"))
	f.Add([]byte("no frontmatter"))
	f.Add([]byte("---\nname: [\n---\n"))
	const path = "/skills/dir/SKILL.md"
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := skill.Parse(path, data)
		if err != nil {
			var se *skill.Error
			if !errors.As(err, &se) || se.Path != path {
				t.Fatalf("error %T %v does not name the path", err, err)
			}
			return
		}
		if s.Name == "" || s.Name != strings.TrimSpace(s.Name) || len(s.Name) > skill.MaxNameBytes || strings.ContainsFunc(s.Name, unicode.IsControl) {
			t.Fatalf("name %q", s.Name)
		}
		if s.Description == "" || strings.ContainsFunc(s.Description, unicode.IsControl) || len([]rune(s.Description)) > skill.MaxDescriptionRunes {
			t.Fatalf("description %q", s.Description)
		}
		for _, tag := range s.Tags {
			if tag == "" || strings.ContainsFunc(tag, unicode.IsControl) {
				t.Fatalf("tag %q", tag)
			}
		}
		if s.Body != strings.TrimSpace(s.Body) || s.Path != path || s.Dir != "/skills/dir" {
			t.Fatalf("skill %+v", s)
		}
		line := skill.List([]skill.Skill{s})
		if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
			t.Fatalf("list line %q", line)
		}
	})
}
