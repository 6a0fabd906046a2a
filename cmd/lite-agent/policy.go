package main

import (
	"context"
	"fmt"
	"os"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The layers of the CLI's policy beside a FilePolicy's own (managed, user,
// inline, project, self-protection), as permissions check shows them.
const (
	layerFlags      = "flags"       // --allow and --deny
	layerCLIDefault = "cli-default" // the CLI's default asks (defaultAsk)
	layerDefault    = "default"     // nothing matched: allow
)

// cliPolicy is the permission policy of run and chat. It decides in
// layers, the first that decides winning:
//
//  1. --deny flags deny, always;
//  2. a permission file rule (managed, user or project file) that denies
//     or asks decides; so does the guard of the files themselves;
//  3. a rule of the host files (managed, user) that allows the whole call
//     pre-approves it;
//  4. --allow flags allow (for hook and mcp_connect, only the hooks and
//     servers of the data home and the host: see ownConfigOnly);
//  5. the CLI's default asks (bash, the file-changing tools, hooks, MCP);
//  6. anything else is allowed.
//
// So a project file only ever restricts (its allows count nowhere), and
// flags apply only where no file rule matches. A bash line is pre-approved
// by the files only when their rules allow every part of it; otherwise the
// flags decide the line as a whole. It is safe for concurrent use.
type cliPolicy struct {
	deny     permission.Policy      // the --deny flags; default allow
	restrict *permission.FilePolicy // every file, default allow: what the files restrict
	grant    *permission.FilePolicy // the host files, default deny: what they allow
	allow    permission.Policy      // the --allow flags; default deny
	ask      permission.Policy      // the default asks; default allow
}

var _ permission.Policy = (*cliPolicy)(nil)

// policy returns the permission policy of a command run with the flags f
// in project p; see cliPolicy.
func (f *agentFlags) policy(p project) (permission.Policy, error) {
	deny, err := globPolicy(f.deny, "--deny ", permission.Deny, permission.Allow)
	if err != nil {
		return nil, usagef("invalid --deny: %w", err)
	}
	allow, err := globPolicy(f.allow, "--allow ", permission.Allow, permission.Deny)
	if err != nil {
		return nil, usagef("invalid --allow: %w", err)
	}
	// --allow hook and --allow mcp_connect grant the user's and the host's
	// own hooks and servers; a project's fall through to the default ask.
	own, err := ownConfigOnly(f.allow)
	if err != nil {
		return nil, usagef("invalid --allow: %w", err)
	}
	if own != nil {
		allow = permission.Compose(allow, own)
	}
	ask, err := globPolicy(defaultAsk, layerCLIDefault+":", permission.Ask, permission.Allow)
	if err != nil {
		return nil, err
	}
	if p.managed != "" {
		// Given by name, the file must be there: the permission package
		// skips a missing file, which here would drop the host's policy
		// over a typo.
		if _, err := os.Stat(p.managed); err != nil {
			return nil, fmt.Errorf("--managed-permissions: %w", err)
		}
	}
	files := permission.FileOptions{
		Workdir:     p.paths.Workdir(),
		Storage:     storage.Options{Namespace: p.paths.Namespace, Home: p.paths.Home},
		ManagedFile: p.managed,
	}
	restrictOpts := files
	restrictOpts.Default = permission.Allow
	restrict, err := permission.NewFilePolicy(restrictOpts)
	if err != nil {
		return nil, err
	}
	grantOpts := files
	grantOpts.Default = permission.Deny
	grantOpts.DisableProject = true
	grant, err := permission.NewFilePolicy(grantOpts)
	if err != nil {
		return nil, err
	}
	return &cliPolicy{deny: deny, restrict: restrict, grant: grant, allow: allow, ask: ask}, nil
}

// globPolicy returns a policy with one rule of effect per tool-name glob,
// its id prefix+glob, and the default def.
func globPolicy(globs []string, prefix string, effect, def permission.Decision) (permission.Policy, error) {
	rules := make([]permission.Rule, len(globs))
	for i, g := range globs {
		rules[i] = permission.Rule{ID: prefix + g, Description: prefix + g, Tool: []string{g}, Effect: effect}
	}
	return permission.New(permission.Options{Rules: rules, Default: def})
}

// Check implements permission.Policy.
func (c *cliPolicy) Check(ctx context.Context, call permission.Call) (permission.Verdict, error) {
	v, err := c.deny.Check(ctx, call)
	if err != nil || v.Decision == permission.Deny {
		v.Layer = layerFlags
		return v, err
	}
	if v, err := c.restrict.Check(ctx, call); err != nil || v.Decision != permission.Allow {
		return v, err
	}
	if v, err := c.grant.Check(ctx, call); err != nil || v.Decision == permission.Allow {
		return v, err
	}
	if v, err := c.allow.Check(ctx, call); err != nil || v.Decision == permission.Allow {
		v.Layer = layerFlags
		return v, err
	}
	v, err = c.ask.Check(ctx, call)
	if err != nil || v.Decision == permission.Ask {
		v.Layer = layerCLIDefault
		return v, err
	}
	return permission.Verdict{Decision: permission.Allow, Layer: layerDefault}, nil
}
