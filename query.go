package liteagent

import "context"

// QueryOptions configures [Query]: the agent's options plus the prompt.
type QueryOptions struct {
	Options
	// Prompt is the one user prompt to run.
	Prompt string
}

// Query runs one prompt on a temporary agent, in a new session, and returns
// its result. The agent is closed before Query returns; its session stays
// in the data home unless sessions are disabled.
func Query(ctx context.Context, opts QueryOptions) (*Result, error) {
	a, err := New(ctx, opts.Options)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	return a.Send(ctx, opts.Prompt)
}
