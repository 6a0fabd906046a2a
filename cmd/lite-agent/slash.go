package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/compactcmd"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/rewindcmd"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/slash"
)

// slashEnv is what a chat slash command works with: the session's agent,
// the input (for a confirmation) and the output.
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

// slashCommands is chat's command table, in the order /help lists it. Add
// a command with a row; put a long Run in a package of its own.
func slashCommands() []slash.Command[*slashEnv] {
	return []slash.Command[*slashEnv]{
		{Name: "/help", Short: "list these commands", Run: func(e *slashEnv, _ string) (bool, error) { slash.Help(e.errw, slashCommands()); return false, nil }},
		{Name: "/compact", Args: "[instructions]", Short: "compact the session now (see sessions compact)", Run: func(e *slashEnv, args string) (bool, error) {
			return false, compactcmd.Slash(e.ctx, e.a, e.out, args)
		}},
		{Name: "/exit", Short: "end chat (so does an empty line)", Run: func(*slashEnv, string) (bool, error) { return true, nil }},
		{Name: "/rewind", Args: "[N]", Short: "go back to before a prompt: files and conversation", Run: func(e *slashEnv, args string) (bool, error) {
			return false, rewindcmd.Chat(e.ctx, e.a, e.a.SessionID(), args, e.ask, e.errw)
		}},
	}
}
