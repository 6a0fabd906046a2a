// Package telemetry records OpenTelemetry traces and metrics of agents:
// a span for each agent turn (and subagent run), each model call, each tool
// call and each compaction, with the attributes of the OpenTelemetry
// semantic conventions for generative AI (gen_ai.*), and the metrics
// gen_ai.client.token.usage and gen_ai.client.operation.duration of model
// calls.
//
// Nothing is recorded unless the host passes a TracerProvider or a
// MeterProvider in [Options]; this package never reads the environment nor
// installs a global provider. Prompts, responses, tool inputs and tool
// results are put on spans only when [Options.RecordContent] is set; error
// messages never are, only the kind of error (error.type).
//
// The spans nest through the context: a model or tool call's span is a
// child of its turn's span, and a subagent's run is a child of the Agent
// tool call that started it. The package is wired in by liteagent through
// Options.Telemetry; a host that assembles an engine itself installs
// [Telemetry.ModelMiddleware] with model.Use, [Telemetry.ToolMiddleware]
// with tool.Use, wraps turns with [Telemetry.Agent], compaction passes
// with [Telemetry.Pass], the context engine's Compacting callback with
// [Telemetry.Compacting] and manual compactions with [Telemetry.Compact].
package telemetry

import (
	"context"
	"errors"
	"reflect"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/lite-agent/lite-agent-go/model"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/lite-agent/lite-agent-go/telemetry"

// The names of the metrics, as the semantic conventions fix them.
const (
	MetricTokenUsage        = "gen_ai.client.token.usage"
	MetricOperationDuration = "gen_ai.client.operation.duration"
)

// The attributes of this package that the conventions do not define.
const (
	// AttrCompactionBefore and AttrCompactionAfter are a compaction's
	// estimated request size, in tokens, before and after it.
	AttrCompactionBefore = attribute.Key("lite_agent.compaction.before_tokens")
	AttrCompactionAfter  = attribute.Key("lite_agent.compaction.after_tokens")
	// AttrCompactionBeforeCounted and AttrCompactionAfterCounted report
	// that the sizes before and after are the provider's counts, as the
	// compaction events' BeforeCounted and AfterCounted (the audit log's
	// beforeCounted, afterCounted); false, estimates. Each is set with
	// its size. An automatic compaction's after is an estimate (scaled
	// to the count of before, when counted).
	AttrCompactionBeforeCounted = attribute.Key("lite_agent.compaction.before_counted")
	AttrCompactionAfterCounted  = attribute.Key("lite_agent.compaction.after_counted")
	// AttrCompactionKind is "auto" for a compaction of a request under
	// pressure, "manual" for one the host asked for.
	AttrCompactionKind = attribute.Key("lite_agent.compaction.kind")
	// AttrTurns is the number of model calls of an agent turn.
	AttrTurns = attribute.Key("lite_agent.turns")
)

// Options configures [New]. The zero value records nothing.
type Options struct {
	// TracerProvider, when not nil, receives the spans.
	TracerProvider trace.TracerProvider
	// MeterProvider, when not nil, receives the metrics.
	MeterProvider metric.MeterProvider
	// ProviderName is the gen_ai.provider.name of the model calls, such as
	// "anthropic" or "openai"; "" means [ProviderName] of the provider the
	// host wires in, where that is known, else no attribute.
	ProviderName string
	// RecordContent puts the content of calls on spans: the messages and
	// system prompt of model requests and responses
	// (gen_ai.input.messages, gen_ai.output.messages,
	// gen_ai.system_instructions), each turn's prompt and answer, and tool
	// inputs and results (gen_ai.tool.call.arguments and .result). It is
	// off by default: content may hold secrets and personal data. A model
	// call's content is recorded as the model middleware outside
	// telemetry left it, so a redactor installed there applies; a turn's
	// prompt and answer, and tool inputs and results, are recorded as
	// they are.
	RecordContent bool
}

// Enabled reports whether o records anything.
func (o Options) Enabled() bool { return o.TracerProvider != nil || o.MeterProvider != nil }

// Telemetry records the spans and metrics of one agent family. Create it
// with [New]. It is safe for concurrent use.
type Telemetry struct {
	tracer   trace.Tracer // a no-op tracer without a TracerProvider
	provider string
	content  bool
	// tokens and duration are nil without a MeterProvider.
	tokens   metric.Int64Histogram
	duration metric.Float64Histogram
}

// New returns a Telemetry recording to the providers of opts. It fails only
// when the MeterProvider refuses an instrument.
func New(opts Options) (*Telemetry, error) {
	t := &Telemetry{provider: opts.ProviderName, content: opts.RecordContent}
	tp := opts.TracerProvider
	if tp == nil {
		tp = noop.NewTracerProvider()
	}
	t.tracer = tp.Tracer(ScopeName)
	if opts.MeterProvider != nil {
		m := opts.MeterProvider.Meter(ScopeName)
		var err error
		// The bucket boundaries the conventions advise.
		t.tokens, err = m.Int64Histogram(MetricTokenUsage,
			metric.WithUnit("{token}"),
			metric.WithDescription("Number of input and output tokens used."),
			metric.WithExplicitBucketBoundaries(1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864))
		if err != nil {
			return nil, err
		}
		t.duration, err = m.Float64Histogram(MetricOperationDuration,
			metric.WithUnit("s"),
			metric.WithDescription("GenAI operation duration."),
			metric.WithExplicitBucketBoundaries(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92))
		if err != nil {
			return nil, err
		}
	}
	return t, nil
}

// ProviderName returns the gen_ai.provider.name of p: the last element of
// the package path of the innermost provider p wraps (through Unwrap()
// model.Provider methods), so "anthropic" for model/anthropic and "openai"
// for model/openai, or "" for a provider whose type has no package path.
func ProviderName(p model.Provider) string {
	for p != nil {
		u, ok := p.(interface{ Unwrap() model.Provider })
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	if p == nil {
		return ""
	}
	typ := reflect.TypeOf(p)
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	path := typ.PkgPath()
	return path[strings.LastIndexByte(path, '/')+1:]
}

// providerAttrs appends the gen_ai.provider.name attribute, if known, to
// attrs.
func (t *Telemetry) providerAttrs(attrs []attribute.KeyValue) []attribute.KeyValue {
	if t.provider != "" {
		attrs = append(attrs, semconv.GenAIProviderNameKey.String(t.provider))
	}
	return attrs
}

// errorType returns the error.type of err: the class of a model error,
// "cancelled" or "deadline_exceeded" for a done context, else the Go type
// of err. Error messages are never recorded: they may quote content.
func errorType(err error) string {
	var me *model.Error
	switch {
	case errors.As(err, &me):
		return string(me.Class)
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded"
	}
	return reflect.TypeOf(err).String()
}

// fail marks span as failed with the error.type of err.
func fail(span trace.Span, typ string) {
	span.SetAttributes(semconv.ErrorTypeKey.String(typ))
	span.SetStatus(codes.Error, typ)
}
