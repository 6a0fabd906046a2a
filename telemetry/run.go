package telemetry

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/tool"
)

// ToolMiddleware returns the middleware that records each tool call as a
// span "execute_tool <name>" with gen_ai.operation.name "execute_tool",
// gen_ai.tool.name, gen_ai.tool.call.id and the session as
// gen_ai.conversation.id. A call whose result is an error (a denied call
// among them) or that fails sets the span's status to error and
// error.type ("tool_error" for an error result).
func (t *Telemetry) ToolMiddleware() tool.Middleware {
	return func(next tool.CallFunc) tool.CallFunc {
		return func(ctx context.Context, c *tool.Call, input json.RawMessage) (tool.Result, error) {
			attrs := []attribute.KeyValue{
				semconv.GenAIOperationNameExecuteTool,
				semconv.GenAIToolNameKey.String(c.Name),
				semconv.GenAIToolTypeKey.String("function"),
			}
			if c.ID != "" {
				attrs = append(attrs, semconv.GenAIToolCallIDKey.String(c.ID))
			}
			if c.SessionID != "" {
				attrs = append(attrs, semconv.GenAIConversationIDKey.String(c.SessionID))
			}
			if t.content {
				attrs = append(attrs, semconv.GenAIToolCallArgumentsKey.String(string(input)))
			}
			ctx, span := t.tracer.Start(ctx, "execute_tool "+c.Name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
			defer span.End()
			res, err := next(ctx, c, input)
			switch {
			case err != nil:
				fail(span, errorType(err))
			case res.IsError:
				fail(span, "tool_error")
			}
			if t.content && err == nil {
				span.SetAttributes(semconv.GenAIToolCallResultKey.String(res.Content))
			}
			return res, err
		}
	}
}

// A Run identifies an agent turn for [Telemetry.Agent].
type Run struct {
	// SessionID is the turn's session, recorded as gen_ai.conversation.id.
	SessionID string
	// Agent is the agent's name, recorded as gen_ai.agent.name: the type of
	// a subagent; "" for the host's own agent.
	Agent string
	// AgentID is a subagent's id, recorded as gen_ai.agent.id; "" for the
	// host's own agent.
	AgentID string
	// Model is the model the turn asks, recorded as gen_ai.request.model.
	Model string
	// Prompt is the turn's input, recorded only with RecordContent.
	Prompt string
}

// Agent returns the events of the turn that run starts, under a span
// "invoke_agent" (or "invoke_agent <Agent>") with gen_ai.operation.name
// "invoke_agent"; run's context carries the span, so the turn's model and
// tool calls are its children. When the turn is done the span gets the
// turn's total token usage, its finish reason (the prompt's stop reason)
// and its number of model calls; a turn that fails or is abandoned sets
// the span's status to error. The turn starts when the sequence is ranged
// over; the sequence may be ranged over once.
func (t *Telemetry) Agent(ctx context.Context, r Run, run func(context.Context) iter.Seq2[engine.Event, error]) iter.Seq2[engine.Event, error] {
	return func(yield func(engine.Event, error) bool) {
		name := "invoke_agent"
		attrs := t.providerAttrs([]attribute.KeyValue{semconv.GenAIOperationNameInvokeAgent})
		if r.Agent != "" {
			name += " " + r.Agent
			attrs = append(attrs, semconv.GenAIAgentNameKey.String(r.Agent))
		}
		if r.AgentID != "" {
			attrs = append(attrs, semconv.GenAIAgentIDKey.String(r.AgentID))
		}
		if r.SessionID != "" {
			attrs = append(attrs, semconv.GenAIConversationIDKey.String(r.SessionID))
		}
		if r.Model != "" {
			attrs = append(attrs, semconv.GenAIRequestModelKey.String(r.Model))
		}
		if t.content {
			attrs = append(attrs, semconv.GenAIInputMessagesKey.String(messagesJSON([]model.Message{model.UserText(r.Prompt)})))
		}
		ctx, span := t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
		defer span.End()
		ended := false
		for ev, err := range run(ctx) {
			switch {
			case err != nil:
				fail(span, errorType(err))
				ended = true
			case ev.Type == engine.EventDone && ev.Result != nil:
				t.endAgent(span, ev.Result)
				ended = true
			}
			if !yield(ev, err) {
				break
			}
		}
		if !ended {
			fail(span, "cancelled")
		}
	}
}

// endAgent records the result of a turn on its span.
func (t *Telemetry) endAgent(span trace.Span, res *engine.Result) {
	reason := string(res.StopReason)
	if res.StopReason == engine.StopMaxTurns {
		reason = "length"
	}
	span.SetAttributes(
		semconv.GenAIUsageInputTokensKey.Int64(res.Usage.InputTokens),
		semconv.GenAIUsageOutputTokensKey.Int64(res.Usage.OutputTokens),
		semconv.GenAIResponseFinishReasonsKey.StringSlice([]string{reason}),
		AttrTurns.Int(res.Turns),
	)
	if t.content {
		span.SetAttributes(semconv.GenAIOutputMessagesKey.String(messagesJSON([]model.Message{model.AssistantText(res.Text)})))
	}
	if res.StopReason == engine.StopAborted {
		fail(span, "cancelled")
	}
}

// CompactingFunc is the shape of engine.ContextOptions.Compacting.
type CompactingFunc = func(ctx context.Context, sessionID string, before int) (done func(after int, err error))

// Compacting returns a function for engine.ContextOptions.Compacting that
// records each compaction as a span "compaction" (with the size before
// and after it, in tokens, whether each is the provider's count
// (engine.CompactingCounted; after never is), and kind "auto") and then
// calls next, which may be nil.
func (t *Telemetry) Compacting(next CompactingFunc) CompactingFunc {
	return func(ctx context.Context, sessionID string, before int) func(after int, err error) {
		ctx, span := t.tracer.Start(ctx, "compaction", trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
			semconv.GenAIConversationIDKey.String(sessionID),
			AttrCompactionKind.String("auto"),
			AttrCompactionBefore.Int(before),
			AttrCompactionBeforeCounted.Bool(engine.CompactingCounted(ctx)),
		))
		var inner func(after int, err error)
		if next != nil {
			inner = next(ctx, sessionID, before)
		}
		return func(after int, err error) {
			if inner != nil {
				inner(after, err)
			}
			span.SetAttributes(AttrCompactionAfter.Int(after), AttrCompactionAfterCounted.Bool(false))
			if err != nil {
				fail(span, errorType(err))
			}
			span.End()
		}
	}
}

