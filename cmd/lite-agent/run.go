package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"unicode"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/auditcmd"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit codes of lite-agent.
const (
	exitOK      = 0 // the command succeeded
	exitFailure = 1 // an operation or a check failed
	exitUsage   = 2 // the command line is wrong
)

// run executes the command line args (without the program name) with empty
// standard input and returns the exit code; see runWithInput.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWithInput(ctx, args, strings.NewReader(""), stdout, stderr)
}

// runWithInput executes the command line args (without the program name)
// and returns the exit code. Input (for chat) is read from stdin, output
// goes to stdout, errors to stderr as one line each; nothing else is
// written to.
func runWithInput(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runInterruptible(ctx, args, stdin, stdout, stderr, nil, nil)
}

// runInterruptible is runWithInput with interrupts: the signals of sigs
// (SIGINT, SIGTERM) go to the command through an interrupter, and exit
// ends the process when a second interrupt comes during shutdown (nil:
// never). A command an interrupt stopped exits 130.
func runInterruptible(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, sigs <-chan os.Signal, exit func(int)) int {
	if args == nil {
		// cobra reads os.Args when it is given nil.
		args = []string{}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	intr := newInterrupter(cancel, exit)
	if sigs != nil {
		defer intr.watch(sigs)()
	}
	root := newRoot(intr)
	flagErr := root.FlagErrorFunc()
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if hint := flagOfCommands(c, args, err); hint != nil {
			return hint
		}
		return flagErr(c, err)
	})
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)

	err := root.ExecuteContext(ctx)
	if intr.Interrupted() {
		fmt.Fprintf(stderr, "lite-agent: %s\n", errInterrupted)
		return exitInterrupted
	}
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "lite-agent: %s\n", termtext.Line(describe(err)))
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailure
}

// newRoot returns the command tree whose commands take interrupts from
// intr.
func newRoot(intr *interrupter) *cobra.Command {
	g := &globalFlags{codec: codecNone, intr: intr}
	root := &cobra.Command{
		Use:   "lite-agent <command>",
		Short: "Run lite-agent agents and operate on their data home",
		Long: "lite-agent runs an agent on a project (run, chat) and inspects, cleans, verifies\n" +
			"and migrates what agents leave behind: a namespaced data home holding sessions,\n" +
			"task lists, context archives and spilled output, optionally encoded by a codec.",
		Args: rootArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("missing command; run 'lite-agent --help' for usage")
		},
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if g.managed.set && strings.TrimSpace(g.managed.value) == "" {
				return usagef("--managed-permissions must not be empty")
			}
			g.noteIgnoredEnv(cmd.ErrOrStderr())
			if g.home.set {
				noteTilde(cmd.ErrOrStderr(), "--home", g.home.value)
			}
			return nil
		},
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.Version = buildVersion()
	root.SetVersionTemplate("lite-agent {{.Version}}\n")
	root.CompletionOptions.DisableDefaultCmd = true
	root.SuggestionsMinimumDistance = 2
	root.SetHelpCommand(newHelpCommand())
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &usageError{err: flagError(err)}
	})
	g.register(root)
	root.AddCommand(newPathsCommand(g), newSessionsCommand(g), newTasksCommand(g), newCleanupCommand(g), newVerifyCommand(g), newRunCommand(g), newChatCommand(g), newPermissionsCommand(g), newMigrateCommand(g), newMCPCommand(g), auditcmd.Command(usagef))
	return root
}

// buildVersion returns the version of lite-agent from the build
// information: the module version ("(devel)" for a build from a checkout),
// the VCS revision when it was recorded, and the Go version.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := cmpOr(bi.Main.Version, "(devel)")
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " " + rev + dirty
	}
	return v + " " + bi.GoVersion
}

// rootArgs rejects an unknown command with one line, where cobra's own
// message would add a multi-line suggestion.
func rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q", args[0])
	if args[0] == "version" {
		// Many tools have a version command; this one has the flag.
		msg += ` (did you mean "--version"?)`
	} else if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %q?)", s[0])
	}
	return usagef("%s; run 'lite-agent --help' for usage", msg)
}

