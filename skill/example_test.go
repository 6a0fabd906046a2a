package skill_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/skill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Skills are found in the namespace's global and project skills
// directories; a project skill shadows a global one of the same name.
func ExampleLoad() {
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	workdir := filepath.Join(root, "repo")
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: workdir,
		Storage: storage.Options{Namespace: "acme", Home: filepath.Join(root, "home")},
	})
	if err != nil {
		panic(err)
	}
	write := func(dir, content string) {
		os.MkdirAll(dir, 0o700)
		os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(content), 0o600)
	}
	write(filepath.Join(paths.GlobalSkillsDir, "review"), "---\ndescription: Review a change.\n---\nGeneric review steps.")
	write(filepath.Join(paths.ProjectSkillsDir, "review"), "---\ndescription: Review a change the way this project does.\ntags: [go]\n---\nProject review steps.")
	write(filepath.Join(paths.ProjectSkillsDir, "release"), "---\nname: release-notes\n---\nCollect the merged pull requests.")

	skills, err := skill.Load(context.Background(), skill.LoadOptions{Paths: paths})
	if err != nil {
		panic(err)
	}
	for _, s := range skills {
		fmt.Println(s.Source, s.Name, "-", s.Body)
	}
	fmt.Print(skill.PromptSection(skills))
	// Output:
	// project review - Project review steps.
	// project release-notes - Collect the merged pull requests.
	//
	// # Skills
	// Skills hold instructions for particular kinds of work. Before starting work that one of the skills below covers, call load_skill with its name and follow the instructions it returns.
	//   - review: Review a change the way this project does. [go]
	//   - release-notes: No description
}

// load_skill returns a skill's body; an unknown name lists the known ones.
func ExampleTool() {
	loadSkill := skill.Tool([]skill.Skill{
		{Name: "release-notes", Description: "Write release notes.", Body: "1. Collect the merged pull requests."},
	})
	for _, in := range []string{`{"name":"release-notes"}`, `{"name":"deploy"}`} {
		res, err := loadSkill.Call(context.Background(), nil, json.RawMessage(in))
		if err != nil {
			panic(err)
		}
		fmt.Println(res.Content)
	}
	// Output:
	// <skill name="release-notes">
	// 1. Collect the merged pull requests.
	// </skill>
	// Error: Unknown skill 'deploy'. Available: release-notes
}
