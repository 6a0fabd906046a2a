package liteagent

import (
	"strings"

	"github.com/lite-agent/lite-agent-go/tool"
)

// defaultSystemPrompt builds the system prompt used when Options.System is
// empty: who the agent is and where it works, then guidance for the tools
// it actually has.
func defaultSystemPrompt(namespace, workdir, modelName string, tools []tool.Tool) string {
	has := map[string]bool{}
	for _, t := range tools {
		has[t.Name()] = true
	}
	var b strings.Builder
	b.WriteString("You are " + namespace + ", a coding agent operating in " + workdir + ".\n")
	if modelName != "" {
		b.WriteString("Your model is " + modelName + ".\n")
	}
	b.WriteString(`
# Core Principles
- Prefer using your tools to inspect and change things over guessing or asking.
- Keep work on project files inside ` + workdir + `.
- Earlier parts of this session may have been archived; read them with the context tool, by query or by ref.
`)
	b.WriteString(`
# Files
- Use read_file, write_file, edit_file and delete_file for files rather than cat, sed or shell redirection.
`)
	if has["glob"] && has["grep"] {
		b.WriteString("- Use glob, grep and list_dir to find files and search their contents; use bash to run commands, builds and tests.\n")
	} else {
		b.WriteString("- Use bash to run commands, builds and tests, and to search (grep, find).\n")
	}
	b.WriteString("- Large outputs are archived: read them by ref with the context tool, continuing from nextOffset.\n")
	if has["TaskCreate"] {
		b.WriteString(`
# Task Planning
- For work with several steps, create tasks with TaskCreate and keep their status current with TaskUpdate.
- Move a task to review before completed, and mark it completed only once its result has been checked.
- Respect blockedBy: do not start a task whose dependencies are unfinished.
`)
	}
	return b.String()
}
