// Package slash runs chat's slash commands: lines such as /rewind typed
// at chat's prompt, which chat handles itself instead of sending them to
// the model.
package slash

import (
	"fmt"
	"io"
	"strings"
)

// A Command is one slash command of a table; E is what its Run works
// with (chat's agent, input and output).
type Command[E any] struct {
	Name  string // with its slash: "/rewind"
	Args  string // usage of the arguments, for the help; "" when none
	Short string // one line for the help
	// Run gets the text after the name, trimmed; quit ends chat.
	Run func(e E, args string) (quit bool, err error)
}

// IsCommand reports whether line (trimmed) is meant as a command: a slash
// and a word with no further slash, so that "/tmp/x is big?" stays a
// prompt while "/rewnd" is reported as unknown.
func IsCommand(line string) bool {
	if !strings.HasPrefix(line, "/") {
		return false
	}
	name, _, _ := strings.Cut(line, " ")
	return len(name) > 1 && !strings.Contains(name[1:], "/")
}

// EndsChat reports whether a line typed during a turn ends chat after it:
// an empty line or /exit.
func EndsChat(line string) bool {
	line = strings.TrimSpace(line)
	return line == "" || line == "/exit"
}

// Run runs the command of table that line names (see IsCommand). An
// unknown name is an error that points at /help.
func Run[E any](table []Command[E], e E, line string) (quit bool, err error) {
	name, args, _ := strings.Cut(strings.TrimSpace(line), " ")
	for _, c := range table {
		if c.Name == name {
			return c.Run(e, strings.TrimSpace(args))
		}
	}
	return false, fmt.Errorf("unknown command %s (/help lists the commands)", name)
}

// Help writes one line per command of table: its name and arguments, then
// its description, the descriptions aligned in one column.
func Help[E any](w io.Writer, table []Command[E]) {
	uses := make([]string, len(table))
	width := 0
	for i, c := range table {
		uses[i] = c.Name
		if c.Args != "" {
			uses[i] += " " + c.Args
		}
		width = max(width, len(uses[i]))
	}
	for i, c := range table {
		fmt.Fprintf(w, "  %-*s  %s\n", width, uses[i], c.Short)
	}
}
