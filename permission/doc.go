// Package permission decides whether an agent's tool calls may run: rules
// with tool-name globs and input conditions, policies composed so that the
// most restrictive wins, permission files in layers where a repository can
// restrict the host's grants but never widen them, and a [Gate] that checks
// every call, asks an approval handler, audits the decision and tells the
// model when a call was refused.
//
// # Decisions and precedence
//
// A [Policy] returns a [Verdict]: allow, ask or deny, with the rule that
// decided. The decisions are ordered deny > ask > allow, and every way of
// combining rules keeps the most restrictive:
//
//	| Where                          | How verdicts combine                                              |
//	|--------------------------------|-------------------------------------------------------------------|
//	| rules of one policy (New)      | any matching deny, else any ask, else any allow, else the default |
//	| policies (Compose)             | the most restrictive verdict; ties keep the earlier policy        |
//	| simple commands of a bash line | the most restrictive of the commands' decisions                   |
//	| paths a bash line touches      | file rules that deny or ask apply; allows and defaults do not     |
//	| FilePolicy layers              | host (base, managed, user, inline; default deny) composed with    |
//	|                                | project (default allow): the project can deny or ask, never allow |
//	| a subagent (Gate.Child)        | Compose(parent, child): a child never exceeds its parent          |
//
// So for any host layers B and project file P, the decision of B with P is
// at least as restrictive as the decision of B alone.
//
// # Rules
//
// A [Rule] names tools by glob ("bash", "Task*", "mcp__*"; no globs means
// every tool) and tests input fields by dot path with conditions:
// [Equals], [In], [Regex], [Glob], [StartsWith], [Contains] and [Not]. All
// conditions of a rule must match. A missing field matches no condition,
// Not included, and string operators never match other types, so negated
// conditions fail closed. [BashCommand] and [FilePath] build the common
// rules; there is no "Bash(cmd:*)" string syntax, and tool names are the
// literal names (bash, read_file, mcp__server__tool).
//
// # Rule files
//
// [DecodeRules] reads the rule file format, strictly: valid UTF-8, no
// duplicate keys, no unknown keys at any level, version 1.
//
//	{
//	  "version": 1,
//	  "rules": [
//	    {"id": "secrets", "tool": ["read_file", "write_file", "edit_file", "delete_file"],
//	     "when": {"path": {"glob": "secrets/**"}}, "effect": "deny"},
//	    {"id": "push", "tool": "bash", "when": {"command": {"startsWith": "git push"}}, "effect": "ask"},
//	    {"id": "tests", "tool": "bash", "when": {"command": {"equals": "go test ./..."}}, "effect": "allow"}
//	  ]
//	}
//
// [NewFilePolicy] loads the managed file (an explicit path, or
// LITE_AGENT_MANAGED_PERMISSIONS for the default namespace only), the
// user file <home>/permissions.json and the project file
// <workdir>/.<namespace>/permissions.json, with paths from
// storage.ResolveProjectPaths. Rule ids become "<layer>:<id or index>". A
// file that breaks any rule, is not a regular file, is too large, or (for
// the project file) is or lies in a symbolic link fails construction with a
// *[ConfigError] naming the file and never quoting its values; a file that
// breaks after a change makes Check fail, which the gate turns into a deny.
// [NewUnboundFilePolicy] (what liteagent.PermissionFilePolicy returns)
// reads nothing when made: it loads the files when bound to an agent
// ([FilePolicy.Bind]) or first used, so that only the agent's files are
// read. Files are reloaded when their stamps (times, size, inode) change. The
// agent's own tools cannot change the files: writes and edits of them, and
// deletes of them or of a directory holding them, are denied, by file tools
// and by bash commands alike.
//
// # Paths
//
// On read_file, write_file, edit_file and delete_file, the "path" field is
// matched in several spellings. [Workspace] resolves it on the file system:
// absolute against the workdir, cleaned of ".", ".." and duplicate
// slashes, symbolic links resolved. Rules see the real path absolute and,
// inside the workspace, relative. Rules that deny or ask also see the path
// as given, lexically cleaned, and with ~ or $HOME expanded; those
// spellings cannot grant. A negated path condition ({"not": {"glob":
// "src/**"}}) holds only when its inner condition matches none of the
// canonical forms, so it fires neither on the absolute form of src/a.go nor
// because of a raw spelling. Rules may use ~, $HOME and $PWD, which expand
// when the policy is built; a rule using ~ when no home directory is known
// is an error, not a rule that matches nothing. Case is folded only on
// volumes that ignore case, by spelling the real path as the directory
// lists it.
//
// # Bash commands
//
// A bash call's command line is analyzed (internal/shellscan, on
// mvdan.cc/sh, bash dialect) and every simple command is checked as if it
// were the whole command: the parts of "&&", "||", ";", "|", "&" and
// newlines, subshells, brace groups, and the scripts of sh -c, bash -c (any
// -c option cluster, -lc included), zsh -c and su -c, parsed in turn. The
// transparent wrappers are seen through: command, nice, nohup, timeout,
// time, setsid and a bare env. A rule on "command" sees each command after
// quote removal, with ~, $HOME and (before any cd) $PWD expanded and blanks
// squeezed; startsWith matches on token boundaries, so "ls" never matches
// "lsof", and a command name given as a path (/bin/rm) also meets deny and
// ask rules as its base name.
//
// File rules also apply to the paths a line reads, writes or deletes:
// redirections (> >> &> <> <), and the operands of common commands (cat,
// head, tail, grep, sort -o, tee, cp, mv, rm, touch, chmod, sed -i, dd, tar,
// uniq, curl -o/-T/-d @file and file:// URLs, wget, and more), from every
// working directory cd may have moved to. "echo x > secret/f" is a write
// of secret/f.
//
// The analysis is a whitelist. A line is opaque — never allowed, by a rule
// or by a policy that allows every bash call — unless every word is a
// literal or a plain quoted expansion, every command is known, and every
// redirection target is a literal path. Arithmetic ($((…)), ((…)), let,
// for ((…)), [[ -eq ]]), subscripts, ${!x}, ${x@P}, substrings, command
// and process substitution, expanding here-documents, any assignment or
// assignment prefix, env with assignments or options, declare and its
// kin, functions, alias, eval, source, trap, hash, enable, builtin,
// command -p, exec, set, shopt, read, printf -v, test -v, coproc, select,
// wrappers not known to be transparent (xargs, find -exec, strace, script,
// unshare, setpriv, prlimit …), container engines (docker, podman,
// nerdctl, compose) but for the subcommands that only show state (ps,
// images, logs, inspect, version …), npm exec however npm spells it
// (npm x, npm exe: npm's command word is resolved as npm resolves it),
// npm in global mode and npm link, git global options, aliases and config,
// the options of sed, awk, tar, rsync, curl and cp that run programs or
// write files, writes after a command that may create symbolic links (or
// anywhere in a line with such a command and a loop, a pipeline or a
// background job), wait -p, git in a loop with a cd, zsh -c scripts, a
// comment or unquoted here-document that continues a line with a
// backslash, a carriage return (where the parser and bash split lines
// differently), and lines beyond the size limits all make a line opaque. The words of a command the analysis
// does not model (mktemp, openssl, fallocate …) are taken as paths it may
// write, and so are the values nested in their option values
// (-ldflags=-o=x, -Wl,-o,x, key=".git"): a protected one, or one outside
// the workdir's ordinary files, makes the line opaque. The go command's
// test, vet, list, run, fmt and build -o, gofmt, and the everyday linters
// and test runners (ruff check, black --check, flake8, mypy, pytest,
// eslint, prettier --check) are modelled with the options they are known
// to take: their operands are read, and the directories whose code they
// build or run must lie in the workdir outside .git; any other option
// leaves them to the rule for commands not modelled. Deny rules still
// see every command the analysis found, including what an opaque wrapper
// seems to run.
//
// The analysis is a guard, not a sandbox: a parser differential with the
// real shell, programs that run other programs by their own logic (make,
// npm scripts, interpreters running files), and hard links are beyond it.
// An allow rule for an interpreter or package runner allows arbitrary code.
// Use an OS sandbox for containment.
//
// # The gate
//
// [NewGate] wraps tools ([Gate.Wrap]) so that each call is checked first.
// Before any policy, the gate screens bash lines itself, whatever the
// policy: a line that writes or deletes a protected path
// ([GateOptions.Protected]), however it names it (~, $HOME, "..", a
// symbolic link, a glob such as ~/.lite-agen?/permissions.jso?), is
// denied ([RuleBashProtected]); a line the policy allows is turned into an
// ask ([RuleBashAnalysis]) when it is opaque, writes outside the workdir or
// to a file there that is not an ordinary file or lies in any .git
// directory (a nested repository's config and hooks run when git works
// there), runs git in a workdir without a .git directory, or pushes to a
// repository on this machine (whose hooks run) rather than to a network
// URL or a remote of .git/config. A line the policy allows that reads,
// copies, archives or sends a secret (the user's credential locations,
// the system's secret files, a process's environ or mem, a data home, or a
// directory holding one), however it names it, is turned into an ask
// ([RuleBashSecretRead]); a line made only of listers (ls, stat, du …) is
// not; an allowed read_file, grep, edit_file, write_file or delete_file of
// a credential location inside the workspace (one that holds the home) is
// asked about likewise ([RuleFileSecretRead]): a change shows what the
// file held, through edit_file's answer and the snapshot. For the same
// reason an edit_file, write_file or delete_file the policy allows gets
// the policy's verdict on read_file of the same path when that is deny or
// ask (a write_file of a file that does not exist yet excepted). An allowed write_file, edit_file or
// delete_file of a path in a .git directory, as given or resolved, or in
// the hooks directory core.hooksPath names, is asked about too
// ([RuleGitDir]). Then:
// allow runs it, deny returns "Error: blocked by policy" (with " rule <id>"
// and ": <reason>" when there are), and ask emits approval_request, asks the
// [ApprovalFunc] through an [ApprovalQueue] (one prompt at a time for a
// whole agent family), emits approval_resolved and runs the call only if
// allowed, else returns "Error: denied by user". Without a handler, asks
// are denied (by "auto", "Error: denied automatically: …", so that the
// model is not told a person refused). A policy error is a deny ("policy error: …").
// Every decision is emitted as permission_decision and, with
// [GateOptions.Audit], handed to the caller to record (the agent appends
// it to the session log), with the input redacted ([Redact]) first. In a dry run, decisions are recorded
// as simulated and every call runs. [Gate.Check] applies the same to
// operations that are not tool calls, such as hook commands ("hook") and
// MCP connections ("mcp_connect").
//
// [Default] is the SDK's default policy: ask before bash, write_file,
// edit_file, delete_file, hook, mcp_connect and mcp__* tools, allow the
// rest.
package permission
