package session

import "github.com/lite-agent/lite-agent-go/model"

// Fold turns a session log into the conversation it records:
//
//   - a user or assistant event adds its message;
//   - consecutive tool_result events become one user message whose content
//     is their result blocks, in order (a user or assistant event, or the
//     end of the log, closes the group);
//   - a summary event replaces everything before it with its messages;
//   - every other event (snapshots, audit records, context views, raw
//     events) is skipped.
//
// The messages share their blocks and strings with events; copy them
// before modifying them in place.
func Fold(events []StoredEvent) []model.Message {
	out := make([]model.Message, 0, len(events))
	var results []model.Block
	flush := func() {
		if results != nil {
			out = append(out, model.UserBlocks(results...))
			results = nil
		}
	}
	for _, se := range events {
		switch ev := se.Event.(type) {
		case UserEvent:
			flush()
			out = append(out, ev.Message)
		case AssistantEvent:
			flush()
			out = append(out, ev.Message)
		case ToolResultEvent:
			results = append(results, ev.Result)
		case SummaryEvent:
			results = nil
			out = append(out[:0:0], ev.Messages...)
		}
	}
	flush()
	return out
}
