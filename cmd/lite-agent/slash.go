package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/compactcmd"
)

// slashEnv is what a chat slash command works with: the session's
// agent, the input (for a confirmation) and the output.
type slashEnv struct {
	ctx  context.Context
	a    *liteagent.Agent
	in   *lineReader
	p    *printer
	intr *interrupter
	out  io.Writer // answers and listings
	errw io.Writer // notes and errors
}

// ask shows question on errw and reads one line at chat's marker; false
// means the input ended or the user interrupted.
func (e *slashEnv) ask(question string) (string, bool) {
	fmt.Fprintln(e.errw, question)
	line, ok := readChatLine(e.ctx, e.in, e.p, e.intr)
	return strings.TrimSpace(line), ok
}

// slashCommand is one chat command typed on a line of its own, such as
// /rewind. run gets the text after the name, trimmed; quit ends chat.
type slashCommand struct {
	name  string // with its slash: "/rewind"
	args  string // usage of the arguments, for /help; "" when none
	short string // one line for /help
	run   func(e *slashEnv, args string) (quit bool, err error)
}

// slashCommands is chat's command table, in the order /help lists it.
// Add a command by adding a row (and its function in a file of its own).
func slashCommands() []slashCommand {
	return []slashCommand{
		{name: "/help", short: "list these commands", run: slashHelp},
		{name: "/compact", args: "[instructions]", short: "compact the session now (see sessions compact)", run: func(e *slashEnv, args string) (bool, error) { return false, compactcmd.Slash(e.ctx, e.a, e.out, args) }},
		{name: "/exit", short: "end chat (so does an empty line)", run: func(*slashEnv, string) (bool, error) { return true, nil }},
	}
}

// isSlashLine reports whether line (trimmed) is meant as a command: a
// slash and a word with no further slash, so that "/tmp/x is big?" stays
// a prompt while "/rewnd" is reported as unknown.
func isSlashLine(line string) bool {
	if !strings.HasPrefix(line, "/") {
		return false
	}
	name, _, _ := strings.Cut(line, " ")
	return len(name) > 1 && !strings.Contains(name[1:], "/")
}

// endsChat reports whether a line typed during a turn ends chat after
// it: an empty line or /exit.
func endsChat(line string) bool {
	line = strings.TrimSpace(line)
	return line == "" || line == "/exit"
}

// runSlash runs the command on line (see isSlashLine). An unknown name
// is an error that names /help, and nothing is sent to the model.
func runSlash(e *slashEnv, line string) (quit bool, err error) {
	name, args, _ := strings.Cut(strings.TrimSpace(line), " ")
	for _, c := range slashCommands() {
		if c.name == name {
			return c.run(e, strings.TrimSpace(args))
		}
	}
	return false, fmt.Errorf("unknown command %s (/help lists the commands)", name)
}

func slashHelp(e *slashEnv, _ string) (bool, error) {
	for _, c := range slashCommands() {
		use := c.name
		if c.args != "" {
			use += " " + c.args
		}
		fmt.Fprintf(e.errw, "  %-16s %s\n", use, c.short)
	}
	return false, nil
}
