package main

import (
	"github.com/spf13/cobra"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/compactcmd"
)

// newSessionsCompactCommand is `sessions compact ID`, with run's model flags.
func newSessionsCompactCommand(g *globalFlags) *cobra.Command {
	f := &agentFlags{sandbox: sandboxAuto}
	return compactcmd.New(compactcmd.Config{Args: oneID, Flags: f.registerModel, Done: g.closeStores,
		Open: func(cmd *cobra.Command, id string) (compactcmd.Agent, error) {
			f.resume = id
			return newAgent(cmd.Context(), g, f, nil, cmd.ErrOrStderr())
		}})
}
