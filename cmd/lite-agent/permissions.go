package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/spf13/cobra"
)

func newPermissionsCommand(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "permissions",
		Short: "Check what the permission rules decide",
	}
	cmd.AddCommand(newPermissionsCheckCommand(g))
	return group(cmd)
}

// checkResult is the output of permissions check.
type checkResult struct {
	Tool     string `json:"tool"`
	Decision string `json:"decision"`
	Layer    string `json:"layer,omitempty"`
	RuleID   string `json:"ruleId,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

func newPermissionsCheckCommand(g *globalFlags) *cobra.Command {
	f := &agentFlags{}
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check TOOL [INPUT-JSON]",
		Short: "Print the decision (allow, ask or deny) for a tool call and the rule that made it",
		Long: "check evaluates the policy lite-agent run would use for one tool call and prints the\n" +
			"decision with the layer and id of the deciding rule. The layers decide in this order:\n" +
			"--deny (flags); a rule of a permissions.json file (managed, user, project) that denies or\n" +
			"asks; a rule of the managed or user file that allows the whole call; --allow (flags); the\n" +
			"CLI's default asks (cli-default: bash, file changes, hooks, MCP); else allow (default).\n" +
			"A project file only restricts: its allow rules grant nothing.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("check takes a tool name and an optional JSON input")
			}
			if len(args) == 2 && !json.Valid([]byte(args[1])) {
				return usagef("the input must be JSON, such as '{\"command\":\"ls\"}'")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := g.project()
			if err != nil {
				return err
			}
			policy, err := f.policy(p)
			if err != nil {
				return err
			}
			policy, err = permission.Workspace(policy, permission.WorkspaceOptions{Workdir: workdirOf(p)})
			if err != nil {
				return err
			}
			input := json.RawMessage(`{}`)
			if len(args) == 2 {
				input = json.RawMessage(args[1])
			}
			// The gate's own verdicts on bash lines (protected paths,
			// lines it cannot analyze) apply as they do in a run, where
			// bash gets this process's environment.
			gate := permission.NewGate(permission.GateOptions{Policy: policy, Workdir: workdirOf(p),
				Protected: p.paths.ProtectedPaths(), BashEnv: os.Environ, SecretEnv: p.secretEnv})
			v, err := gate.Decide(cmd.Context(), permission.Call{Name: args[0], Input: input})
			if err != nil {
				return err
			}
			res := checkResult{Tool: args[0], Decision: v.Decision.String(), Layer: v.Layer, RuleID: v.RuleID, Reason: v.Reason}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), res)
			}
			line := res.Decision
			if res.Layer != "" || res.RuleID != "" {
				line += fmt.Sprintf(" (layer %s, rule %s)", cmpOr(res.Layer, "-"), cmpOr(res.RuleID, "-"))
			}
			if res.Reason != "" {
				line += ": " + res.Reason
			}
			fmt.Fprintln(cmd.OutOrStdout(), termtext.Line(line))
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&f.allow, "allow", nil, "as for run: allow the tools matching `GLOB`")
	cmd.Flags().StringArrayVar(&f.deny, "deny", nil, "as for run: deny the tools matching `GLOB`")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}
