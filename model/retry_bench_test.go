package model_test

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// BenchmarkStream measures what Checked and WithRetry add to a successful
// stream of n text deltas, against ranging the provider's stream directly.
func BenchmarkStream(b *testing.B) {
	for _, n := range []int{1, 64, 1024} {
		chunks := modeltest.Text(strings.Repeat("word ", n)).Chunks()
		raw := streamFunc(func(context.Context, model.Request) iter.Seq2[model.Chunk, error] {
			return func(yield func(model.Chunk, error) bool) {
				for _, c := range chunks {
					if !yield(c, nil) {
						return
					}
				}
			}
		})
		for _, p := range []struct {
			name string
			p    model.Provider
		}{
			{"raw", raw},
			{"Checked", model.Checked(raw)},
			{"WithRetry", model.WithRetry(raw, model.RetryOptions{})},
		} {
			b.Run(fmt.Sprintf("deltas=%d/%s", n, p.name), func(b *testing.B) {
				ctx := context.Background()
				req := testRequest()
				for b.Loop() {
					count := 0
					for _, err := range p.p.Stream(ctx, req) {
						if err != nil {
							b.Fatal(err)
						}
						count++
					}
					if count != len(chunks) {
						b.Fatalf("%d chunks, want %d", count, len(chunks))
					}
				}
			})
		}
	}
}