// Compact records the manual compaction of session sessionID that compact
// does (an engine.Engine.Compact) as a span "compaction" with the
// attributes of [Telemetry.Compacting]'s, kind "manual": the size before
// it (once measured) and, when it succeeds, after it, each with whether it
// is the provider's count (CompactResult's BeforeCounted, AfterCounted). The
// context compact gets carries the span, so the spans of the passes it
// runs ([Telemetry.Pass]) are its children. It returns what compact
// returns.
func (t *Telemetry) Compact(ctx context.Context, sessionID string, compact func(context.Context) (engine.CompactResult, error)) (engine.CompactResult, error) {
	ctx, span := t.tracer.Start(ctx, "compaction", trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
		semconv.GenAIConversationIDKey.String(sessionID),
		AttrCompactionKind.String("manual"),
	))
	defer span.End()
	res, err := compact(ctx)
	if err == nil || res.Before > 0 {
		span.SetAttributes(AttrCompactionBefore.Int(res.Before), AttrCompactionBeforeCounted.Bool(res.BeforeCounted))
	}
	if err != nil {
		fail(span, errorType(err))
	} else {
		span.SetAttributes(AttrCompactionAfter.Int(res.After), AttrCompactionAfterCounted.Bool(res.AfterCounted))
	}
	return res, err
}

// AttrCompactionPass names the compaction pass of a pass span, and
// AttrMessagesBefore and AttrMessagesAfter count the messages it was given
// and returned.
const (
	AttrCompactionPass = attribute.Key("lite_agent.compaction.pass")
	AttrMessagesBefore = attribute.Key("lite_agent.compaction.messages_before")
	AttrMessagesAfter  = attribute.Key("lite_agent.compaction.messages_after")
)

// Pass returns p recording a span "compaction <name>" for each run that
// changed the messages or failed; runs that changed nothing, which happen
// before every model call, record none.
func (t *Telemetry) Pass(p compaction.Pass) compaction.Pass {
	return tracedPass{Pass: p, t: t}
}

// tracedPass is the Pass that Telemetry.Pass returns.
type tracedPass struct {
	compaction.Pass
	t *Telemetry
}

// Apply runs the pass and records a span when it did something.
func (p tracedPass) Apply(ctx context.Context, msgs []model.Message) ([]model.Message, error) {
	start := time.Now()
	out, err := p.Pass.Apply(ctx, msgs)
	if err == nil && !compaction.Changed(msgs, out) {
		return out, err
	}
	_, span := p.t.tracer.Start(ctx, "compaction "+p.Name(), trace.WithTimestamp(start), trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
		AttrCompactionPass.String(p.Name()),
		AttrMessagesBefore.Int(len(msgs)),
	))
	if err != nil {
		fail(span, errorType(err))
	} else {
		span.SetAttributes(AttrMessagesAfter.Int(len(out)))
	}
	span.End()
	return out, err
}
