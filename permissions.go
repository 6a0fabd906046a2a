package liteagent

import "github.com/lite-agent/lite-agent-go/permission"

// PermissionFilePolicy loads the permission files of a project and returns
// their policy, to pass as [Options.Permission]. Permission files are
// opt-in: New never reads them by itself.
//
// The layers are the managed file (opts.ManagedFile, or
// LITE_AGENT_MANAGED_PERMISSIONS for the default namespace only), the user
// file <home>/permissions.json, the inline rules, and the project file
// <workdir>/.<namespace>/permissions.json, with the paths resolved like the
// agent's, so pass the same Workdir and Storage:
//
//	storage := storage.Options{Namespace: "acme", Home: "/data/acme"}
//	perm, err := liteagent.PermissionFilePolicy(permission.FileOptions{
//		Workdir: wd, Storage: storage, Default: permission.Deny,
//	})
//	if err != nil { … }
//	agent, err := liteagent.New(ctx, liteagent.Options{…, Workdir: wd, Storage: storage, Permission: perm})
//
// Project rules can deny or ask but never allow what the host layers do
// not; the files are reloaded when they change, a broken file fails every
// check (so the gate denies), and the agent's own tools cannot change them.
// See [permission.NewFilePolicy] for the details and errors.
func PermissionFilePolicy(opts permission.FileOptions) (*permission.FilePolicy, error) {
	return permission.NewFilePolicy(opts)
}
