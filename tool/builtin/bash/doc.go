// Package bash holds the bash tool and the background commands it starts,
// with their tools BashOutput and KillBackground. Every tool is built with
// [tool.New], so its input is validated against its schema before the
// handler runs, and every handler honours its context.
//
// bash runs each command with "/bin/bash -c" in its own session (and so
// process group), on Linux in a cgroup v2 of its own where the process can
// make one, and kills the cgroup and the whole group with SIGKILL, and on
// Linux every process left in the session (timeout(1) moves to a group of
// its own), when the command ends, times out (120
// s by default), is cancelled or exceeds its output cap (1,000,000 bytes by
// default). A [Background] registry runs commands the model starts with
// run_in_background, keeping the last part of their output in a ring
// buffer for BashOutput; it owns their goroutines, and its Close kills
// them all. A background command's [Completion] names the session of the
// call that started it (its [tool.Call.SessionID]). See [Tool] and
// [BackgroundTools] for the texts.
//
// A [sandbox.Sandbox] in [Options.Sandbox] contains every command, in the
// foreground and in the background.
package bash
