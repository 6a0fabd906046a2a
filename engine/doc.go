// Package engine runs the agent's turn loop over interfaces only: a
// [model.Provider], [tool.Tool] values and a [session.Checkpointer].
//
// One call to [Engine.Turn] handles one user prompt: it appends the user
// event, folds the session log into messages, calls the model, runs the
// tool calls the model asks for (concurrently, up to a limit, with results
// returned in input order), persists the assistant message and the tool
// results as batches guarded by the log's head, and repeats until the model
// ends its turn, the turn limit is reached, or the context is cancelled.
//
// # Persistence
//
// Every append names the head it expects, so a second writer on the same
// session makes the turn fail with a session conflict instead of
// interleaving records. File snapshots recorded by tools through
// [Record] are appended as soon as they are recorded, before
// the tool's result. When a turn is cancelled while tools run, results are
// still appended for every call (an error result for calls that did not
// finish), so the log never holds a tool call without its result and stays
// resumable. A log that does end with unanswered calls (after a crash) gets
// "interrupted" results appended at the start of the next turn, each
// reported by a tool_recovered event. With [Options.LogToolStarts], each
// call's start is appended before it runs.
//
// With a Checkpointer that is a [session.Holder] (the file checkpointer),
// a turn keeps the session's lock across its operations on the log, so
// that it takes the lock once rather than once per read and append; it
// lets go after 100 ms without one (a model or a tool still working) or at
// the first pause after a second, and always before it reports its end, so
// other processes wait for the lock about that long at most, not for the
// model's answer.
//
// # Steering
//
// [Engine.Steer] queues user messages for the prompt running on a session;
// they are appended to the log (origin user, not a checkpoint) and sent
// at the turn's next model call, after the running tools, or, when the
// model has just ended its turn, in one more call that answers them.
// Steer refuses when no such call can come: between turns, during an
// autonomous turn, during the last call the turn limit allows.
//
// # Context
//
// With [Options.Context] set, a context engine keeps every request within
// the model's context window (estimated at four UTF-16 code units a token,
// system prompt and tool specs included, unless the provider counts them).
// The window is ContextOptions.Window, else the one the provider
// reports for the model ([model.WindowReporter]), else 32,000 tokens. Below 65% of the window the
// folded log goes out as it is. Above, levels apply in turn, measuring
// between each:
//
//   - level 1 (over 65%): tool results of at least 256 characters that the
//     model has already answered, and that are longer than what replaces
//     them, go to the session's context archive and are replaced by
//     "[tool result archived: <ref>] <preview>" (a 512-byte preview), which
//     the model can read back with the context tool;
//   - level 2 (over 75%): a user message before the current prompt that
//     repeats an earlier one and looks like a reminder (background task
//     completions) is replaced by a marker;
//   - level 4 (over 95%): a message of pinned facts (the first prompt,
//     prompts stating goals or constraints, verified artifacts) goes first,
//     and every message before the current prompt is cut to 768
//     characters, tool results to 256, keeping 70% from the head;
//   - level 5 (still over the window): only the facts and the last two
//     messages, cut to 512 characters, or the last one cut to 256.
//
// A request the provider refuses as too long before streaming anything is
// made once more with every level applied. A context_status event reports
// what was done. The log is never changed: the levels shape each request
// from it, and since archive refs are content hashes, the same log gives the
// same request every time. Differences from the TypeScript SDK:
//
//   - no view is committed to the log (the TypeScript SDK's view format is not
//     fixed), so a context_status has no generation;
//   - there is no planner, so no level 3;
//   - a provider that counts tokens ([model.TokenCounter]) is asked once a
//     request, for the uncompacted one, and the estimates between levels are
//     scaled to its count; a request estimated under a quarter of the 65%
//     threshold is not counted, since no text is that dense;
//   - no provider-native context edits are requested;
//   - the task reminder is added after the levels, so level 2 never sees
//     it, and level 2 leaves the current prompt alone;
//   - pinned facts skip background and internal prompts, drop duplicates,
//     and keep at most 20 facts of 512 characters each.
//
// Every request above 65% of the window is reported, and calls
// ContextOptions.Compacting, even when no level found anything to change.
//
// # Events
//
// Turn yields [Event] values as they happen: turn and model-call
// boundaries, text deltas, messages, tool calls and results, task updates
// that tools report through their [tool.Call], errors and a final done
// event.
//
// # Tool calls
//
// Each tool call receives a [tool.Call] next to its input: the call's id,
// the session and turn, and a [tool.Reporter] through which it emits
// events (an [Event] passed to [tool.Call.Emit]) and sets the prompt's
// output ([tool.Call.SetOutput]); [Record] appends sidecar events for it.
// Nothing of a turn travels in context values. Code beside the calls that
// has no call value, such as a hook that fails, reaches the turn running
// on a session with [Engine.Notify].
//
// An Engine is safe for concurrent use by turns on different sessions. Two
// concurrent turns on one session conflict: the second one to append fails.
package engine
