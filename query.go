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
	a.sched.keepAutonomous()
	res, err := a.Send(ctx, opts.Prompt)
	if err != nil || a.pool == nil || a.pool.Groups(res.SessionID) == 0 {
		return res, err
	}
	if err := a.AwaitIdle(ctx); err != nil {
		return res, err
	}
	auto := a.sched.autonomousResult(res.SessionID)
	if auto != nil {
		if auto.Output == nil {
			auto.Output = res.Output // the answer given before the group's results came
		}
		return auto, nil
	}
	return res, nil
}
