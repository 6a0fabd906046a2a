package compaction_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/spill"
)

// benchRequest returns a request of 10,000 messages: 2,500 turns of a
// prompt, a call, its result (40 to 400 characters, distinct) and an
// answer; about 640,000 characters, 160,000 estimated tokens.
func benchRequest() []model.Message {
	msgs := make([]model.Message, 0, 10_000)
	for i := range 2500 {
		id := "c" + itoa(i)
		body := id + " " + strings.Repeat("output ", 5+(i%10)*8)
		msgs = append(msgs,
			u("step "+id+": "+strings.Repeat("please ", 10)),
			call(id),
			res(id, body),
			a("done with "+id+"; "+strings.Repeat("next ", 8)),
		)
	}
	return msgs
}

func benchPass(b *testing.B, p compaction.Pass) {
	msgs := benchRequest()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out, err := p.Apply(ctx, msgs)
		if err != nil {
			b.Fatal(err)
		}
		if !compaction.Changed(msgs, out) {
			b.Fatal("the pass changed nothing")
		}
	}
}

func BenchmarkSnip(b *testing.B) { benchPass(b, compaction.Snip(compaction.SnipOptions{})) }

func BenchmarkMicro(b *testing.B) { benchPass(b, compaction.Micro(compaction.MicroOptions{})) }

func BenchmarkToolResultBudget(b *testing.B) {
	benchPass(b, compaction.ToolResultBudget(spill.NewMemoryStore(), compaction.ToolResultBudgetOptions{}))
}

func BenchmarkTokenBudget(b *testing.B) {
	p, err := compaction.TokenBudget(100_000)
	if err != nil {
		b.Fatal(err)
	}
	benchPass(b, p)
}

func BenchmarkSummary(b *testing.B) {
	provider := modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) {
		return modeltest.Text("summary").Chunks(), nil
	})
	benchPass(b, compaction.Summary(provider, compaction.SummaryOptions{Base: []compaction.Pass{}, Threshold: 100_000}))
}

func BenchmarkReactive(b *testing.B) { benchPass(b, compaction.Reactive(compaction.ReactiveOptions{})) }

func BenchmarkDefault(b *testing.B) {
	p := compaction.PassFunc("default", func(ctx context.Context, msgs []model.Message) ([]model.Message, error) {
		return compaction.Run(ctx, msgs, compaction.Default(spill.NewMemoryStore())...)
	})
	benchPass(b, p)
}

// BenchmarkUnchanged is the cost of the default pipeline on a request it
// leaves as it is: 10,000 messages with no tool results, under every
// threshold but snip's, which finds a single turn.
func BenchmarkUnchanged(b *testing.B) {
	msgs := []model.Message{u("start")}
	for range 9999 {
		msgs = append(msgs, a("thinking about it some more"))
	}
	passes := compaction.Default(spill.NewMemoryStore())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		out, err := compaction.Run(ctx, msgs, passes...)
		if err != nil || compaction.Changed(msgs, out) {
			b.Fatal("changed", err)
		}
	}
}

func BenchmarkEstimateTokens(b *testing.B) {
	msgs := benchRequest()
	b.ReportAllocs()
	for b.Loop() {
		if compaction.EstimateTokens(msgs) == 0 {
			b.Fatal("no tokens")
		}
	}
}
