package skill_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/skill"
)

func TestParseFrontmatter(t *testing.T) {
	const path = "/s/code-review/SKILL.md"
	cases := map[string]struct {
		content string
		want    skill.Skill
	}{
		"full": {
			"---\nname: review\ndescription: Review code.\ntags: [go, security]\n---\n\n# Steps\n1. read\n\n",
			skill.Skill{Name: "review", Description: "Review code.", Tags: []string{"go", "security"}, Body: "# Steps\n1. read"},
		},
		"no frontmatter": {
			"# Just a body\n",
			skill.Skill{Name: "code-review", Description: "No description", Body: "# Just a body"},
		},
		"name defaults to the directory": {
			"---\ndescription: d\n---\nb",
			skill.Skill{Name: "code-review", Description: "d", Body: "b"},
		},
		"null name defaults too": {
			"---\nname:\ndescription: ~\n---\nb",
			skill.Skill{Name: "code-review", Description: "No description", Body: "b"},
		},
		"empty frontmatter": {
			"---\n---\nbody",
			skill.Skill{Name: "code-review", Description: "No description", Body: "body"},
		},
		"comments only": {
			"---\n# nothing here\n---\nbody",
			skill.Skill{Name: "code-review", Description: "No description", Body: "body"},
		},
		"tags string": {
			"---\ntags: go, testing\n---\n",
			skill.Skill{Name: "code-review", Description: "No description", Tags: []string{"go, testing"}},
		},
		"tags list with blanks": {
			"---\ntags:\n  - \" go \"\n  - \"\"\n  - ~\n  - 3\n---\n",
			skill.Skill{Name: "code-review", Description: "No description", Tags: []string{"go", "3"}},
		},
		"numeric name is text": {
			"---\nname: 2024\n---\n",
			skill.Skill{Name: "2024", Description: "No description"},
		},
		"multi-line description is one line": {
			"---\ndescription: |\n  Line one.\n  Line two.\n\n  Line three.\n---\n",
			skill.Skill{Name: "code-review", Description: "Line one. Line two. Line three."},
		},
		"CRLF and BOM": {
			"\ufeff---\r\nname: win\r\ndescription: crlf\r\n---\r\nbody line\r\n",
			skill.Skill{Name: "win", Description: "crlf", Body: "body line"},
		},
		"closing delimiter with trailing space": {
			"---  \nname: sp\n---\t\nbody",
			skill.Skill{Name: "sp", Description: "No description", Body: "body"},
		},
		"unknown keys ignored": {
			"---\nname: x\nallowed-tools: [bash]\nmetadata: {a: 1}\n---\nb",
			skill.Skill{Name: "x", Description: "No description", Body: "b"},
		},
		"alias": {
			"---\nshared: &d Shared text.\nname: x\ndescription: *d\n---\n",
			skill.Skill{Name: "x", Description: "Shared text."},
		},
		"later --- stays in the body": {
			"---\nname: x\n---\nintro\n---\nmore",
			skill.Skill{Name: "x", Description: "No description", Body: "intro\n---\nmore"},
		},
		"dashes not on the first line are body": {
			"\n---\nname: x\n---\n",
			skill.Skill{Name: "code-review", Description: "No description", Body: "---\nname: x\n---"},
		},
		"name trimmed": {
			"---\nname: \"  spaced  \"\n---\n",
			skill.Skill{Name: "spaced", Description: "No description"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := skill.Parse(path, []byte(tc.content))
			if err != nil {
				t.Fatal(err)
			}
			tc.want.Path, tc.want.Dir = path, "/s/code-review"
			if got.Name != tc.want.Name || got.Description != tc.want.Description || got.Body != tc.want.Body ||
				strings.Join(got.Tags, "|") != strings.Join(tc.want.Tags, "|") || got.Path != tc.want.Path || got.Dir != tc.want.Dir {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseCutsLongDescriptions(t *testing.T) {
	s, err := skill.Parse("/s/x/SKILL.md", []byte("---\ndescription: "+strings.Repeat("é", 5000)+"\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r := []rune(s.Description); len(r) != skill.MaxDescriptionRunes || r[len(r)-1] != '…' {
		t.Fatalf("description of %d runes", len(r))
	}
}

func TestParseErrorsNameThePath(t *testing.T) {
	_, err := skill.Parse("/p/x/SKILL.md", []byte("---\nname: [\n---\n"))
	var se *skill.Error
	if !errors.As(err, &se) || se.Path != "/p/x/SKILL.md" || !strings.HasPrefix(err.Error(), "invalid skill /p/x/SKILL.md: frontmatter: ") {
		t.Fatalf("err = %v", err)
	}
}
