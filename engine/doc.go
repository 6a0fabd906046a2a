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
// [Engine.RecordSnapshot] are appended as soon as they are recorded, before
// the tool's result. When a turn is cancelled while tools run, results are
// still appended for every call (an error result for calls that did not
// finish), so the log never holds a tool call without its result and stays
// resumable. A log that does end with unanswered calls (after a crash) gets
// "interrupted" results appended at the start of the next turn.
//
// # Events
//
// Turn yields [Event] values as they happen: turn and model-call
// boundaries, text deltas, messages, tool calls and results, task updates
// that tools report through [Emit], errors and a final done event.
//
// An Engine is safe for concurrent use by turns on different sessions. Two
// concurrent turns on one session conflict: the second one to append fails.
package engine
