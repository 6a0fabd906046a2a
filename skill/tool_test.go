package skill_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/skill"
)

func TestLoadSkillReturnsTheBody(t *testing.T) {
	skills := []skill.Skill{
		{Name: "deploy", Description: "d", Body: "# Deploy\n1. build\n2. ship"},
		{Name: `a"<b>&c`, Description: "d", Body: "odd name"},
	}
	lt := skill.Tool(skills)
	if lt == nil || lt.Name() != "load_skill" {
		t.Fatalf("tool = %v", lt)
	}
	var schema struct {
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(lt.Schema(), &schema); err != nil || len(schema.Required) != 1 || schema.Required[0] != "name" || len(schema.Properties) != 1 {
		t.Fatalf("schema = %s", lt.Schema())
	}
	cases := []struct {
		input   string
		content string
		isError bool
	}{
		{`{"name":"deploy"}`, "<skill name=\"deploy\">\n# Deploy\n1. build\n2. ship\n</skill>", false},
		{`{"name":"a\"<b>&c"}`, "<skill name=\"a&quot;&lt;b&gt;&amp;c\">\nodd name\n</skill>", false},
		// An unknown name is an ordinary result, as in the reference.
		{`{"name":"nope"}`, `Error: Unknown skill 'nope'. Available: deploy, a"<b>&c`, false},
		{`{"name":"Deploy"}`, `Error: Unknown skill 'Deploy'. Available: deploy, a"<b>&c`, false},
		{`{}`, "", true},
	}
	for _, tc := range cases {
		res, err := lt.Call(t.Context(), nil, json.RawMessage(tc.input))
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError != tc.isError || (tc.content != "" && res.Content != tc.content) {
			t.Errorf("%s: got %+v, want %q (error %v)", tc.input, res, tc.content, tc.isError)
		}
	}
}

func TestLoadSkillUsesTheLastOfSameNamedSkills(t *testing.T) {
	lt := skill.Tool([]skill.Skill{{Name: "x", Body: "old"}, {Name: "y", Body: "y"}, {Name: "x", Body: "new"}})
	res, _ := lt.Call(t.Context(), nil, json.RawMessage(`{"name":"x"}`))
	if !strings.Contains(res.Content, "\nnew\n") {
		t.Fatalf("content = %q", res.Content)
	}
	res, _ = lt.Call(t.Context(), nil, json.RawMessage(`{"name":"z"}`))
	if !strings.HasSuffix(res.Content, "Available: x, y") {
		t.Fatalf("content = %q", res.Content)
	}
}

func TestLoadSkillKeepsItsOwnCopy(t *testing.T) {
	skills := []skill.Skill{{Name: "x", Body: "original"}}
	lt := skill.Tool(skills)
	skills[0].Body = "changed"
	res, _ := lt.Call(t.Context(), nil, json.RawMessage(`{"name":"x"}`))
	if !strings.Contains(res.Content, "original") {
		t.Fatalf("content = %q", res.Content)
	}
}

func TestLoadSkillIsSafeForConcurrentUse(t *testing.T) {
	lt := skill.Tool([]skill.Skill{{Name: "x", Body: "b"}})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if res, err := lt.Call(t.Context(), nil, json.RawMessage(`{"name":"x"}`)); err != nil || res.IsError {
					t.Error(res, err)
					return
				}
			}
		})
	}
	wg.Wait()
}
