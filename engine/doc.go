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
// model's answer. When it takes the lock again it checks that the session
// is still the one it loaded (its first record; see [Engine.Identify]). A
// Checkpointer that neither holds sessions nor holds the session's lease
// (a leaser's Leased, which only its caller takes) gets that check
// before each append after the load instead (see [session.Checkpointer]).
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
// projected log goes out as it is. Above, levels apply in turn, measuring
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
//   - level 3 (over 85%, with a ContextOptions.Planner): the planner is
//     shown the segments of the history (a prompt and what followed it;
//     never the current one, nor one holding a verified artifact) and may
//     keep each, replace it by "[Historical segment summary]\n<summary>",
//     or archive it ("[Historical segment archived: <ref>] <preview>");
//     an action whose evidence refs do not all end in ":<seq>" of the
//     segment is ignored, and a planner slower than ContextOptions.PlannerBudget
//     (100 ms) or failing is not used (PlannerFallback). [ModelPlanner]
//     asks a model;
//   - level 4 (over 95%): a message of pinned facts (the first prompt,
//     prompts stating goals or constraints, verified artifacts, and the
//     planner's decisions, open questions and next step) goes first, and
//     every message before the current prompt is cut to 768 characters,
//     tool results to 256, keeping 70% from the head (a summary message,
//     "[Summary of earlier conversation]\n…", to a quarter of the window);
//   - then, when the request is still over the window and leaving out
//     turns before the current one brings it within, its oldest turns
//     (a summary message aside) are left out, down to 65% of the window,
//     for the message "[N earlier turn(s) left out to fit the context
//     window]" (N counting turns a former trim left out too), and the
//     result is committed: a view, and what a resume reads from it, never
//     holds more than the window;
//   - level 5 (still over the window): only the facts and the last two
//     messages, cut to 512 characters, or the last one cut to 256.
//
// Each level is a [compaction.Pass] run through [compaction.Run], and
// [Options.Passes] (such as the built-in passes of package compaction) run
// after them on every request, the facts message aside. A request the
// provider refuses as too long before streaming anything is made once more
// with every level applied, after [Options.OverflowPasses] when set. A
// context_status event reports what was done.
//
// # Context views
//
// When levels 1 to 4 or Options.Passes change what the model sees, the
// result is committed to the log, at the head the request was built on
// (expected head included), as a context_view event, and the next requests
// start from it: in this process, and after a restart, which reads the log
// from its latest valid view (throughSeq below the view's own seq) and the
// events after it, without reading what the view covers when the
// checkpointer has a ReadFromView method. Level 5 and the overflow passes
// are never committed, nor is level 4's facts message alone (without a
// message shortened). What the planner or a host pass changed is committed
// at once; what only levels 1, 2 and 4 changed, which a request redoes
// alike from the same base, once the events after the latest view hold a
// quarter of the window, since each view holds the whole compacted history.
// [Engine.Compact] commits whatever it changed, the facts message included. The log is only ever appended to: the raw events
// stay, and [session.Fold] (which skips context_view events) still gives
// the whole transcript. The event is
//
//	{"type":"context_view","throughSeq":<head>,"view":<view>}
//
// and the view, format [ViewFormat]:
//
//	{
//	  "format": "lite-agent-go/context-view/1",
//	  "generation": <n>,                  // 1 for the first view, then +1
//	  "pinned": true,                     // requests start with the facts message (omitted: false)
//	  "entries": [                        // the messages through throughSeq as compacted, facts message excluded
//	    {"message": <Message>,            // as in user/assistant events
//	     "seq": <n>,                      // the event it came from (first result's, for tool results)
//	     "prompt": true,                  // a user prompt: it starts a segment
//	     "verified": true,                // its segment holds a verified artifact
//	     "results": [{"seq": <n>, "turn": <n>}, …]}, // per block, for a message of tool results
//	    …],
//	  "facts": [{"kind": "goal"|"constraint"|"artifact", "text": "…", "key": "…"}, …],
//	  "sawPrompt": true,                  // the first prompt was seen (later ones are not goals by default)
//	  "state": {"decisions": […], "unresolved": […], "nextStep": "…"}, // merged planner deltas
//	  "archiveRefs": ["<ref>", …],         // every archive ref the views put
//	  "calibration": {"model": "…", "ratio": 2.1} // the session's calibration ratio and its model (omitted: none)
//	}
//
// A view of another format (one the TypeScript SDK wrote, say) is not
// resumed from: the whole log is read and projected. Each view holds the
// whole compacted history, within the window (the oldest turns are left
// out, see above): a session whose planner or host passes change
// something at every request adds a view of up to the window's size to its
// log at every request.
//
// [Engine.Compact] forces levels 1 to 4, runs Options.Passes and the
// summary pass ([ContextOptions.Summary], given the caller's
// instructions), leaves out the oldest turns of what is still over the
// window (as above), commits a view and reports the sizes before and after,
// with compaction events; it is refused ([ErrBusy]) while a turn runs on
// the session and commits nothing once its context is done.
//
// Differences from the TypeScript SDK:
//
//   - the view format is this engine's (the TypeScript SDK's is not
//     fixed), and the facts are kept in the view rather than re-derived
//     from the whole log at every request;
//   - a provider that counts tokens ([model.TokenCounter]) is asked once a
//     request, for the uncompacted one, and the estimates between levels are
//     scaled to its count; a request of fewer UTF-8 bytes than the 65%
//     threshold's tokens is not counted, since no tokenizer counts more
//     than a token a byte (four times the estimate of ASCII text, twelve
//     of Chinese) [Engine.Compact] asks it for the
//     request before and after (a failed count leaves estimates, reported
//     in [CompactResult.CountErr]);
//   - estimates are corrected by the input tokens the provider reported
//     in the usage of the session's last request ([model.RequestInput]):
//     the next requests are measured at that report's ratio to its
//     estimate (at most twelve times; a report under half the estimate is
//     not taken), and a request at least as large as the one reported
//     never under its report. A tokenizer
//     that counts twice the estimate (code, text that is not English)
//     no longer lets the session grow to twice the window before the
//     levels start; a count of the request ([model.TokenCounter]) or a
//     refusal's overrides it. [Engine.Compact] measures by it too, and
//     the summary passes plan their requests by it
//     ([compaction.WithTokenScale]). Its ratio outlives the session's
//     cached state (until [Engine.Forget]), and a process: the assistant
//     record keeps the usage and the estimate of the request it answers
//     (and a context view the ratio), which a new process calibrates
//     the session's first request by, when of the engine's model (the
//     record's "model", the view's): another model's ratio measured
//     another tokenizer, and a session resumed with another model is
//     estimated plainly until its first answer, as is a log with neither
//     (an older version's, the reference's);
//   - no provider-native context edits are requested;
//   - the task reminder is added after the levels, so level 2 never sees
//     it, and level 2 leaves the current prompt alone;
//   - pinned facts skip background and internal prompts, drop duplicates,
//     and keep at most 20 facts of 512 characters each;
//   - a request still over the window after level 4 loses its oldest
//     turns, committed, before level 5 (the reference goes to level 5);
//   - max_tokens is lowered to leave the input room in the window, and a
//     refusal that states the input's count is retried within it, levels
//     1 to 4 forced first when compaction is needed (the reference forces
//     every level, level 5 included, at any overflow);
//   - [Engine.Compact] reports what it could not do, which the reference's
//     result does not show: a summary that failed, the turns being kept
//     or left out instead ([CompactResult.SummaryErr]), transcript lines
//     the summary left out unsummarized ([CompactResult.LeftOutLines]) and
//     the turns the view leaves out ([CompactResult.LeftOutTurns]).
//
// The passes the engine runs get the window in their context
// ([compaction.WithWindow]), and the scale its measures take the
// estimates at ([compaction.WithTokenScale]: the count's, or the
// calibration's), so that a [compaction.Summary] pass keeps its requests
// within it.
//
// Every request above 65% of the window is reported, and calls
// ContextOptions.Compacting, even when no level found anything to change.
//
// # The answer's room
//
// An API that counts max_tokens against the context window (Anthropic's,
// and most OpenAI-compatible servers) refuses a request whose input and
// max_tokens together exceed it, though its input alone fits. So every
// request's max_tokens — [Options.MaxTokens], else the provider's default
// ([model.MaxTokensReporter]: Anthropic's is the model's whole output
// limit, 64,000 for Claude Sonnet 4.5) — is lowered, when it is more, to
// the window less the input and a margin (1% of the window for a count,
// 5% for an estimate). The window is the one the provider reports for the
// model ([model.WindowReporter]), else [ContextOptions.Window]; without
// either, or without a max_tokens to send, nothing is bound. The input is
// the provider's count when it counts tokens ([model.TokenCounter]) and
// the estimate allows that it might not fit (the context engine's count
// of the request serves when its levels changed nothing), else the
// estimate. The model_call_start event says when max_tokens was lowered,
// from what and for what input ([ModelCallEvent.MaxTokensFrom]). An
// explicit Options.MaxTokens is lowered too rather than refused: it bounds
// the answer, and a lower bound still does; refusing it would end a
// session that still fits.
//
// It is never lowered below a floor, [MinAnswerTokens] (or the configured
// max_tokens, or a quarter of the window, when smaller). A request whose
// input leaves less than the floor is compacted first, when the engine
// can: with the context engine, levels 1 to 4 are forced (context_status
// reason "room"), then, if that is not enough, every level, as after an
// overflow (reason "overflow"); without it, [Options.OverflowPasses] run.
// One still without room fails with an [*OutputRoomError] (a context
// overflow), nothing sent, when its input was counted; an estimated one is
// sent with the floor as max_tokens, the provider judging, since an
// estimate may be over its count.
//
// A request the provider refuses as too long with a message that states
// its count of the input ([model.Error.OverflowTokens]: Anthropic's
// "input length and `max_tokens` exceed context limit: 150000 + 64000 >
// 200000", "prompt is too long: N tokens > M maximum", and OpenAI's) is
// made once more with max_tokens bound by that count (and the window by
// the stated limit); when it leaves less than the floor, the request is
// compacted as above, its estimates scaled to that count, so that level 4
// and the trim leave out what they must before level 5 is needed. A
// refusal that states no count is retried as before: every level forced.
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
