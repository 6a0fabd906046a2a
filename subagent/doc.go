// Package subagent holds subagent definitions and the Agent tool, which
// lets a model delegate subtasks to child agents that run in the
// background and report back together.
//
// # Definitions
//
// [Load] returns the built-in [GeneralPurpose] definition followed by the
// definitions found, in this order, in:
//
//   - <home>/agents, the global definitions;
//   - <workdir>/.<namespace>/agents, the project's definitions;
//   - an extra directory the host names, if any.
//
// No other directory is consulted: with the namespace "acme", project
// definitions live in .acme/agents, and a .lite-agent/agents beside it is
// ignored. Each directory is walked recursively and every file whose name
// ends in ".md" is a candidate. A definition with the same name as an
// earlier one replaces it, so a file named general-purpose replaces the
// built-in, project definitions shadow global ones and the extra directory
// shadows both.
//
// A definition file starts with YAML frontmatter between two "---" lines,
// followed by a Markdown body, the subagent's system prompt:
//
//	---
//	name: reviewer
//	description: Reviews a change for bugs and missing tests.
//	tools: read_file, grep, bash
//	model: medium
//	---
//	Review the change you are given. Report each problem with its file and line.
//
// name defaults to the file name without ".md"; description defaults to
// "No description"; tools is a list or a comma-separated string, and an
// empty or absent list means the subagent inherits its parent's tools;
// model is a tier of the host's model catalog or a raw model id, and absent
// means the parent's model. Other keys are ignored. A file without
// frontmatter keys, such as a README, defines nothing and is skipped. A file
// over 256 KiB, invalid UTF-8, unterminated frontmatter, YAML that is
// malformed or not a mapping, duplicate keys, fields of the wrong type, an
// empty name or one with control characters fails [Load] with an *[Error]
// naming the file, unless [LoadOptions.OnInvalid] asks to skip such files.
// Symbolic links inside an agents directory are never followed.
//
// [Describe] lists definitions for the system prompt, one line each,
// "  - <name>: <description>", or "(no subagents available)";
// [PromptSection] is the whole Subagents section.
//
// # The Agent tool
//
// [Tool] returns the Agent tool. Its input is a list of tasks, each with a
// display_name, a subagent_type, a prompt and optionally a model, a resume
// (the agentId of an earlier subagent, whose session continues) and a
// task_id (a task of the parent's task list). A call starts one detached
// group and returns at once:
//
//	[background:bg_g1_3fa9c2] accepted group with 2 subagents; results will arrive together.
//
// Each child gets the session id agent-<type>-<8 hex digits> (or its
// resume id) in the parent's sessions directory, waits for a slot of the
// root-wide [Pool] (five at once by default, first in first out across all
// groups and sessions), claims its task, runs, and records its outcome on
// the task: review on success, never completed, so the parent checks the
// work; failed or cancelled otherwise. When every child has finished, the
// parent session receives one message with all the results, in the order
// of the tasks:
//
//	<background-task-completed id="bg_g1_3fa9c2" label="Subagent group: API, UI" status="partial">
//	## API (agentId: agent-reviewer-0c1d2e3f; status: completed; task_id: 4)
//	No problems found.
//
//	## UI (agentId: agent-reviewer-9a8b7c6d; status: failed; task_id: 5)
//	Error: Subagent reached max turns
//	</background-task-completed>
//
// # What the host does
//
// The package decides and reports; the host (the root agent) builds and
// runs children. It supplies [ToolOptions.Run], which builds a child from a
// [ChildRequest] with the root's frozen layout and runs it, and
// [ToolOptions.Deliver], which appends a [GroupCompletion] to the parent
// session and runs an autonomous turn. A child must never be given the
// Agent tool, so that subagents cannot dispatch subagents;
// [ChildRequest.AllowedTools] never names it. The host waits for a
// session's groups with [Pool.Wait], cancels them with [Pool.Cancel], and
// closes the pool with the root.
package subagent
