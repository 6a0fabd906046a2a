package skill

import (
	"context"
	"fmt"
	"strings"

	"github.com/lite-agent/lite-agent-go/tool"
)

const (
	// ToolName is the name of the tool that loads a skill.
	ToolName = "load_skill"

	// NoSkills is the list of skills when there are none.
	NoSkills = "(no skills available)"
)

// List returns the skills as the system prompt lists them, one line each,
// "  - <name>: <description>", followed by " [<tags>]" (joined with ", ")
// when the skill has tags; or NoSkills when there are none. Lines end in
// "\n", except that NoSkills stands alone.
func List(skills []Skill) string {
	if len(skills) == 0 {
		return NoSkills
	}
	var b strings.Builder
	for _, s := range skills {
		b.WriteString("  - " + s.Name + ": " + s.Description)
		if len(s.Tags) > 0 {
			b.WriteString(" [" + strings.Join(s.Tags, ", ") + "]")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// PromptSection returns the Skills section of the default system prompt:
// a blank line, the heading "# Skills", a line telling the model to call
// load_skill before work a skill covers, and [List]. With no skills the
// section only says NoSkills, since load_skill is not offered then. The
// section ends in a newline, so sections can be concatenated.
func PromptSection(skills []Skill) string {
	if len(skills) == 0 {
		return "\n# Skills\n" + NoSkills + "\n"
	}
	return "\n# Skills\n" +
		"Skills hold instructions for particular kinds of work. Before starting work that one of the skills below covers, " +
		"call " + ToolName + " with its name and follow the instructions it returns.\n" +
		List(skills)
}

// loadInput is the input of load_skill.
type loadInput struct {
	Name string `json:"name" jsonschema:"the name of the skill, as listed in the system prompt"`
}

// Tool returns the load_skill tool for skills, or nil when there are none:
// the tool is only offered when a skill exists. Called with a name, it
// returns
//
//	<skill name="<name>">
//	<body>
//	</skill>
//
// with &, ", < and > escaped in the name. An unknown name returns the text
// "Error: Unknown skill '<name>'. Available: <names, comma-separated>" as
// an ordinary (not an error) result.
// If two skills share a name the later one is used. The tool keeps its own
// copy of skills and is safe for concurrent use.
func Tool(skills []Skill) tool.Tool {
	if len(skills) == 0 {
		return nil
	}
	byName := map[string]Skill{}
	var names []string
	for _, s := range skills {
		if _, ok := byName[s.Name]; !ok {
			names = append(names, s.Name)
		}
		byName[s.Name] = s
	}
	available := strings.Join(names, ", ")
	escape := strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")
	return tool.New(ToolName,
		"Load the full instructions of a skill listed in the system prompt's Skills section, by name.",
		func(ctx context.Context, _ *tool.Call, in loadInput) (tool.Result, error) {
			s, ok := byName[in.Name]
			if !ok {
				// Normal content: the call worked,
				// the answer is that there is no such skill.
				return tool.Text(fmt.Sprintf("Error: Unknown skill '%s'. Available: %s", in.Name, available)), nil
			}
			return tool.Text("<skill name=\"" + escape.Replace(s.Name) + "\">\n" + s.Body + "\n</skill>"), nil
		})
}
