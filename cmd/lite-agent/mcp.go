package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/spf13/cobra"
)

// newMCPCommand returns the mcp command group.
func newMCPCommand(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp <command>",
		Short: "Inspect the MCP servers of the project",
	}
	cmd.AddCommand(newMCPListCommand(g))
	return group(cmd)
}

// newMCPListCommand returns mcp list, which shows the configured MCP
// servers and, with --connect, their tools.
func newMCPListCommand(g *globalFlags) *cobra.Command {
	var asJSON, connect bool
	cmd := &cobra.Command{
		Use:   "list [server...]",
		Short: "List the configured MCP servers, where each is configured and, with --connect, its tools",
		Long: "mcp list reads <home>/" + mcphost.ConfigFile + " and <workdir>/.<namespace>/" + mcphost.ConfigFile + "\n" +
			"and lists every configured server (or only the named ones) with its source\n" +
			"file, transport, command or URL, and the names (never the values) of its env\n" +
			"variables and headers. It starts and contacts nothing.\n\n" +
			"--connect starts each listed stdio server's command and contacts each http\n" +
			"server, to list its tools, through the permission policy of a run given\n" +
			"--allow mcp_connect: the servers of <home>/" + mcphost.ConfigFile + " connect, those a project\n" +
			"directory configures are asked about on a terminal (and denied otherwise),\n" +
			"and a deny rule on mcp_connect in a permissions.json wins. List first without\n" +
			"it to see what would run.",
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := g.project()
			if err != nil {
				return err
			}
			cfg, err := mcphost.LoadConfigContext(cmd.Context(), mcphost.LoadOptions{Paths: p.paths})
			if err != nil {
				return err
			}
			warnSkippedMCP(cmd.ErrOrStderr(), cfg)
			if cfg, err = selectServers(cfg, args); err != nil {
				return err
			}
			opts := mcphost.Options{Dir: p.paths.Workdir()}
			if connect {
				// The policy of a run with --allow mcp_connect: the
				// user's own servers connect, a project's are asked
				// about on a terminal (denied otherwise), and a deny
				// rule in a permissions.json wins.
				approve := terminalApprover(newLineReader(cmd.InOrStdin()), cmd.ErrOrStderr())
				if opts.Connect, err = mcpConnectPolicy(p, approve); err != nil {
					return err
				}
			}
			host, err := mcphost.New(cfg, opts)
			if err != nil {
				return err
			}
			defer host.Close()
			var connectErr error
			if connect {
				_, connectErr = host.Tools(cmd.Context())
				if err := cmd.Context().Err(); err != nil {
					return err
				}
			}
			infos := host.List()
			if infos == nil {
				infos = []mcphost.ServerInfo{}
			}
			if asJSON {
				err = writeJSON(cmd.OutOrStdout(), infos)
			} else {
				err = writeMCPText(cmd.OutOrStdout(), infos, connect)
			}
			if err != nil {
				return err
			}
			if connectErr != nil {
				var failed []string
				for _, in := range infos {
					if in.Status == mcphost.StatusError {
						failed = append(failed, in.Name)
					}
				}
				return errFailed{fmt.Sprintf("mcp list: could not connect to %s", strings.Join(failed, ", "))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the servers as a JSON array")
	cmd.Flags().BoolVar(&connect, "connect", false, "start or contact every listed server to list its tools (runs their commands)")
	return cmd
}

// selectServers keeps the servers of cfg named in names, or all of them
// when names is empty. An unknown name is an error.
func selectServers(cfg mcphost.Config, names []string) (mcphost.Config, error) {
	if len(names) == 0 {
		return cfg, nil
	}
	var out mcphost.Config
	for _, name := range names {
		i := slices.IndexFunc(cfg.Servers, func(s mcphost.Server) bool { return s.Name == name })
		if i < 0 {
			return mcphost.Config{}, fmt.Errorf("%w %q is configured in neither %s file", mcphost.ErrUnknownServer, name, mcphost.ConfigFile)
		}
		if !slices.ContainsFunc(out.Servers, func(s mcphost.Server) bool { return s.Name == name }) {
			out.Servers = append(out.Servers, cfg.Servers[i])
		}
	}
	return out, nil
}

// writeMCPText writes one block per server.
func writeMCPText(w io.Writer, infos []mcphost.ServerInfo, connected bool) error {
	if len(infos) == 0 {
		_, err := fmt.Fprintf(w, "no MCP servers configured\n")
		return err
	}
	var b strings.Builder
	for i, in := range infos {
		if i > 0 {
			b.WriteString("\n")
		}
		where := string(in.Source)
		if in.File != "" {
			where += " " + in.File
		}
		fmt.Fprintf(&b, "%s\n", termtext.Line(in.Name))
		fmt.Fprintf(&b, "  source:   %s\n", termtext.Line(where))
		fmt.Fprintf(&b, "  type:     %s\n", termtext.Line(string(in.Type)))
		if in.Type == mcphost.TransportHTTP {
			fmt.Fprintf(&b, "  url:      %s\n", termtext.Line(in.URL))
			if len(in.HeaderKeys) > 0 {
				fmt.Fprintf(&b, "  headers:  %s\n", termtext.Line(strings.Join(in.HeaderKeys, ", ")))
			}
		} else {
			fmt.Fprintf(&b, "  command:  %s\n", shellWords(append([]string{in.Command}, in.Args...)))
			if len(in.EnvKeys) > 0 {
				fmt.Fprintf(&b, "  env:      %s\n", termtext.Line(strings.Join(in.EnvKeys, ", ")))
			}
		}
		fmt.Fprintf(&b, "  status:   %s\n", termtext.Line(string(in.Status)))
		if in.Error != "" {
			fmt.Fprintf(&b, "  error:    %s\n", termtext.Line(in.Error))
		}
		if connected && in.Status == mcphost.StatusReady {
			fmt.Fprintf(&b, "  tools:    %d\n", len(in.Tools))
			for _, t := range in.Tools {
				desc := firstLine(t.Description)
				if desc != "" {
					desc = "  " + desc
				}
				fmt.Fprintf(&b, "    %s%s\n", termtext.Line(t.Name), termtext.Line(desc))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// shellWords renders argv as a shell would read it back, quoting words
// that need it, so that what would run is unambiguous.
func shellWords(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@+%", r))
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(termtext.Line(a), "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// firstLine returns the first line of s, cut to 100 characters.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}

// warnSkippedMCP tells the user about each server of the project's
// mcps.json left out because their own mcps.json configures its name
// differently (see [mcphost.Config.Skipped]).
func warnSkippedMCP(w io.Writer, cfg mcphost.Config) {
	for _, s := range cfg.Skipped {
		fmt.Fprintf(w, "warning: MCP server of the project skipped: %s; the first is used (rename or remove it in the project's %s to use both)\n", termtext.Line(fmt.Sprint(&s)), mcphost.ConfigFile)
	}
}
