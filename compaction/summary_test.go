package compaction_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// small options: a threshold of 10 tokens and no base passes.
func smallSummary(p model.Provider, o compaction.SummaryOptions) compaction.Pass {
	if o.Threshold == 0 {
		o.Threshold = 10
	}
	if o.Base == nil {
		o.Base = []compaction.Pass{}
	}
	return compaction.Summary(p, o)
}

func TestSummaryThresholds(t *testing.T) {
	// Six turns of 80,000 characters (20,000 tokens): 120,000 tokens.
	var atThreshold []model.Message
	for i := range 6 {
		atThreshold = append(atThreshold, turnOf("t"+itoa(i), 80_000)...)
	}
	over := concat(atThreshold[:5], turnOf("t5", 80_001))
	tests := []struct {
		name      string
		opts      compaction.SummaryOptions
		msgs      []model.Message
		summarize bool
		keep      int // messages kept from the end
	}{
		{"at 120,000 tokens", compaction.SummaryOptions{}, atThreshold, false, 0},
		{"over 120,000 tokens", compaction.SummaryOptions{}, over, true, 3},
		{"four turns are never summarized", compaction.SummaryOptions{}, concat(turnOf("a", 200_000), turnOf("b", 200_000), turnOf("c", 200_000), turnOf("d", 200_000)), false, 0},
		{"five turns are", compaction.SummaryOptions{}, concat(turnOf("a", 200_000), turnOf("b", 200_000), turnOf("c", 200_000), turnOf("d", 200_000), turnOf("e", 1)), true, 3},
		{"keep one turn", compaction.SummaryOptions{Threshold: 10, KeepRecentTurns: 1}, textTurns(3, "xxxxxxxxxxxxxxxx"), true, 2},
		{"tool turns stay whole", compaction.SummaryOptions{Threshold: 10, KeepRecentTurns: 1},
			concat(toolTurn("c1", strings.Repeat("x", 100)), toolTurn("c2", "y"), toolTurn("c3", "z")), true, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := modeltest.New()
			p.Reply(modeltest.Text("They talked."))
			out, changed := apply(t, compaction.Summary(p, tt.opts), tt.msgs)
			if changed != tt.summarize || (len(p.Requests()) == 1) != tt.summarize {
				t.Fatalf("changed = %v after %d requests, want %v", changed, len(p.Requests()), tt.summarize)
			}
			if !changed {
				return
			}
			want := concat([]model.Message{u("[Summary of earlier conversation]\nThey talked.")}, tt.msgs[len(tt.msgs)-tt.keep:])
			if !reflect.DeepEqual(out, want) {
				t.Errorf("got\n%.100q\nwant\n%.100q", texts(out), texts(want))
			}
		})
	}
}

func TestSummaryRunsBaseFirst(t *testing.T) {
	p := modeltest.New()
	p.Reply(modeltest.Text("S"))
	// 60 messages: the default base (snip, micro) snips them; under the
	// threshold no summary is asked for.
	msgs := textTurns(30, "")
	out, changed := apply(t, compaction.Summary(p, compaction.SummaryOptions{}), msgs)
	if !changed || len(out) != 23 || len(p.Requests()) != 0 {
		t.Fatalf("changed %v, %d messages, %d requests; want the snipped 23 and no request", changed, len(out), len(p.Requests()))
	}
	// With a low threshold, the summary covers the base's output.
	out, changed = apply(t, smallSummary(p, compaction.SummaryOptions{Base: []compaction.Pass{compaction.Snip(compaction.SnipOptions{})}}), msgs)
	if !changed || len(out) != 7 || len(p.Requests()) != 1 {
		t.Fatalf("changed %v, %d messages, %d requests; want the summary and 3 turns", changed, len(out), len(p.Requests()))
	}
	prompt := p.Requests()[0].Messages[0].Text
	if !strings.Contains(prompt, "[19 earlier turn(s) omitted to save context]") || strings.Contains(prompt, "q10") {
		t.Errorf("the summary prompt is not of the base's output:\n%s", prompt)
	}
}

