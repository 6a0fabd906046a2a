package liteagent

import "github.com/lite-agent/lite-agent-go/permission"

// PermissionFilePolicy returns the policy of a project's permission files,
// to pass as [Options.Permission]. Permission files are opt-in: New never
// reads them by itself.
//
// The layers are the managed file (opts.ManagedFile, or
// LITE_AGENT_MANAGED_PERMISSIONS for the default namespace only), the user
// file <home>/permissions.json, the inline rules, and the project file
// <workdir>/.<namespace>/permissions.json. Leave opts.Workdir and
// opts.Storage zero: [New] binds the policy to the agent (see
// [permission.FilePolicy.Bind]), so that those paths are resolved like
// the agent's, from its Workdir and Storage:
//
//	perm, err := liteagent.PermissionFilePolicy(permission.FileOptions{Default: permission.Deny})
//	if err != nil { … }
//	agent, err := liteagent.New(ctx, liteagent.Options{…, Workdir: wd, Storage: storage, Permission: perm})
//
// PermissionFilePolicy reads no file (see
// [permission.NewUnboundFilePolicy]): the files are read when New binds
// the policy, so only the agent's files are ever read, and a broken one
// makes New fail with an *[OptionError] for Permission wrapping the
// *permission.ConfigError that names the file. PermissionFilePolicy itself
// fails only for invalid options (the default decision, the namespace, the
// codec, the host rules). A policy used without New (composed into another
// policy, or checked directly) loads the files of opts as given on its
// first use, the working directory and the default namespace's home for
// the fields left zero.
//
// A Workdir or Storage field that is set must equal the agent's: New
// refuses one that differs with an *[OptionError] for Permission wrapping
// the *permission.BindError, and so it refuses a policy bound to an agent
// of another project. Only a *permission.FilePolicy given as
// Options.Permission itself is bound; one composed into another policy
// keeps the paths it was made with.
//
// Project rules can deny or ask but never allow what the host layers do
// not; the files are reloaded when they change, a broken file fails every
// check (so the gate denies), and the agent's own tools cannot change them.
// See [permission.NewFilePolicy] for the details and errors.
func PermissionFilePolicy(opts permission.FileOptions) (*permission.FilePolicy, error) {
	return permission.NewUnboundFilePolicy(opts)
}
