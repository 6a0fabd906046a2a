package permission

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
)

// The values of the "source" input field of the "hook" and "mcp_connect"
// permission checks: where the hook command or the MCP server was
// configured. Rules can match on it like on any input field:
//
//	{"tool": ["hook", "mcp_connect"], "when": {"source": {"in": ["user", "host"]}}, "effect": "allow"}
const (
	// SourceUser is the user's own data home: <home>/hooks.json,
	// <home>/mcps.json.
	SourceUser = "user"
	// SourceProject is the project configuration directory,
	// <workdir>/.<namespace>/, which a cloned repository may supply.
	SourceProject = "project"
	// SourceHost is the host program: hooks and MCP servers given in Go.
	SourceHost = "host"
)

// OwnConfigRuleID is the [Verdict.RuleID] of the verdicts of the policy
// [OwnConfig] returns.
const OwnConfigRuleID = "own-config"

// OwnConfig returns a policy that asks about calls of the named tools
// (exact names, typically "hook" and "mcp_connect") unless their input's
// "source" field is [SourceUser] or [SourceHost], and allows everything
// else. Composed with a policy that allows those tools, it narrows the
// grant to what the user and the host configured: a hook or server from
// the project directory, or of no known source, is still asked about, and
// a deny of the other policy still wins.
//
//	p := permission.Compose(flags, permission.OwnConfig("hook", "mcp_connect"))
//
// The policy is safe for concurrent use.
func OwnConfig(names ...string) Policy {
	return ownConfig(slices.Clone(names))
}

type ownConfig []string

var _ Policy = ownConfig(nil)

func (o ownConfig) Check(ctx context.Context, call Call) (Verdict, error) {
	if err := ctx.Err(); err != nil {
		return Verdict{}, err
	}
	if !slices.Contains(o, call.Name) {
		return Verdict{Decision: Allow}, nil
	}
	source, err := inputSource(call.Input)
	switch {
	case err != nil:
		return Verdict{Decision: Ask, RuleID: OwnConfigRuleID, Reason: call.Name + " of unknown origin: " + err.Error()}, nil
	case source == SourceUser || source == SourceHost:
		return Verdict{Decision: Allow, RuleID: OwnConfigRuleID, Reason: call.Name + " configured by the " + source}, nil
	case source == SourceProject:
		return Verdict{Decision: Ask, RuleID: OwnConfigRuleID, Reason: call.Name + " configured by the project directory"}, nil
	}
	return Verdict{Decision: Ask, RuleID: OwnConfigRuleID, Reason: call.Name + " of unknown origin"}, nil
}

// inputSource returns the "source" string of a call's input.
func inputSource(input json.RawMessage) (string, error) {
	if len(input) == 0 {
		return "", errors.New("no input")
	}
	var in struct {
		Source *string `json:"source"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return "", errors.New("input is not a JSON object")
	}
	if in.Source == nil {
		return "", errors.New("input has no source")
	}
	return *in.Source, nil
}
