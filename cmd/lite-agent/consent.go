package main

import (
	"context"
	"errors"

	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/permission"
)

// configPermissions are the permissions of running what configuration
// names: hook commands and MCP connections.
var configPermissions = []string{hook.ToolName, mcphost.PermissionName}

// ownConfigOnly returns the policy that narrows what the --allow globs
// grant of hook and mcp_connect to the hooks and servers the user (the
// data home) and the host configured: those of the project directory,
// which a cloned repository may supply, are still asked about. It returns
// nil when --allow grants neither.
func ownConfigOnly(allow []string) (permission.Policy, error) {
	if len(allow) == 0 {
		return nil, nil
	}
	granted, err := permission.New(permission.Options{Allow: allow, Default: permission.Deny})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, name := range configPermissions {
		v, err := granted.Check(context.Background(), permission.Call{Name: name, Input: []byte("{}")})
		if err != nil {
			return nil, err
		}
		if v.Decision == permission.Allow {
			names = append(names, name)
		}
	}
	if names == nil {
		return nil, nil
	}
	return permission.OwnConfig(names...), nil
}

// mcpConnectPolicy returns the mcp_connect check of mcp list --connect:
// the policy of a run given --allow mcp_connect (the user's and the
// host's own servers are allowed, a project's are asked about, and a deny
// rule of a permission file wins), asking approve about what it asks
// (nil denies).
func mcpConnectPolicy(p project, approve permission.ApprovalFunc) (func(context.Context, mcphost.ConnectRequest) error, error) {
	f := &agentFlags{allow: []string{mcphost.PermissionName}}
	pol, err := f.policy(p)
	if err != nil {
		return nil, err
	}
	gate := permission.NewGate(permission.GateOptions{Policy: pol, Approve: approve})
	return func(ctx context.Context, req mcphost.ConnectRequest) error {
		v, err := gate.Check(ctx, mcphost.PermissionName, req.Input())
		if err != nil {
			return err
		}
		if v.Decision != permission.Allow {
			if v.Reason != "" {
				return errors.New(v.Reason)
			}
			return errors.New("by " + cmpOr(v.RuleID, "policy"))
		}
		return nil
	}, nil
}
