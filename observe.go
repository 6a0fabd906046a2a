package liteagent

import (
	"context"
	"iter"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/telemetry"
	"github.com/lite-agent/lite-agent-go/tool"
)

// observers is what the agent wraps its calls in: the host's middleware
// and, innermost, its telemetry. It is fixed at construction; subagents
// share it.
type observers struct {
	model []model.Middleware
	tool  []tool.Middleware
	// tel records spans and metrics; nil when the host asked for none.
	tel *telemetry.Telemetry
}

// newObservers returns the observers of opts.
func newObservers(opts Options) (observers, error) {
	o := observers{model: append([]model.Middleware(nil), opts.ModelMiddleware...), tool: append([]tool.Middleware(nil), opts.ToolMiddleware...)}
	if opts.Telemetry.Enabled() {
		topts := opts.Telemetry
		if topts.ProviderName == "" {
			topts.ProviderName = telemetry.ProviderName(opts.Model)
		}
		tel, err := telemetry.New(topts)
		if err != nil {
			return observers{}, err
		}
		o.tel = tel
		o.model = append(o.model, tel.ModelMiddleware())
		o.tool = append(o.tool, tel.ToolMiddleware())
	}
	return o, nil
}

// compacting returns the engine's Compacting callback: next, under a
// compaction span when the agent records telemetry.
func (o observers) compacting(next telemetry.CompactingFunc) telemetry.CompactingFunc {
	if o.tel == nil {
		return next
	}
	return o.tel.Compacting(next)
}

// compact runs the manual compaction compact of session id under a
// compaction span when the agent records telemetry.
func (o observers) compact(ctx context.Context, id string, compact func(context.Context) (CompactResult, error)) (CompactResult, error) {
	if o.tel == nil {
		return compact(ctx)
	}
	return o.tel.Compact(ctx, id, compact)
}

// tracePasses makes the compaction passes of eopts, the summary pass of
// manual compactions among them, record spans when the agent records
// telemetry.
func (o observers) tracePasses(eopts *engine.Options) {
	if o.tel == nil {
		return
	}
	for _, ps := range []*[]compaction.Pass{&eopts.Passes, &eopts.OverflowPasses} {
		traced := make([]compaction.Pass, len(*ps))
		for i, p := range *ps {
			traced[i] = o.tel.Pass(p)
		}
		*ps = traced
	}
	if c := eopts.Context; c != nil && c.Summary != nil {
		summary := c.Summary
		c.Summary = func(instructions string) compaction.Pass {
			if p := summary(instructions); p != nil {
				return o.tel.Pass(p)
			}
			return nil
		}
	}
}

// tracedTurn runs hookedTurn under the turn's span when the agent records
// telemetry. agent is a subagent's type, "" for the agent's own turns;
// modelName "" means the agent's model.
func (a *Agent) tracedTurn(ctx context.Context, eng *engine.Engine, ident hook.Identity, agent, modelName, prompt string, start func(context.Context) iter.Seq2[Event, error]) iter.Seq2[Event, error] {
	if a.obs.tel == nil {
		return a.hookedTurn(ctx, eng, ident, prompt, start)
	}
	if modelName == "" {
		modelName = a.engineOpts.Model
	}
	run := telemetry.Run{SessionID: ident.SessionID, Agent: agent, AgentID: ident.AgentID, Model: modelName, Prompt: prompt}
	return a.obs.tel.Agent(ctx, run, func(ctx context.Context) iter.Seq2[Event, error] {
		return a.hookedTurn(ctx, eng, ident, prompt, start)
	})
}
