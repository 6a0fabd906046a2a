package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/lite-agent/lite-agent-go/internal/secretpaths"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A Sandbox contains the commands an agent runs.
//
// Wrap rewrites cmd, which must be prepared but not started, so that it
// runs inside the sandbox: it may change cmd.Path and cmd.Args, append to
// cmd.ExtraFiles and leave variables out of cmd.Env (nil meaning the
// host's environment), and keeps cmd.Dir, the rest of cmd.Env, the
// standard streams and cmd.SysProcAttr. The files Wrap appends are for the started process
// only: the caller closes them once cmd.Start has returned, whether it
// succeeded or not. Killing the started process (or its process group)
// must kill everything the command started. Wrap returns an error, and
// leaves cmd unchanged, when it cannot contain the command; the caller
// must then not start it.
type Sandbox interface {
	Wrap(cmd *exec.Cmd) error
}

// An AfterRunner is a [Sandbox] with work to do on the host after each
// command it wrapped. A caller that wraps commands with a Sandbox calls
// AfterRun, when the Sandbox has it, once the wrapped command and
// everything it started have ended (exited or been killed), and passes a
// non-nil error on to whoever asked for the command, with the command's
// outcome. [*Bubblewrap] implements it: it moves aside the git
// repositories commands left in the workdir that would run programs
// outside the sandbox and returns a [*RepoCheckError] naming them.
// AfterRun does not depend on which command ended: one call covers
// every command that ended before it.
type AfterRunner interface {
	AfterRun(ctx context.Context) error
}

// Options says what a sandboxed command may see and change. All paths
// must be absolute.
type Options struct {
	// Workdir is the directory commands run in when the command sets no
	// Dir, and the first writable area. It is required.
	Workdir string

	// Writable lists more directories commands may write, besides the
	// workdir and the private /tmp. nil means none.
	Writable []string

	// ReadOnly lists paths that stay read-only where they lie inside a
	// writable area, each protecting everything beneath it: they can be
	// neither written, nor renamed or removed, nor (when missing) created.
	// Paths outside the writable areas are read-only anyway. nil means
	// none.
	ReadOnly []string

	// ReadOnlyFiles lists more paths that stay read-only as ReadOnly's do,
	// but that are files: a missing one is created before the command
	// starts and bound read-only, so that its directory stays writable.
	// It is created empty, but for the commondir of a git directory, which
	// holds "." (the git directory itself: git refuses an empty one and
	// reads "." as it reads none). Where it cannot be created, its
	// directory stays read-only, or, right under a writable root, an empty
	// read-only file covers the name. nil means none.
	ReadOnlyFiles []string

	// Hidden lists paths whose contents cannot be read or changed: a
	// directory is replaced by an empty one, a file by an empty one
	// (/dev/null). Missing ones are skipped. A hidden path must not contain
	// the workdir or a writable directory. nil means none.
	Hidden []string

	// HiddenEnv names environment variables commands do not get: Wrap
	// leaves them out of the command's environment, so that neither the
	// command nor anything it starts can read them (bubblewrap's own
	// environment, which /proc/1/environ shows inside, does not hold them
	// either). nil means none.
	HiddenEnv []string

	// HideCredentialEnv makes Wrap also leave out every variable of the
	// command's environment (cmd.Env, or the host's when nil) whose name
	// or value says it holds a credential ([secretpaths.CredentialVar],
	// [secretpaths.CredentialValue]), looked at when the command is
	// wrapped. false leaves out HiddenEnv's alone.
	HideCredentialEnv bool

	// Network lets commands use the host's network. false gives them a
	// network namespace of their own with only a loopback device.
	Network bool

	// AllowUnixSockets lets commands create Unix domain sockets. false (on
	// amd64 and arm64) makes the seccomp filter also refuse
	// socket(AF_UNIX, …) and io_uring_setup with EPERM, so that the host's
	// sockets visible on the read-only root (such as /run/docker.sock)
	// cannot be connected to; socketpair(2) still works. Either way the
	// filter refuses the kernel keyring calls (add_key, request_key,
	// keyctl), since the session keyring is not namespaced.
	AllowUnixSockets bool

	// WorktreeHooks lists directories, relative to a worktree, that git
	// runs hooks from in every repository (a relative core.hooksPath in
	// the user's configuration, such as .githooks), where
	// [Bubblewrap.AfterRun] looks in each repository it finds. nil means
	// none.
	WorktreeHooks []string

	// Bwrap is the bubblewrap program. "" means "bwrap" looked up in
	// PATH.
	Bwrap string
}

// ErrUnavailable is matched (with errors.Is) by the error of a sandbox
// that cannot run on this host, such as bubblewrap not installed or not
// allowed to create namespaces here.
var ErrUnavailable = errors.New("sandbox unavailable")

// An UnavailableError says why a sandbox cannot run on this host. It
// matches [ErrUnavailable].
type UnavailableError struct {
	// Program is the sandbox program, such as "bwrap".
	Program string
	// Reason says what failed, such as "not found in PATH" or the first line
	// bwrap wrote when the probe failed.
	Reason string
	// Err is the underlying error, if any.
	Err error
}

// Error names the sandbox program and why it cannot be used.
func (e *UnavailableError) Error() string {
	return fmt.Sprintf("sandbox %s unavailable: %s", e.Program, e.Reason)
}

// Unwrap returns the underlying error.
func (e *UnavailableError) Unwrap() error { return e.Err }

