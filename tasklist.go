package liteagent

import (
	"context"
	"fmt"

	"github.com/lite-agent/lite-agent-go/task"
)

// TaskList returns the tasks, sorted by numeric id, of the task list that
// session sessionID uses ("" means the current session): the shared list
// [Options.TaskListID] (or LITE_AGENT_TASK_LIST_ID) names, else the
// session's private list, named after it; a subagent's session uses its
// parent's list. It reads through the backend the agent's own task tools
// write: the data home, with the agent's namespace, project and codec, a
// [Store], or memory when sessions are off. A host needs neither the
// layout nor the codec, and reads what the agent reads, under the list's
// lock. A list the agent has not opened itself is opened for the read
// alone: asking for the lists of ever more sessions keeps nothing in the
// agent.
//
// A list nobody wrote is empty, and reading it creates nothing, except
// that the shared list is marked shared on its first use, as the agent's
// first turn marks it. The errors are [ErrClosed]; for an id the agent
// refuses (empty, or not a valid file id where ids name files), the
// *storage.Error of [Agent.Resume]; and the list's own, such as a
// *storage.Error for a record that cannot be read or decoded.
func (a *Agent) TaskList(ctx context.Context, sessionID string) ([]task.Task, error) {
	if !a.made() {
		return nil, ErrClosed
	}
	if sessionID == "" {
		sessionID = a.SessionID()
	}
	if err := a.checkID(sessionID); err != nil {
		return nil, err
	}
	st, err := a.readTaskList(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	tasks, err := st.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("liteagent: task list %s: %w", a.listID(sessionID), err)
	}
	return tasks, nil
}
