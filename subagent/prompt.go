package subagent

import "strings"

// NoSubagents is the list of subagents when there are none.
const NoSubagents = "(no subagents available)"

// Describe returns the definitions as the system prompt lists them, one
// line each, "  - <name>: <description>", or NoSubagents when there are
// none. Lines end in "\n", except that NoSubagents stands alone. When two
// definitions share a name only the later one is listed, in the earlier
// one's place.
func Describe(defs []Definition) string {
	defs = dedupe(defs)
	if len(defs) == 0 {
		return NoSubagents
	}
	var b strings.Builder
	for _, d := range defs {
		b.WriteString("  - " + d.Name + ": " + d.Description + "\n")
	}
	return b.String()
}

// PromptOptions configures [PromptSection].
type PromptOptions struct {
	// ModelCatalog is the line that tells the model which model tiers it
	// may pass, such as "Choose model from these configured profiles: …".
	// "" gives "Omit model to inherit the current model."
	ModelCatalog string
}

// PromptSection returns the Subagents section of the default system
// prompt, to be included only when the Agent tool is offered: a blank
// line, the heading "# Subagents", guidance on delegating, the explanation
// that groups run detached and report together, the list of [Describe] and
// the model line. It ends in a newline, so sections can be concatenated.
func PromptSection(defs []Definition, opts PromptOptions) string {
	model := opts.ModelCatalog
	if model == "" {
		model = "Omit model to inherit the current model."
	}
	list := Describe(defs)
	if !strings.HasSuffix(list, "\n") {
		list += "\n"
	}
	return "\n# Subagents\n" +
		"Use the " + ToolName + " tool to delegate large, separable or context-heavy work to a subagent, keeping your own context small. " +
		"Give each subagent a self-contained prompt: it sees nothing of this conversation. " +
		"To run subtasks in parallel, pass them as several entries of tasks in one call.\n" +
		"A call is accepted at once and the group runs detached; the results of the whole group arrive together later as one message in this session. " +
		"Never call " + ToolName + " again just to wait for them: continue with other work or end your turn.\n" +
		"Available subagents:\n" + list +
		model + "\n"
}

// SystemPrompt returns the system prompt of a subagent named name working
// in workdir: the fixed preamble
//
//	You are the "<name>" subagent operating in <workdir>. Return your final answer as your last message.
//
// then, when body is not empty, a blank line and body.
func SystemPrompt(name, workdir, body string) string {
	s := "You are the \"" + name + "\" subagent operating in " + workdir + ". Return your final answer as your last message."
	if body != "" {
		s += "\n\n" + body
	}
	return s
}

// dedupe keeps the last definition of each name, in the first one's place.
func dedupe(defs []Definition) []Definition {
	index := make(map[string]int, len(defs))
	out := make([]Definition, 0, len(defs))
	for _, d := range defs {
		if i, ok := index[d.Name]; ok {
			out[i] = d
			continue
		}
		index[d.Name] = len(out)
		out = append(out, d)
	}
	return out
}