// newHelpCommand returns the help command. Unlike cobra's own, it reports an
// unknown topic as a usage error rather than printing the root help.
func newHelpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest, err := cmd.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return usagef("unknown help topic %q; run 'lite-agent --help' for usage", strings.Join(args, " "))
			}
			return target.Help()
		},
	}
}

// flagOfCommands returns the usage error for err, an unknown long flag
// given to c, when c has commands and one of them has the flag: the flag
// was given before its command ("lite-agent --json paths"), and the error
// names a command that takes it, the one args name if it does. It returns
// nil otherwise.
func flagOfCommands(c *cobra.Command, args []string, err error) error {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) || !strings.HasPrefix(err.Error(), "unknown flag: --") || !c.HasAvailableSubCommands() {
		return nil
	}
	name := ne.GetSpecifiedName()
	named := c.Root()
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		next := named
		for _, sub := range named.Commands() {
			if sub.Name() == a || sub.HasAlias(a) {
				next = sub
			}
		}
		if next == named {
			break
		}
		named = next
	}
	if named != c && named.LocalNonPersistentFlags().Lookup(name) != nil {
		return usagef("%s; it is a flag of commands, given after the command, such as \"%s --%s\"", err, named.CommandPath(), name)
	}
	var find func(*cobra.Command) *cobra.Command
	find = func(c *cobra.Command) *cobra.Command {
		for _, sub := range c.Commands() {
			if !sub.IsAvailableCommand() {
				continue
			}
			if sub.LocalNonPersistentFlags().Lookup(name) != nil {
				return sub
			}
			if found := find(sub); found != nil {
				return found
			}
		}
		return nil
	}
	sub := find(named)
	if sub == nil {
		sub = find(c)
	}
	if sub == nil {
		return nil
	}
	return usagef("%s; it is a flag of commands, given after the command, such as \"%s --%s\"", err, sub.CommandPath(), name)
}

// noArgs is cobra.NoArgs reporting a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q", cmd.Name(), args[0])
	}
	return nil
}

// group makes cmd a command group: run without a command, or with one it
// does not have, it fails with a usage error naming its commands.
func group(cmd *cobra.Command) *cobra.Command {
	want := func() string {
		var names []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		if len(names) < 2 {
			return strings.Join(names, "")
		}
		return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	cmd.Args = func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("unknown %s command %q: want %s", cmd.Name(), args[0], want())
		}
		return nil
	}
	cmd.RunE = func(*cobra.Command, []string) error {
		return usagef("missing %s command: want %s", cmd.Name(), want())
	}
	return cmd
}

// A usageError reports a wrong command line: an unknown command or flag, a
// bad flag value or a forbidden combination of flags. run exits 2 on it.
type usageError struct {
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a *usageError with a formatted message.
func usagef(format string, a ...any) error {
	return &usageError{err: fmt.Errorf(format, a...)}
}

// invalidID is the usage error for an id that storage.ValidateID rejected
// (err): what carried it (a flag, or "session id") and the id, then the rule
// the id breaks, once.
func invalidID(what, id string, err error) error {
	return &usageError{err: &idError{what: what, id: id, err: err}}
}

// idError reports a rejected id in one sentence. It wraps the
// *storage.Error, whose own text would name the id a second time.
type idError struct {
	what, id string
	err      error
}

func (e *idError) Error() string {
	rule := e.err.Error()
	var se *storage.Error
	if errors.As(e.err, &se) {
		rule = se.Message
	}
	return fmt.Sprintf("invalid %s %q: %s", e.what, e.id, rule)
}

func (e *idError) Unwrap() error { return e.err }

// oneLine renders msg on a single line by escaping control characters, such
// as a newline inside a flag name, as Go string escapes. It shapes the
// "error" fields of run's JSON output, whose values stay as they were;
// what goes to a terminal uses termtext.Line, which escapes bidi and format
// characters too.
func oneLine(msg string) string {
	var b strings.Builder
	for _, r := range msg {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