// Is reports whether target is ErrUnavailable.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// An OptionsError reports invalid [Options].
type OptionsError struct {
	// Field is the Options field, such as "Workdir" or "Hidden".
	Field string
	// Path is the offending path, if any.
	Path string
	// Problem says what is wrong with it.
	Problem string
}

// Error names the option, and the path when one is at fault, and the problem.
func (e *OptionsError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("sandbox options: %s: %s", e.Field, e.Problem)
	}
	return fmt.Sprintf("sandbox options: %s %q: %s", e.Field, e.Path, e.Problem)
}

// protectedInSandbox is paths.ProtectedPaths() less .git/commondir and
// .git/config.worktree where they do not exist: a missing protected path
// makes its nearest directory read-only, and .git itself read-only would
// stop every commit. ProjectOptions protects them as files instead
// (gitCodePaths).
func protectedInSandbox(paths storage.ProjectPaths) []string {
	var out []string
	for _, p := range paths.ProtectedPaths() {
		if dir, name := filepath.Split(p); filepath.Base(dir) == ".git" && (name == "commondir" || name == "config.worktree") {
			if _, err := os.Lstat(p); err != nil {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// ProjectOptions returns the options of a project's sandbox: the workdir
// of paths writable, its ProtectedPaths read-only, and hidden: the data
// home of paths and the other data homes [secretpaths.DataHomes] finds
// (the default namespace's, and every directory userHome/.<name> whose
// name is a valid namespace and that looks like a data home), userHome's
// credential locations ([secretpaths.UserCredentials]: .ssh, .aws,
// .gnupg, .config/gcloud, .azure, .kube, .docker, .config/gh, .netrc,
// .git-credentials, database clients' and registries' password and token
// files such as .pgpass and .npmrc, password stores, browser profiles and
// cloud tools' keys), the same locations where the host's environment
// moves them ([secretpaths.EnvHiddenCredentials]: GNUPGHOME, AWS_SHARED_CREDENTIALS_FILE,
// KUBECONFIG, CARGO_HOME's credentials …; one that would contain the workdir
// is left visible) and the system's secret files ([secretpaths.System]:
// /etc/shadow, sudo's rules, TLS and SSH host private keys, /root's
// credential locations, the registry logins of the runtime directories:
// $XDG_RUNTIME_DIR/containers/auth.json, /run/user/<uid>/…). userHome "" means os.UserHomeDir(); without a
// user home only the data homes and the system's files are hidden.
// HideCredentialEnv is set: Wrap leaves out of each command's environment
// (the host's, or the one cmd.Env gives) the variables whose names say
// they hold a credential ([secretpaths.CredentialVar]: ANTHROPIC_API_KEY,
// GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, PGPASSWORD, DATABASE_URL,
// SENTRY_DSN, NPM_CONFIG__AUTH …) and those whose values are URLs with a
// password ([secretpaths.CredentialValue]: HTTPS_PROXY=http://u:p@proxy);
// a host adds to HiddenEnv any other variable that holds a secret (the
// key of an encoded data home). Network is off. The permission gate asks before a bash line reads any
// of them, from the same list.
//
// It reads the user's home directory, so call it when the sandbox is
// built; homes created later are not seen.
func ProjectOptions(paths storage.ProjectPaths, userHome string) Options {
	opts := Options{
		Workdir:  paths.Workdir(),
		ReadOnly: protectedInSandbox(paths),
		Hidden:   []string{paths.Home},
	}
	if userHome == "" {
		userHome, _ = os.UserHomeDir()
	}
	if userHome != "" && filepath.IsAbs(userHome) {
		userHome = filepath.Clean(userHome)
	} else {
		userHome = ""
	}
	dirs, files, hooks := gitCodePaths(opts.Workdir, filepath.Join(opts.Workdir, ".git"), userHome)
	opts.WorktreeHooks = hooks
	for _, p := range dirs {
		if !slices.Contains(opts.ReadOnly, p) {
			opts.ReadOnly = append(opts.ReadOnly, p)
		}
	}
	opts.ReadOnlyFiles = append(files, bareGuard(opts.Workdir)...)
	opts.HideCredentialEnv = true
	secrets := secretpaths.DataHomes(userHome)
	secrets = append(secrets, secretpaths.UserCredentials(userHome)...)
	for _, p := range secretpaths.EnvHiddenCredentials(os.Environ()) {
		// A location the environment moves out of the home
		// (GNUPGHOME=/srv/gnupg), unless it would hide the workdir.
		if !within(opts.Workdir, p) && !within(canonical(opts.Workdir), canonical(p)) {
			secrets = append(secrets, p)
		}
	}
	for _, p := range append(secrets, secretpaths.System(userHome)...) {
		if !slices.Contains(opts.Hidden, p) {
			opts.Hidden = append(opts.Hidden, p)
		}
	}
	return opts
}

// Auto returns the sandbox that works on this host: a [*Bubblewrap] when
// bwrap is installed and can start a sandbox here. When no sandbox works
// it returns a nil Sandbox and an error matching [ErrUnavailable] that says
// why; a host that accepts running commands uncontained checks for it with
// errors.Is and tells its user. Any other error (such as an
// [*OptionsError]) means the options are wrong.
func Auto(ctx context.Context, opts Options) (Sandbox, error) {
	b, err := NewBubblewrap(ctx, opts)
	if err != nil {
		return nil, err
	}
	return b, nil
}
