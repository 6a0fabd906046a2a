// Package sandbox contains the commands an agent runs — the bash tool's
// foreground and background commands and hook commands — in an operating
// system sandbox, so that what the permission gate lets through still
// cannot reach what it must not.
//
// A [Sandbox] rewrites a prepared [exec.Cmd] before it starts. The one
// implementation, [Bubblewrap], runs the command under bubblewrap (the
// bwrap program, Debian package "bubblewrap") on Linux. [Auto] picks it
// when it works on this host; [NewBubblewrap] insists on it. Build the
// [Options] of a project with [ProjectOptions].
//
// # What a bubblewrapped command sees
//
//   - the root file system, read-only; a minimal /dev and a /proc of its own
//     PID namespace;
//   - a private, empty /tmp (a fresh tmpfs for each command: files left in
//     /tmp do not carry over to the next command), and TMPDIR=/tmp;
//   - the workdir and [Options.Writable], writable;
//   - inside those, every path of [Options.ReadOnly] (for a project:
//     storage.ProjectPaths.ProtectedPaths) bound read-only, and every
//     directory between the writable root and such a path made a mount point
//     of its own, so that it can be neither renamed nor removed. A protected
//     path that is missing cannot be created: its nearest existing directory
//     below the writable root is bound read-only instead, or, when that is
//     the writable root itself, an empty read-only directory is mounted over
//     the missing name. Bubblewrap needs a mount point for it, so the first
//     command leaves that empty directory behind in the workdir (in a
//     project without one: an empty .<namespace> and an empty .git), where
//     it does no harm: an empty project config directory configures
//     nothing and git ignores an empty .git. Inside the sandbox "git init"
//     then fails; initialise repositories outside it. Where .git holds no
//     repository, an empty read-only HEAD is left beside it too, since git
//     would otherwise take the workdir itself for a git directory once a
//     command wrote HEAD, objects and refs there;
//   - read-only as well, for a project ([ProjectOptions]), what makes git
//     run code from the workdir beyond .git/config and .git/hooks: the
//     directory core.hooksPath names, the files include.path and
//     includeIf.*.path name, the workdir's files that the commands git
//     runs by itself name (core.fsmonitor, textconv and filter commands,
//     merge drivers, pagers, editors, credential helpers …), .git/worktrees, and the config and hooks of
//     each git directory in .git/modules, with the .git file of its
//     checked-out worktree (beyond 64 such directories, .git/modules
//     whole). A symbolic link on the way to
//     any read-only path keeps the directory holding it read-only (the
//     workdir itself when the link lies right under it), since the
//     command could point it elsewhere;
//   - every existing path of [Options.Hidden] (for a project: ~/.ssh,
//     ~/.aws, ~/.gnupg, ~/.config/gcloud and a few more credential stores,
//     the same in /root and the other users' homes, /etc/shadow, sudo's
//     rules and the system's private keys, the data home and every other
//     lite-agent data home in the user's home directory; see
//     [ProjectOptions]) replaced by an empty read-only tmpfs, or, for a
//     file, by /dev/null;
//   - no network unless [Options.Network] (its own network namespace with
//     only a loopback device, so listeners on the host's 127.0.0.1 are out of
//     reach), its own IPC and UTS namespaces, a new session (no access to
//     the controlling terminal), no capabilities, and, where user namespaces
//     work, its own user namespace in which no further user namespace can be
//     made;
//   - on amd64 and arm64, a seccomp filter under which add_key,
//     request_key and keyctl fail with EPERM (the kernel's keyrings are
//     not namespaced: the session keyring of the agent, and the keys in
//     it, would be the command's too), system calls of another
//     architecture kill the process and, unless
//     [Options.AllowUnixSockets], socket(AF_UNIX, …) and io_uring_setup
//     fail with EPERM, so the host's Unix sockets on the read-only root
//     (such as /run/docker.sock) cannot be connected to. Abstract Unix
//     sockets belong to the network namespace and are out of reach anyway.
//
// # After each command
//
// A [Bubblewrap] is an [AfterRunner]: once a wrapped command and
// everything it started have ended, its caller (the bash tool, for
// foreground and background commands, and the hook runner) calls
// [Bubblewrap.AfterRun], which looks on the host for git repositories
// that commands made or changed in the workdir since the Bubblewrap was
// made: at every gitlink of .git/index, then through the whole workdir,
// without following links or opening fifos, reading the files itself and
// running no git. Each whose configuration (with its includes) or hooks
// (its own, or those in the directory a core.hooksPath of its, of the
// project's or of the user's names in its worktree) would make git run a
// program is moved aside (its .git, or a bare one's
// HEAD, renamed to NAME.lite-agent-quarantine-N), and AfterRun returns a
// [*RepoCheckError] naming it and the mv that restores it. git init and
// git clone make none that runs a program. The walk costs about as much
// as find(1) over the workdir: 0.6-1.2 s for 186,000 entries on a small
// machine.
//
// The sandbox dies with the process that started it (bwrap
// --die-with-parent): killing the started process, or its process group,
// kills everything the command started, daemons that called setsid
// included, because they live in the sandbox's PID namespace.
//
// # What it does not contain
//
//   - Reading: everything on the root file system that is not hidden is
//     readable, and so is the environment the host passes to the command
//     but the variables of [Options.HiddenEnv] and, with
//     [Options.HideCredentialEnv] (a project's), those whose names or
//     values say they hold a credential, in the environment the command is
//     given. Keep other secrets out of the command's environment.
//   - On other architectures, or with AllowUnixSockets, Unix sockets on the
//     read-only root (for example /run/docker.sock) can be connected to:
//     read-only mounts do not stop connect(2). A Unix socket passed in
//     from outside (an inherited file descriptor) stays usable.
//   - Hard links and bind mounts made before the sandbox starts reach what
//     they point at.
//   - A repository a command creates or changes in a subdirectory is not
//     kept from being made (the index must stay writable for git add,
//     and no mount can forbid .git under every name); it is found after
//     the command instead (see below). Until then, git run in it, or the
//     project's git status once a gitlink for it is in the index, runs
//     its configuration: a background command's repository is found when
//     it, or any later command, ends. Directories of [Options.Writable]
//     are not looked in.
//   - Resource use (CPU, memory, disk in the workdir) is not limited.
//
// A Bubblewrap is safe for concurrent use.
package sandbox
