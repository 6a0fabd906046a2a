package anthropic

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/lite-agent/lite-agent-go/model"
)

// BenchmarkStream measures a whole streamed response read from memory, for
// responses of 10 to 1,000 text deltas plus a tool call. "sdk" is the raw
// operation underneath, the SDK's own stream read into its accumulator;
// "provider" is the same response through Provider.Stream, so the ratio of
// the two is this package's overhead.
func BenchmarkStream(b *testing.B) {
	for _, deltas := range []int{10, 100, 1000} {
		ev := []string{messageStart(1000, 800, 0), textStart(0)}
		for i := range deltas {
			ev = append(ev, textDelta(0, fmt.Sprintf("word%d ", i)))
		}
		ev = append(ev, blockStop(0), toolStart(1, "toolu_1", "read_file"),
			inputDelta(1, `{"path":`), inputDelta(1, `"README.md"}`), blockStop(1),
			messageDelta("tool_use", deltas), messageStop())
		body := []byte(strings.Join(ev, ""))
		p := replayProvider(body)
		req := model.Request{Model: "m", System: "s", Messages: []model.Message{model.UserText("q")}}

		b.Run(fmt.Sprintf("deltas=%d/sdk", deltas), func(b *testing.B) {
			params, err := p.params(req)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				stream := p.client.Messages.NewStreaming(context.Background(), params)
				var acc sdk.Message
				for stream.Next() {
					if err := acc.Accumulate(stream.Current()); err != nil {
						b.Fatal(err)
					}
				}
				if err := stream.Err(); err != nil {
					b.Fatal(err)
				}
				stream.Close()
			}
		})
		b.Run(fmt.Sprintf("deltas=%d/provider", deltas), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				done := false
				for c, err := range p.Stream(context.Background(), req) {
					if err != nil {
						b.Fatal(err)
					}
					done = c.Kind == model.ChunkDone
				}
				if !done {
					b.Fatal("no ChunkDone")
				}
			}
		})
	}
}

// BenchmarkNew measures building a provider, which builds an SDK client.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		New(Options{APIKey: testKey, BaseURL: "http://api.invalid"})
	}
}
