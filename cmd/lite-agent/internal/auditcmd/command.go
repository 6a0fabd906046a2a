package auditcmd

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/audit"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/spf13/cobra"
)

// Command returns the audit command with its subcommand verify, which
// reads a keyed log's key from the global --key-env or --key-file (the
// flags of the codec key). usage makes the command's usage errors. A chain
// found broken is a *BrokenError, after the report.
func Command(usage func(format string, a ...any) error) *cobra.Command {
	var asJSON bool
	verify := &cobra.Command{
		Use:   "verify FILE...",
		Short: "Check the hash chain of an audit log; name the first broken record (exit 1 if any)",
		Long: "audit verify checks an audit log written with --audit-log: every record's hash, and that\n" +
			"each follows the one before it, across rotated files. One FILE stands for its rotated\n" +
			"files too (FILE.N … FILE.1, FILE); several are taken as given, oldest first. A keyed log\n" +
			"needs its key: --key-env VAR or --key-file F (at least 16 bytes, hex or base64).",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usage("audit verify takes the log's files")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			env, envSet := flagValue(cmd, "key-env")
			file, fileSet := flagValue(cmd, "key-file")
			switch {
			case envSet && fileSet:
				return usage("--key-env and --key-file are mutually exclusive")
			case envSet && env == "" || fileSet && file == "":
				return usage("--key-env and --key-file must not be empty")
			}
			key, err := LoadKey(env, file)
			if err != nil {
				return err
			}
			return Verify(cmd.Context(), cmd.OutOrStdout(), args, key, asJSON)
		},
	}
	verify.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Check audit logs (see run --audit-log)",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usage("unknown audit command %q: want verify", args[0])
			}
			return usage("audit needs a command: verify")
		},
	}
	cmd.AddCommand(verify)
	return cmd
}

// flagValue returns the value of cmd's flag name (an inherited one too)
// and whether it was given.
func flagValue(cmd *cobra.Command, name string) (string, bool) {
	f := cmd.Flag(name)
	if f == nil || !f.Changed {
		return "", false
	}
	return f.Value.String(), true
}

// Flags are the audit log flags of run and chat: --audit-log and its key.
// The zero value is ready for Register.
type Flags struct {
	file, keyEnv, keyFile string
	log                   *audit.Log // opened by Prepare
	unsubscribe           func()     // set by Attach
}

// Register adds the flags to cmd and wraps its RunE: before it, the
// flags are checked, the key loaded and the log opened ([Flags.Prepare];
// usage makes the usage errors); after it, that is after the agent it
// made was closed, the log is closed, and an append's failure becomes the
// command's error if it had none.
func (f *Flags) Register(cmd *cobra.Command, usage func(format string, a ...any) error) {
	fs := cmd.Flags()
	fs.StringVar(&f.file, "audit-log", "", "append every event to the hash-chained audit log `FILE` (see audit verify)")
	fs.StringVar(&f.keyEnv, "audit-key-env", "", "HMAC the audit log with the key in environment variable `VAR`")
	fs.StringVar(&f.keyFile, "audit-key-file", "", "HMAC the audit log with the key in file `F`")
	run := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if cmd.Flags().Changed("audit-log") && strings.TrimSpace(f.file) == "" {
			// Most likely an unset variable ("--audit-log $LOG"):
			// running without the log asked for would hide it.
			return usage("--audit-log must not be empty: give the audit log's FILE, or leave the flag out")
		}
		if err := f.Prepare(usage); err != nil {
			return err
		}
		err := run(cmd, args)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
}

// KeyEnv returns the environment variable --audit-key-env names, which
// holds the audit log's key, or "": the permission gate is told of it, so
// that a bash line printing it asks.
func (f *Flags) KeyEnv() string { return f.keyEnv }

// Prepare checks the flags, loads the key and opens the log, before the
// agent exists; usage makes the usage errors. Close closes the log.
// Register's RunE calls it.
func (f *Flags) Prepare(usage func(format string, a ...any) error) error {
	switch {
	case f.file == "" && (f.keyEnv != "" || f.keyFile != ""):
		return usage("--audit-key-env and --audit-key-file need --audit-log")
	case f.keyEnv != "" && f.keyFile != "":
		return usage("--audit-key-env and --audit-key-file are mutually exclusive")
	case f.file == "":
		return nil
	}
	key, err := LoadKey(f.keyEnv, f.keyFile)
	if err != nil {
		return err
	}
	f.log, err = audit.NewLog(f.file, audit.Options{Key: key})
	return err
}

// Attach appends every event of a's runs, its subagents' included, to the
// log Prepare opened, if any (see [liteagent.Agent.SubscribeAll]). The
// first failing append is reported on errw at once; [Flags.Close] returns
// it. If Attach fails, it closes a.
func (f *Flags) Attach(a *liteagent.Agent, errw io.Writer) error {
	if f.log == nil {
		return nil
	}
	l := f.log
	var once sync.Once
	unsubscribe, err := a.SubscribeAll(func(n liteagent.Notice) {
		// The run's own context may be done (an aborted turn's last
		// events): the record is written all the same.
		if err := l.Append(context.Background(), n.Event); err != nil {
			once.Do(func() { fmt.Fprintf(errw, "lite-agent: %s\n", termtext.Line(err.Error())) })
		}
	})
	if err != nil {
		a.Close()
		return err
	}
	f.unsubscribe = unsubscribe
	return nil
}

// Close stops appending and closes the log, returning the first error an
// append met (which names the log). Call it after closing the agent, so
// that the events of the runs its Close ends are recorded. Without a log
// it does nothing.
func (f *Flags) Close() error {
	if f.unsubscribe != nil {
		f.unsubscribe()
		f.unsubscribe = nil
	}
	if f.log == nil {
		return nil
	}
	l := f.log
	f.log = nil
	return l.Close()
}
