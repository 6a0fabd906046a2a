// Package hook runs the hooks of an agent family: shell commands from
// hooks.json files and Go functions from the host, called at fixed points
// of a run (run:start, run:end, tool:start, tool:end, compact:start and
// compact:end) with a description of the event.
//
// Hooks observe; they never change a run. A hook that fails (a non-zero
// exit, a timeout, too much output, a denied permission, a Go error or
// panic) produces a hook_failed [Diagnostic] for the host to emit in the
// run's event stream, and the remaining hooks still run. Tool calls are
// never retried because of a hook.
//
// # Files
//
// [LoadFiles] reads two files, once, when the root agent is created, and
// never again:
//
//   - <home>/hooks.json, the global file;
//   - <workdir>/.<namespace>/hooks.json, the project file.
//
// No other directory is consulted: with the namespace "acme", the project
// file is .acme/hooks.json, and a .lite-agent/hooks.json beside it is
// ignored. A file looks like this:
//
//	{
//	  "version": 1,
//	  "hooks": {
//	    "run:start": [{"command": "logger -t agent run started"}],
//	    "tool:end":  [{"command": "./scripts/audit-tool.sh", "match": "{write_file,edit_file}", "timeoutMs": 5000}]
//	  }
//	}
//
// "version" must be 1. Each event maps to a list of entries with a
// non-blank "command", an optional "timeoutMs" (an integer from 1 to
// 120000, default 10000) and, for tool:start and tool:end only, an optional
// "match" glob on the tool's name. The schema is strict: unknown events,
// unknown keys, duplicate keys, invalid UTF-8, a file over 256 KiB or
// anything that is not a regular file fails the load with a *[ConfigError]
// naming the file, without quoting values from it. Nothing runs before
// every file has been validated.
//
// # Order
//
// For one event, hooks run one after another: the global file's entries in
// file order, then the project file's, then programmatic hooks in
// registration order ([Options.Programmatic], then [Runner.Register]).
//
// # Command hooks
//
// A command hook runs as "/bin/sh -c <command>" in the workdir, in its own
// process group, with the event's JSON and a newline on standard input:
//
//	{"event":"tool:start","runId":"…","sessionId":"s1","source":"user","call":{"id":"c1","name":"bash","input":{"command":"ls"}}}
//
// Each payload type documents its JSON. The command string is used exactly
// as configured: event data is never put into it, so a prompt containing
// "$(touch x)" reaches a hook only as JSON on standard input.
//
// Before each run of a command, [Options.Permit] is asked about the
// synthetic tool call "hook" with input
// {"command","event","source","configFile"}; the "hook" capability is
// separate from bash's. Without a Permit callback no command runs, so a
// hostile project directory runs nothing without the host's grant. The
// source says where the hook was configured: "user" (<home>/hooks.json),
// "project" (<workdir>/.<namespace>/hooks.json, which a cloned repository
// may supply) or "host" (programmatic), so that a permission rule such as
//
//	{"tool": "hook", "when": {"source": {"in": ["user", "host"]}}, "effect": "allow"}
//
// allows the user's own hooks and leaves a repository's to be asked about.
//
// The command's environment is only PATH, HOME, TMPDIR, LANG, LC_ALL and
// TERM from the host (or [Options.Env]), so a secret in the host's
// environment is not inherited. Its timeout kills the whole process group;
// so does writing more than 64 KiB of combined output, which is otherwise
// discarded. A payload over 256 KiB fails the hook without running it.
//
// # Wiring
//
// The host loads the files and builds one [Runner] per agent family:
//
//	cfg, err := hook.LoadFiles(ctx, paths) // at root creation, before anything runs
//	runner, err := hook.New(cfg, hook.Options{Workdir: wd, Permit: gate})
//
// and calls [Runner.Fire] at each point with the matching payload
// ([RunStart], [RunEnd], [ToolStart], [ToolEnd], [CompactStart],
// [CompactEnd]), emitting the Outcome's diagnostics. Start events are
// cancelled with the caller's context; end events run to their own
// timeouts even after a cancellation. tool:start fires before the
// permission gate, so also for calls the policy denies.
package hook
