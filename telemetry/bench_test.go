package telemetry_test

import (
	"context"
	"iter"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/telemetry"
)

// fixedProvider streams ten text chunks and a done chunk, with no work of
// its own, so that a benchmark measures what wraps it.
type fixedProvider struct{}

func (fixedProvider) Stream(context.Context, model.Request) iter.Seq2[model.Chunk, error] {
	return func(yield func(model.Chunk, error) bool) {
		for range 10 {
			if !yield(model.Chunk{Kind: model.ChunkText, Text: "word "}, nil) {
				return
			}
		}
		yield(model.Chunk{Kind: model.ChunkDone, Message: model.AssistantText("word"), Usage: model.Usage{InputTokens: 100, OutputTokens: 10}, StopReason: model.StopEndTurn}, nil)
	}
}

// BenchmarkModelCall measures the cost telemetry adds to one model call:
// bare (no middleware, which is what an agent without a provider runs),
// with spans only (batched to an exporter that keeps nothing), and with
// spans and both metrics.
func BenchmarkModelCall(b *testing.B) {
	req := model.Request{Model: "m", Messages: []model.Message{model.UserText("hi")}}
	discard := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	b.Cleanup(func() { discard.Shutdown(context.Background()) })
	meters := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	cases := []struct {
		name string
		opts *telemetry.Options
	}{
		{"bare", nil},
		{"spans", &telemetry.Options{TracerProvider: discard}},
		{"spans+metrics", &telemetry.Options{TracerProvider: discard, MeterProvider: meters}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var p model.Provider = fixedProvider{}
			if c.opts != nil {
				tel, err := telemetry.New(*c.opts)
				if err != nil {
					b.Fatal(err)
				}
				p = model.Use(p, tel.ModelMiddleware())
			}
			for b.Loop() {
				for _, err := range p.Stream(b.Context(), req) {
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
