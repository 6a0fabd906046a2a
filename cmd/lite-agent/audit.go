package main

import (
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/auditcmd"
	"github.com/spf13/cobra"
)

// newAuditCommand returns audit verify, which reads a keyed log's key
// from --key-env or --key-file.
func newAuditCommand(g *globalFlags) *cobra.Command {
	return auditcmd.Command(g.auditKey, usagef, func(msg string) error { return errFailed{msg} })
}

// auditKey returns the audit key --key-env or --key-file name, or nil.
func (g *globalFlags) auditKey() ([]byte, error) {
	src, err := g.keySource()
	if err != nil {
		return nil, err
	}
	return auditcmd.LoadKey(src.env, src.file)
}

// finishAudit closes the audit log of run or chat, after the agent, and
// makes its failure the command's error when it had none.
func finishAudit(f *auditcmd.Flags, err *error) {
	if cerr := f.Close(); *err == nil {
		*err = cerr
	}
}