func TestSummaryRequest(t *testing.T) {
	p := modeltest.New()
	p.Reply(modeltest.Text("S"))
	pass := smallSummary(p, compaction.SummaryOptions{Model: "m-1", MaxTokens: 321, Instructions: "Keep file names."})
	msgs := concat(toolTurn("c1", "result body"), textTurns(4, "turn "))
	ctx := compaction.WithInstructions(context.Background(), "Focus on the bug.")
	if _, err := pass.Apply(ctx, msgs); err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	req := reqs[0]
	if req.Model != "m-1" || req.MaxTokens != 321 || req.System == "" || len(req.Messages) != 1 || len(req.Tools) != 0 {
		t.Fatalf("request = %+v", req)
	}
	prompt := req.Messages[0].Text
	for _, want := range []string{"user: do c1", `tool call read_file: {"path":"c1"}`, "tool result: result body", "user: turn q0", "assistant: turn a0"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, "turn q2") {
		t.Errorf("prompt holds a kept turn:\n%s", prompt)
	}
	if !strings.HasSuffix(prompt, "\n\nAdditional instructions: Keep file names.\nFocus on the bug.") {
		t.Errorf("instructions are not at the end of the prompt:\n%s", prompt)
	}
	long := compaction.SummaryPrompt([]model.Message{u(strings.Repeat("x", 5000))}, "")
	if !strings.Contains(long, "[…3000 more characters]") || strings.Count(long, "x") > 2100 {
		t.Errorf("a long message is not cut in the prompt")
	}
}

func TestSummaryBreaker(t *testing.T) {
	msgs := textTurns(6, "xxxxxxxxxxxxxxxx")
	fail := model.NewError(model.ClassServer, 500, "down", nil)
	tests := []struct {
		name     string
		script   func(p *modeltest.Provider)
		calls    int
		requests int      // requests the provider received
		changed  []bool   // per call
		summary  []string // per changed call
	}{
		{"opens after two failures", func(p *modeltest.Provider) { p.Fail(fail); p.Fail(fail); p.Reply(modeltest.Text("never")) },
			4, 2, []bool{false, false, false, false}, nil},
		{"an empty summary is a failure", func(p *modeltest.Provider) {
			p.Reply(modeltest.Text("  "))
			p.Fail(fail)
			p.Reply(modeltest.Text("never"))
		},
			3, 2, []bool{false, false, false}, nil},
		{"a success resets the count", func(p *modeltest.Provider) {
			p.Fail(fail)
			p.Reply(modeltest.Text("one"))
			p.Fail(fail)
			p.Reply(modeltest.Text("two"))
		}, 4, 4, []bool{false, true, false, true}, []string{"one", "two"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := modeltest.New()
			tt.script(p)
			pass := smallSummary(p, compaction.SummaryOptions{})
			var summaries []string
			for i := range tt.calls {
				out, changed := apply(t, pass, msgs)
				if changed != tt.changed[i] {
					t.Fatalf("call %d: changed = %v", i, changed)
				}
				if changed {
					summaries = append(summaries, strings.TrimPrefix(out[0].Text, compaction.SummaryHeader))
				}
			}
			if got := len(p.Requests()); got != tt.requests {
				t.Errorf("%d requests, want %d", got, tt.requests)
			}
			if !reflect.DeepEqual(summaries, tt.summary) {
				t.Errorf("summaries %q, want %q", summaries, tt.summary)
			}
		})
	}
}

func TestSummaryCancelled(t *testing.T) {
	p := modeltest.New()
	ctx, cancel := context.WithCancel(context.Background())
	p.Respond(func(context.Context, model.Request) ([]model.Chunk, error) {
		cancel()
		return nil, context.Canceled
	})
	p.Reply(modeltest.Text("after"))
	p.Reply(modeltest.Text("later"))
	pass := smallSummary(p, compaction.SummaryOptions{MaxFailures: 1})
	msgs := textTurns(6, "xxxxxxxxxxxxxxxx")
	if _, err := compaction.Run(ctx, msgs, pass); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// The cancellation did not open the breaker (MaxFailures 1).
	out, changed := apply(t, pass, msgs)
	if !changed || out[0].Text != compaction.SummaryHeader+"after" {
		t.Fatalf("after a cancellation: changed %v, %q", changed, out[0].Text)
	}
}
