package liteagent

import "context"

// QueryOptions configures [Query]: the agent's options plus the prompt.
type QueryOptions struct {
	Options
	// Prompt is the one user prompt to run.
	Prompt string
}

// Query runs one prompt on a temporary agent, in a new session, and returns
// its result. When the prompt started subagent groups, Query waits for them
// (until ctx is done) and returns the result of the autonomous turn their
// results ran. The agent is closed before Query
// returns; its session stays in the data home unless sessions are disabled.
func Query(ctx context.Context, opts QueryOptions) (*Result, error) {
	a, err := New(ctx, opts.Options)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	a.mu.Lock()
	a.autonomous = map[string]*Result{}
	a.mu.Unlock()
	res, err := a.Send(ctx, opts.Prompt)
	if err != nil || a.pool == nil || a.pool.Groups(res.SessionID) == 0 {
		return res, err
	}
	if err := a.AwaitIdle(ctx); err != nil {
		return res, err
	}
	a.mu.Lock()
	auto := a.autonomous[res.SessionID]
	a.mu.Unlock()
	if auto != nil {
		if auto.Output == nil {
			auto.Output = res.Output // the answer given before the group's results came
		}
		return auto, nil
	}
	return res, nil
}
