package model_test

import (
	"context"
	"errors"
	"iter"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// trace records the order in which middleware layers run.
type trace struct {
	mu    sync.Mutex
	steps []string
}

func (tr *trace) add(s string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.steps = append(tr.steps, s)
}

// tagging returns a middleware named name that records its request and
// stream phases, appends name to the request's system prompt, and appends
// name to every text chunk and to the final message.
func tagging(tr *trace, name string, withRequest, withStream bool) model.Middleware {
	var m model.Middleware
	if withRequest {
		m.Request = func(ctx context.Context, req model.Request) (model.Request, error) {
			tr.add(name + ".request")
			req.System += "+" + name
			return req, nil
		}
	}
	if withStream {
		m.Stream = func(next model.StreamFunc) model.StreamFunc {
			return func(ctx context.Context, req model.Request) iter.Seq2[model.Chunk, error] {
				return func(yield func(model.Chunk, error) bool) {
					tr.add(name + ".before:" + req.System)
					for c, err := range next(ctx, req) {
						if c.Kind == model.ChunkText {
							c.Text += "+" + name
						}
						if c.Kind == model.ChunkDone {
							c.Message = model.AssistantText(c.Message.PlainText() + "+" + name)
						}
						if !yield(c, err) {
							return
						}
					}
					tr.add(name + ".after")
				}
			}
		}
	}
	return m
}

func TestUseRunsMiddlewareInOrder(t *testing.T) {
	tests := []struct {
		name       string
		mws        func(tr *trace) []model.Middleware
		wantSystem string // what the provider received
		wantSteps  []string
		wantText   string // the final message
	}{
		{
			name:       "none",
			mws:        func(*trace) []model.Middleware { return nil },
			wantSystem: "s",
			wantText:   "hi",
		},
		{
			name: "stream only",
			mws: func(tr *trace) []model.Middleware {
				return []model.Middleware{tagging(tr, "a", false, true), tagging(tr, "b", false, true)}
			},
			wantSystem: "s",
			wantSteps:  []string{"a.before:s", "b.before:s", "b.after", "a.after"},
			wantText:   "hi+b+a",
		},
		{
			name: "request only",
			mws: func(tr *trace) []model.Middleware {
				return []model.Middleware{tagging(tr, "a", true, false), tagging(tr, "b", true, false)}
			},
			wantSystem: "s+a+b",
			wantSteps:  []string{"a.request", "b.request"},
			wantText:   "hi",
		},
		{
			name: "both: a layer's stream sees its own request change",
			mws: func(tr *trace) []model.Middleware {
				return []model.Middleware{tagging(tr, "a", true, true), tagging(tr, "b", true, true)}
			},
			wantSystem: "s+a+b",
			wantSteps:  []string{"a.request", "a.before:s+a", "b.request", "b.before:s+a+b", "b.after", "a.after"},
			wantText:   "hi+b+a",
		},
		{
			name: "empty middleware passes through",
			mws: func(tr *trace) []model.Middleware {
				return []model.Middleware{{}, tagging(tr, "b", true, true), {}}
			},
			wantSystem: "s+b",
			wantSteps:  []string{"b.request", "b.before:s+b", "b.after"},
			wantText:   "hi+b",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := modeltest.New()
			base.Reply(modeltest.Text("hi"))
			tr := &trace{}
			p := model.Use(base, tt.mws(tr)...)
			var final model.Message
			for c, err := range p.Stream(t.Context(), model.Request{System: "s"}) {
				if err != nil {
					t.Fatal(err)
				}
				if c.Kind == model.ChunkDone {
					final = c.Message
				}
			}
			if got := base.Requests()[0].System; got != tt.wantSystem {
				t.Errorf("provider got system %q, want %q", got, tt.wantSystem)
			}
			if !slices.Equal(tr.steps, tt.wantSteps) {
				t.Errorf("steps %q, want %q", tr.steps, tt.wantSteps)
			}
			if got := final.PlainText(); got != tt.wantText {
				t.Errorf("final message %q, want %q", got, tt.wantText)
			}
		})
	}
}

func TestUseRequestErrorEndsTheCallBeforeSending(t *testing.T) {
	base := modeltest.New()
	base.Reply(modeltest.Text("hi"))
	refused := errors.New("refused")
	p := model.Use(base, model.Middleware{Request: func(context.Context, model.Request) (model.Request, error) {
		return model.Request{}, refused
	}})
	var n int
	for _, err := range p.Stream(t.Context(), model.Request{}) {
		n++
		if !errors.Is(err, refused) {
			t.Fatalf("err %v, want %v", err, refused)
		}
	}
	if n != 1 || len(base.Requests()) != 0 {
		t.Errorf("%d items, %d requests sent; want one error and none sent", n, len(base.Requests()))
	}
}

// recordingCounter counts requests and remembers the last one it counted.
type recordingCounter struct {
	plainProvider
	mu   sync.Mutex
	last model.Request
}

func (r *recordingCounter) CountTokens(_ context.Context, req model.Request) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = req
	return len(req.System), nil
}

func TestUseKeepsOptionalInterfaces(t *testing.T) {
	upper := model.Middleware{Request: func(_ context.Context, req model.Request) (model.Request, error) {
		req.System = strings.ToUpper(req.System)
		return req, nil
	}}
	rc := &recordingCounter{}
	// Retried, then wrapped: the counter is found and counts what is sent.
	p := model.Use(model.WithRetry(rc, model.RetryOptions{}), upper)
	tc, ok := model.AsTokenCounter(p)
	if !ok {
		t.Fatal("no TokenCounter through Use")
	}
	if n, err := tc.CountTokens(t.Context(), model.Request{System: "secret"}); err != nil || n != 6 {
		t.Fatalf("count %d %v", n, err)
	}
	if rc.last.System != "SECRET" {
		t.Errorf("counted system %q, want the request as the middleware changed it", rc.last.System)
	}
	if _, ok := model.AsTokenCounter(model.Use(plainProvider{}, upper)); ok {
		t.Error("Use made a plain provider a TokenCounter")
	}
	if wr, ok := model.AsWindowReporter(model.Use(windowProvider{}, upper)); !ok || wr.ContextWindow("m") != 99 {
		t.Error("no WindowReporter through Use")
	}
	if u, ok := model.Use(rc, upper).(interface{ Unwrap() model.Provider }); !ok || u.Unwrap() != model.Provider(rc) {
		t.Error("Use's provider does not unwrap to the provider it wraps")
	}
}
