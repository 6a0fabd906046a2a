package telemetry

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/lite-agent/lite-agent-go/model"
)

// ModelMiddleware returns the middleware that records each model call: a
// client span "chat <model>" with gen_ai.operation.name "chat", the provider,
// the request's model and parameters, and on its end the response's model,
// finish reason and token usage; and the metrics gen_ai.client.token.usage
// (one record per token type) and gen_ai.client.operation.duration. A
// failed call sets the span's status to error and error.type.
//
// Installed innermost (as liteagent does), it records the request as the
// host's middleware left it, and one span per call whatever the retries.
func (t *Telemetry) ModelMiddleware() model.Middleware {
	return model.Middleware{Stream: func(next model.StreamFunc) model.StreamFunc {
		return func(ctx context.Context, req model.Request) iter.Seq2[model.Chunk, error] {
			return t.stream(ctx, req, next)
		}
	}}
}

// stream is one model call under its span.
func (t *Telemetry) stream(ctx context.Context, req model.Request, next model.StreamFunc) iter.Seq2[model.Chunk, error] {
	return func(yield func(model.Chunk, error) bool) {
		start := time.Now()
		common := t.providerAttrs([]attribute.KeyValue{
			semconv.GenAIOperationNameChat,
			semconv.GenAIRequestModelKey.String(req.Model),
		})
		attrs := append([]attribute.KeyValue(nil), common...)
		if req.MaxTokens > 0 {
			attrs = append(attrs, semconv.GenAIRequestMaxTokensKey.Int(req.MaxTokens))
		}
		if req.Temperature != nil {
			attrs = append(attrs, semconv.GenAIRequestTemperatureKey.Float64(*req.Temperature))
		}
		if req.TopP != nil {
			attrs = append(attrs, semconv.GenAIRequestTopPKey.Float64(*req.TopP))
		}
		if t.content {
			attrs = append(attrs, semconv.GenAIInputMessagesKey.String(messagesJSON(req.Messages)))
			if req.System != "" {
				attrs = append(attrs, semconv.GenAISystemInstructionsKey.String(partsJSON([]part{{Type: "text", Content: req.System}})))
			}
		}
		ctx, span := t.tracer.Start(ctx, "chat "+req.Model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
		var (
			done   *model.Chunk
			failed string
		)
		defer func() {
			t.endModelCall(ctx, span, start, common, req.Model, done, failed)
		}()
		for c, err := range next(ctx, req) {
			switch {
			case err != nil:
				failed = errorType(err)
			case c.Kind == model.ChunkDone:
				d := c
				done = &d
			}
			if !yield(c, err) {
				if done == nil && failed == "" {
					failed = "cancelled" // the caller stopped reading
				}
				return
			}
		}
	}
}

// endModelCall ends the span of a model call and records its metrics.
// common holds the attributes the metrics share with the span.
func (t *Telemetry) endModelCall(ctx context.Context, span trace.Span, start time.Time, common []attribute.KeyValue, reqModel string, done *model.Chunk, failed string) {
	defer span.End()
	seconds := time.Since(start).Seconds()
	mattrs := common
	if done != nil {
		respModel := done.Model
		if respModel == "" {
			respModel = reqModel
		}
		mattrs = append(mattrs, semconv.GenAIResponseModelKey.String(respModel))
		span.SetAttributes(
			semconv.GenAIResponseModelKey.String(respModel),
			semconv.GenAIResponseFinishReasonsKey.StringSlice([]string{finishReason(done.StopReason)}),
			semconv.GenAIUsageInputTokensKey.Int64(done.Usage.InputTokens),
			semconv.GenAIUsageOutputTokensKey.Int64(done.Usage.OutputTokens),
		)
		if done.Usage.CacheReadTokens > 0 {
			span.SetAttributes(semconv.GenAIUsageCacheReadInputTokensKey.Int64(done.Usage.CacheReadTokens))
		}
		if done.Usage.CacheCreationTokens > 0 {
			span.SetAttributes(semconv.GenAIUsageCacheCreationInputTokensKey.Int64(done.Usage.CacheCreationTokens))
		}
		if t.content {
			span.SetAttributes(semconv.GenAIOutputMessagesKey.String(messagesJSON([]model.Message{done.Message})))
		}
	}
	if failed != "" {
		fail(span, failed)
		mattrs = append(mattrs, semconv.ErrorTypeKey.String(failed))
	}
	if t.duration != nil {
		t.duration.Record(ctx, seconds, metric.WithAttributes(mattrs...))
	}
	if t.tokens != nil && done != nil {
		t.tokens.Record(ctx, done.Usage.InputTokens, metric.WithAttributes(append(mattrs, semconv.GenAITokenTypeInput)...))
		t.tokens.Record(ctx, done.Usage.OutputTokens, metric.WithAttributes(append(mattrs, semconv.GenAITokenTypeOutput)...))
	}
}

// finishReason maps a stop reason to the conventions' finish reasons.
func finishReason(r model.StopReason) string {
	switch r {
	case model.StopEndTurn:
		return "stop"
	case model.StopToolUse:
		return "tool_call"
	case model.StopMaxTokens:
		return "length"
	case "":
		return "stop"
	}
	return string(r)
}

// A part is one part of a message in the conventions' JSON form of
// gen_ai.input.messages and gen_ai.output.messages.
type part struct {
	Type      string          `json:"type"`
	Content   string          `json:"content,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Response  string          `json:"response,omitempty"`
}

// message is one message in the conventions' JSON form.
type message struct {
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

// messagesJSON returns msgs in the conventions' JSON form.
func messagesJSON(msgs []model.Message) string {
	out := make([]message, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, message{Role: string(m.Role), Parts: parts(m)})
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// partsJSON returns ps as a JSON array.
func partsJSON(ps []part) string {
	b, _ := json.Marshal(ps)
	return string(b)
}

// parts returns the parts of m.
func parts(m model.Message) []part {
	if m.Blocks == nil {
		return []part{{Type: "text", Content: m.Text}}
	}
	ps := make([]part, 0, len(m.Blocks))
	for _, b := range m.Blocks {
		switch b.Type {
		case model.BlockText:
			ps = append(ps, part{Type: "text", Content: b.Text})
		case model.BlockToolCall:
			args := b.Input
			if !json.Valid(args) {
				args = nil
			}
			ps = append(ps, part{Type: "tool_call", ID: b.ID, Name: b.Name, Arguments: args})
		case model.BlockToolResult:
			ps = append(ps, part{Type: "tool_call_response", ID: b.ID, Response: b.Content})
		default:
			ps = append(ps, part{Type: string(b.Type)})
		}
	}
	return ps
}
