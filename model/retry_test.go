package model_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"net"
	"net/url"
	"os"
	"reflect"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// streamFunc is a Provider made of a function, for streams modeltest cannot
// script (ones that misbehave).
type streamFunc func(ctx context.Context, req model.Request) iter.Seq2[model.Chunk, error]

func (f streamFunc) Stream(ctx context.Context, req model.Request) iter.Seq2[model.Chunk, error] {
	return f(ctx, req)
}

// collect ranges over seq and returns its chunks and its error. It reports
// a stream that goes on after an error.
func collect(t *testing.T, seq iter.Seq2[model.Chunk, error]) ([]model.Chunk, error) {
	t.Helper()
	var chunks []model.Chunk
	var failure error
	for c, err := range seq {
		if failure != nil {
			t.Errorf("stream went on after its error %v", failure)
			break
		}
		if err != nil {
			failure = err
			continue
		}
		chunks = append(chunks, c)
	}
	return chunks, failure
}

// retryCall records one OnRetry call.
type retryCall struct {
	attempt int
	err     error
	delay   time.Duration
}

// retryLog collects OnRetry calls.
type retryLog struct {
	mu    sync.Mutex
	calls []retryCall
}

func (l *retryLog) onRetry(attempt int, err error, delay time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, retryCall{attempt, err, delay})
}

func (l *retryLog) get() []retryCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]retryCall(nil), l.calls...)
}

func testRequest() model.Request {
	return model.Request{Model: "test-model", System: "be brief", Messages: []model.Message{model.UserText("hi")}}
}

func httpError(status int) *model.Error {
	return model.NewError(model.ClassifyStatus(status, ""), status, fmt.Sprintf("status %d", status), nil)
}

func TestRetryableFailuresBeforeTheFirstChunkAreRetried(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"rate limit 429", httpError(429)},
		{"server 500", httpError(500)},
		{"bad gateway 502", httpError(502)},
		{"overloaded 503", httpError(503)},
		{"overloaded 529", httpError(529)},
		{"request timeout 408", httpError(408)},
		{"network class", model.NewError(model.ClassNetwork, 0, "connection reset", nil)},
		{"plain connection reset", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}},
		{"plain connection refused", fmt.Errorf("dial: %w", syscall.ECONNREFUSED)},
		{"plain unexpected EOF", fmt.Errorf("read body: %w", io.ErrUnexpectedEOF)},
		{"url error EOF", &url.Error{Op: "Post", URL: "https://api.example/v1", Err: io.EOF}},
		{"wrapped *Error", fmt.Errorf("anthropic: %w", httpError(429))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := modeltest.New()
				p.Fail(tt.err)
				want := modeltest.Text("hello there, world")
				p.Reply(want)
				var log retryLog
				r := model.WithRetry(p, model.RetryOptions{OnRetry: log.onRetry})

				got, err := collect(t, r.Stream(t.Context(), testRequest()))
				if err != nil {
					t.Fatalf("stream failed: %v", err)
				}
				if !reflect.DeepEqual(got, want.Chunks()) {
					t.Errorf("caller saw %+v, want only the successful stream %+v", got, want.Chunks())
				}
				reqs := p.Requests()
				if len(reqs) != 2 {
					t.Fatalf("provider got %d requests, want 2", len(reqs))
				}
				for i, req := range reqs {
					if !reflect.DeepEqual(req, testRequest()) {
						t.Errorf("attempt %d sent %+v, want the original request", i+1, req)
					}
				}
				calls := log.get()
				if len(calls) != 1 || calls[0].attempt != 1 || calls[0].err != tt.err {
					t.Errorf("OnRetry calls = %+v, want one for attempt 1 with the failure", calls)
				}
			})
		})
	}
}

func TestNonRetryableFailuresPassThroughUnchanged(t *testing.T) {
	started := httpError(500)
	started.Started = true
	tests := []struct {
		name string
		err  error
	}{
		{"auth 401", httpError(401)},
		{"auth 403", httpError(403)},
		{"bad request 400", httpError(400)},
		{"context overflow 413", httpError(413)},
		{"context overflow by message", model.NewError(model.ClassifyStatus(400, "prompt is too long"), 400, "prompt is too long", nil)},
		{"stream class", model.NewError(model.ClassStream, 0, "malformed event", nil)},
		{"already started", started},
		{"plain error", errors.New("boom")},
		{"context canceled from the provider", fmt.Errorf("send: %w", context.Canceled)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := modeltest.New()
				p.Fail(tt.err)
				p.Reply(modeltest.Text("unused"))
				var log retryLog
				r := model.WithRetry(p, model.RetryOptions{OnRetry: log.onRetry})

				got, err := collect(t, r.Stream(t.Context(), testRequest()))
				if err != tt.err {
					t.Errorf("error = %v, want the provider's error %v itself", err, tt.err)
				}
				if len(got) != 0 {
					t.Errorf("caller saw chunks %+v", got)
				}
				if n := len(p.Requests()); n != 1 {
					t.Errorf("provider got %d requests, want 1", n)
				}
				if p.Pending() != 1 {
					t.Errorf("the queued success was used")
				}
				if calls := log.get(); len(calls) != 0 {
					t.Errorf("OnRetry called: %+v", calls)
				}
			})
		})
	}
}

func TestCustomRetryableDecides(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		boom := errors.New("boom")
		p := modeltest.New()
		p.Fail(boom)
		p.Reply(modeltest.Text("ok"))
		r := model.WithRetry(p, model.RetryOptions{Retryable: func(err error) bool { return errors.Is(err, boom) }})
		if _, err := collect(t, r.Stream(t.Context(), testRequest())); err != nil {
			t.Fatalf("custom Retryable accepting the error: stream failed: %v", err)
		}

		p = modeltest.New()
		p.Fail(httpError(429))
		r = model.WithRetry(p, model.RetryOptions{Retryable: func(error) bool { return false }})
		if _, err := collect(t, r.Stream(t.Context(), testRequest())); !model.IsClass(err, model.ClassRateLimit) || len(p.Requests()) != 1 {
			t.Errorf("custom Retryable refusing a 429: err %v after %d requests, want the 429 after 1", err, len(p.Requests()))
		}
	})
}

func TestNoRetryAfterAChunkWasYielded(t *testing.T) {
	partial := []model.Chunk{{Kind: model.ChunkText, Text: "par"}, {Kind: model.ChunkText, Text: "tial"}}
	server := httpError(500)
	reset := &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	tests := []struct {
		name  string
		err   error
		check func(t *testing.T, err error)
	}{
		{"*Error is marked Started", server, func(t *testing.T, err error) {
			var e *model.Error
			if !errors.As(err, &e) || !e.Started || e.Class != model.ClassServer || e.Status != 500 || e.Message != server.Message {
				t.Errorf("error = %#v, want the 500 with Started set", err)
			}
			if e.Retryable() {
				t.Errorf("the passed-through error still claims to be retryable")
			}
			if server.Started {
				t.Errorf("the provider's own error value was modified")
			}
		}},
		{"wrapped *Error is marked Started and keeps its chain", fmt.Errorf("decode: %w", server), func(t *testing.T, err error) {
			var e *model.Error
			if !errors.As(err, &e) || !e.Started || e.Class != model.ClassServer {
				t.Errorf("error = %#v, want a server error with Started set", err)
			}
			if !errors.Is(err, server) {
				t.Errorf("error %v no longer wraps the provider's error", err)
			}
		}},
		{"plain network error passes as it is", reset, func(t *testing.T, err error) {
			if err != reset {
				t.Errorf("error = %v, want the provider's error itself", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := modeltest.New()
				p.FailAfter(partial, tt.err)
				p.Reply(modeltest.Text("unused"))
				var log retryLog
				r := model.WithRetry(p, model.RetryOptions{OnRetry: log.onRetry})

				got, err := collect(t, r.Stream(t.Context(), testRequest()))
				if !reflect.DeepEqual(got, partial) {
					t.Errorf("caller saw %+v, want the partial stream %+v", got, partial)
				}
				if err == nil {
					t.Fatal("stream ended without the error")
				}
				tt.check(t, err)
				if n := len(p.Requests()); n != 1 || p.Pending() != 1 {
					t.Errorf("%d requests, %d pending: the request was retried", n, p.Pending())
				}
				if calls := log.get(); len(calls) != 0 {
					t.Errorf("OnRetry called: %+v", calls)
				}
			})
		})
	}
}

func TestMaxRetriesBoundsTheAttempts(t *testing.T) {
	tests := []struct {
		maxRetries int
		attempts   int
	}{
		{0, 3}, // zero means 2 retries
		{-1, 1},
		{1, 2},
		{5, 6},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("MaxRetries=%d", tt.maxRetries), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := modeltest.New()
				for i := range 10 {
					p.Fail(model.NewError(model.ClassRateLimit, 429, fmt.Sprint("failure ", i+1), nil))
				}
				var log retryLog
				r := model.WithRetry(p, model.RetryOptions{MaxRetries: tt.maxRetries, OnRetry: log.onRetry})

				_, err := collect(t, r.Stream(t.Context(), testRequest()))
				var e *model.Error
				if !errors.As(err, &e) || e.Message != fmt.Sprint("failure ", tt.attempts) {
					t.Errorf("error = %v, want the last attempt's (failure %d)", err, tt.attempts)
				}
				if n := len(p.Requests()); n != tt.attempts {
					t.Errorf("provider got %d requests, want %d", n, tt.attempts)
				}
				if n := len(log.get()); n != tt.attempts-1 {
					t.Errorf("OnRetry called %d times, want %d", n, tt.attempts-1)
				}
			})
		})
	}
}

func TestOnRetryIsCalledPerRetryWithAttemptNumbers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		failures := []error{httpError(429), httpError(503), model.NewError(model.ClassNetwork, 0, "reset", nil)}
		p := modeltest.New()
		for _, err := range failures {
			p.Fail(err)
		}
		p.Reply(modeltest.Text("done"))
		var log retryLog
		r := model.WithRetry(p, model.RetryOptions{MaxRetries: 3, OnRetry: log.onRetry})

		start := time.Now()
		if _, err := collect(t, r.Stream(t.Context(), testRequest())); err != nil {
			t.Fatal(err)
		}
		elapsed := time.Since(start)
		calls := log.get()
		if len(calls) != len(failures) {
			t.Fatalf("OnRetry called %d times, want %d", len(calls), len(failures))
		}
		var total time.Duration
		for i, c := range calls {
			if c.attempt != i+1 || c.err != failures[i] {
				t.Errorf("call %d = (attempt %d, %v), want (attempt %d, %v)", i, c.attempt, c.err, i+1, failures[i])
			}
			total += c.delay
		}
		if elapsed != total {
			t.Errorf("waited %v in all, want the sum of the reported delays %v", elapsed, total)
		}
	})
}

func TestBackoffCeilingDoublesUpToMaxDelay(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name string
		opts model.RetryOptions
		want []time.Duration // ceilings of retries 1, 2, …
	}{
		{"defaults 250ms to 8s", model.RetryOptions{}, []time.Duration{250 * ms, 500 * ms, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second}},
		{"custom base and max", model.RetryOptions{BaseDelay: time.Second, MaxDelay: 3 * time.Second}, []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}},
		{"base above max", model.RetryOptions{BaseDelay: time.Minute, MaxDelay: time.Second}, []time.Duration{time.Second, time.Second}},
		{"negative means default", model.RetryOptions{BaseDelay: -1, MaxDelay: -1}, []time.Duration{250 * ms, 500 * ms}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, want := range tt.want {
				if got := model.RetryCeiling(tt.opts, i+1); got != want {
					t.Errorf("ceiling of retry %d = %v, want %v", i+1, got, want)
				}
			}
		})
	}
	t.Run("no overflow", func(t *testing.T) {
		for _, maxDelay := range []time.Duration{8 * time.Second, math.MaxInt64} {
			opts := model.RetryOptions{BaseDelay: 3, MaxDelay: maxDelay}
			prev := time.Duration(0)
			for n := 1; n <= 200; n++ {
				c := model.RetryCeiling(opts, n)
				if c < prev || c > maxDelay || c <= 0 {
					t.Fatalf("MaxDelay %v: ceiling of retry %d = %v after %v", maxDelay, n, c, prev)
				}
				prev = c
			}
			if prev != maxDelay {
				t.Errorf("MaxDelay %v: ceiling settled at %v", maxDelay, prev)
			}
		}
	})
}

// failing returns a provider that fails n times with 429 and then succeeds.
func failing(n int) *modeltest.Provider {
	p := modeltest.New()
	for range n {
		p.Fail(httpError(429))
	}
	p.Reply(modeltest.Text("ok"))
	return p
}

func TestBackoffIsFullJitterUpToTheCeiling(t *testing.T) {
	const retries = 7
	opts := model.RetryOptions{MaxRetries: retries}
	tests := []struct {
		name  string
		randN func(n int64) int64
		want  func(ceiling time.Duration) time.Duration
	}{
		{"lowest draw waits zero", func(int64) int64 { return 0 }, func(time.Duration) time.Duration { return 0 }},
		{"highest draw waits the ceiling", func(n int64) int64 { return n - 1 }, func(c time.Duration) time.Duration { return c }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var log retryLog
				o := opts
				o.OnRetry = log.onRetry
				r := model.WithRetryRand(failing(retries), o, tt.randN)
				if _, err := collect(t, r.Stream(t.Context(), testRequest())); err != nil {
					t.Fatal(err)
				}
				calls := log.get()
				if len(calls) != retries {
					t.Fatalf("%d retries, want %d", len(calls), retries)
				}
				for _, c := range calls {
					if want := tt.want(model.RetryCeiling(opts, c.attempt)); c.delay != want {
						t.Errorf("retry %d waited %v, want %v", c.attempt, c.delay, want)
					}
				}
			})
		})
	}

	t.Run("draws are uniform over the closed range", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			var args []int64
			r := model.WithRetryRand(failing(retries), opts, func(n int64) int64 { args = append(args, n); return 0 })
			if _, err := collect(t, r.Stream(t.Context(), testRequest())); err != nil {
				t.Fatal(err)
			}
			for i, n := range args {
				if want := int64(model.RetryCeiling(opts, i+1)) + 1; n != want {
					t.Errorf("retry %d drew from [0, %d), want [0, %d)", i+1, n, want)
				}
			}
		})
	})

	t.Run("real draws stay in bounds and spread", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			const rounds = 60
			var low, high int
			for range rounds {
				var log retryLog
				o := opts
				o.OnRetry = log.onRetry
				r := model.WithRetry(failing(retries), o)
				if _, err := collect(t, r.Stream(t.Context(), testRequest())); err != nil {
					t.Fatal(err)
				}
				for _, c := range log.get() {
					ceiling := model.RetryCeiling(opts, c.attempt)
					if c.delay < 0 || c.delay > ceiling {
						t.Errorf("retry %d waited %v, outside [0, %v]", c.attempt, c.delay, ceiling)
					}
					if c.attempt == 1 {
						if c.delay < ceiling/2 {
							low++
						} else {
							high++
						}
					}
				}
			}
			if low == 0 || high == 0 {
				t.Errorf("first-retry delays: %d below half the ceiling, %d above; want both", low, high)
			}
		})
	})
}

func TestRetryAfterIsHonored(t *testing.T) {
	zero := func(int64) int64 { return 0 }
	highest := func(n int64) int64 { return n - 1 }
	tests := []struct {
		name       string
		retryAfter time.Duration
		opts       model.RetryOptions
		randN      func(int64) int64
		want       time.Duration
	}{
		{"longer than the jitter", 3 * time.Second, model.RetryOptions{}, zero, 3 * time.Second},
		{"shorter than the jitter", 100 * time.Millisecond, model.RetryOptions{}, highest, 250 * time.Millisecond},
		{"capped at 60s by default", 10 * time.Minute, model.RetryOptions{}, zero, time.Minute},
		{"capped at MaxRetryAfter", 10 * time.Minute, model.RetryOptions{MaxRetryAfter: 5 * time.Second}, zero, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				failure := httpError(429)
				failure.RetryAfter = tt.retryAfter
				p := modeltest.New()
				p.Fail(failure)
				p.Reply(modeltest.Text("ok"))
				var log retryLog
				opts := tt.opts
				opts.OnRetry = log.onRetry
				r := model.WithRetryRand(p, opts, tt.randN)

				start := time.Now()
				if _, err := collect(t, r.Stream(t.Context(), testRequest())); err != nil {
					t.Fatal(err)
				}
				if elapsed := time.Since(start); elapsed != tt.want {
					t.Errorf("waited %v, want %v", elapsed, tt.want)
				}
				if calls := log.get(); len(calls) != 1 || calls[0].delay != tt.want {
					t.Errorf("OnRetry calls = %+v, want one reporting %v", calls, tt.want)
				}
			})
		})
	}
}

func TestContextEndingDuringBackoffStopsPromptly(t *testing.T) {
	tests := []struct {
		name    string
		ctx     func(parent context.Context) (context.Context, context.CancelFunc)
		cancel  bool // cancel once the stream is waiting
		want    error
		elapsed time.Duration
	}{
		{"cancelled", func(parent context.Context) (context.Context, context.CancelFunc) { return context.WithCancel(parent) }, true, context.Canceled, 0},
		{"deadline", func(parent context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeout(parent, time.Second)
		}, false, context.DeadlineExceeded, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				failure := httpError(429)
				failure.RetryAfter = 30 * time.Second
				p := modeltest.New()
				p.Fail(failure)
				p.Reply(modeltest.Text("unused"))
				ctx, cancel := tt.ctx(t.Context())
				defer cancel()
				r := model.WithRetry(p, model.RetryOptions{})

				start := time.Now()
				done := make(chan error, 1)
				go func() {
					_, err := collect(t, r.Stream(ctx, testRequest()))
					done <- err
				}()
				synctest.Wait() // the stream is now waiting to retry
				if tt.cancel {
					cancel()
				}
				err := <-done
				if !errors.Is(err, tt.want) || err != ctx.Err() {
					t.Errorf("error = %v, want ctx.Err() = %v", err, tt.want)
				}
				if elapsed := time.Since(start); elapsed != tt.elapsed {
					t.Errorf("stream ended after %v, want %v", elapsed, tt.elapsed)
				}
				if n := len(p.Requests()); n != 1 {
					t.Errorf("provider got %d requests, want 1", n)
				}
			})
		})
	}
}

func TestNoRetryOnceTheContextIsDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		p := modeltest.New()
		p.Respond(func(context.Context, model.Request) ([]model.Chunk, error) {
			cancel() // the caller gives up while the provider answers 429
			return nil, httpError(429)
		})
		p.Reply(modeltest.Text("unused"))
		var log retryLog
		r := model.WithRetry(p, model.RetryOptions{OnRetry: log.onRetry})

		_, err := collect(t, r.Stream(ctx, testRequest()))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v, want context.Canceled", err)
		}
		if calls := log.get(); len(calls) != 0 {
			t.Errorf("OnRetry called: %+v", calls)
		}
		if n := len(p.Requests()); n != 1 {
			t.Errorf("provider got %d requests, want 1", n)
		}
	})
}

func TestBreakingOutOfARetriedStreamStopsIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := modeltest.New()
		p.Fail(httpError(503))
		p.Reply(modeltest.Text("one two three"))
		p.Reply(modeltest.Text("unused"))
		r := model.WithRetry(p, model.RetryOptions{})
		var got []string
		for c, err := range r.Stream(t.Context(), testRequest()) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, c.Text)
			break
		}
		if !reflect.DeepEqual(got, []string{"one "}) {
			t.Errorf("got %q, want the first delta", got)
		}
		if n := len(p.Requests()); n != 2 || p.Pending() != 1 {
			t.Errorf("%d requests, %d pending; want 2 and 1", n, p.Pending())
		}
	})
}

func TestRetryIsSafeForConcurrentUse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Each request fails the first time it is seen and succeeds after.
		var mu sync.Mutex
		seen := map[string]int{}
		p := modeltest.NewFunc(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
			mu.Lock()
			defer mu.Unlock()
			seen[req.Model]++
			if seen[req.Model] == 1 {
				return nil, httpError(429)
			}
			return modeltest.Text("reply to " + req.Model).Chunks(), nil
		})
		r := model.WithRetry(p, model.RetryOptions{})
		const n = 16
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				req := testRequest()
				req.Model = fmt.Sprint("m", i)
				chunks, err := collect(t, r.Stream(t.Context(), req))
				if err != nil {
					t.Errorf("request %d: %v", i, err)
					return
				}
				if got := chunks[len(chunks)-1].Message.PlainText(); got != "reply to "+req.Model {
					t.Errorf("request %d got %q", i, got)
				}
			})
		}
		wg.Wait()
		if got := len(p.Requests()); got != 2*n {
			t.Errorf("provider got %d requests, want %d", got, 2*n)
		}
	})
}

func TestMissingChunkDoneIsAStreamError(t *testing.T) {
	text := []model.Chunk{{Kind: model.ChunkText, Text: "half an answer"}}
	wrappers := []struct {
		name string
		wrap func(model.Provider) model.Provider
	}{
		{"Checked", model.Checked},
		{"WithRetry", func(p model.Provider) model.Provider { return model.WithRetry(p, model.RetryOptions{}) }},
	}
	for _, w := range wrappers {
		for _, tc := range []struct {
			name    string
			chunks  []model.Chunk
			started bool
		}{
			{"after chunks", text, true},
			{"empty stream", nil, false},
		} {
			t.Run(w.name+"/"+tc.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					p := modeltest.New()
					p.FailAfter(tc.chunks, nil)
					p.Reply(modeltest.Text("unused"))

					got, err := collect(t, w.wrap(p).Stream(t.Context(), testRequest()))
					if !reflect.DeepEqual(got, tc.chunks) {
						t.Errorf("caller saw %+v, want %+v", got, tc.chunks)
					}
					var e *model.Error
					if !errors.As(err, &e) || e.Class != model.ClassStream || e.Message != "provider produced no message_done chunk" || e.Started != tc.started {
						t.Fatalf("error = %#v, want a stream error (Started %v) saying the provider produced no message_done chunk", err, tc.started)
					}
					if !errors.Is(err, model.ErrNoMessageDone) {
						t.Errorf("error %v does not wrap ErrNoMessageDone", err)
					}
					if want := "model: stream: provider produced no message_done chunk"; err.Error() != want {
						t.Errorf("error text %q, want %q", err.Error(), want)
					}
					if p.Pending() != 1 {
						t.Errorf("the missing ChunkDone was retried")
					}
				})
			})
		}
	}
}

func TestCheckedReportsTheContextInsteadOfAMissingChunkDone(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	p := streamFunc(func(ctx context.Context, _ model.Request) iter.Seq2[model.Chunk, error] {
		return func(yield func(model.Chunk, error) bool) {
			if !yield(model.Chunk{Kind: model.ChunkText, Text: "a"}, nil) {
				return
			}
			cancel() // the provider stops quietly when the request is cancelled
		}
	})
	_, err := collect(t, model.Checked(p).Stream(ctx, testRequest()))
	if !errors.Is(err, context.Canceled) || err != ctx.Err() {
		t.Errorf("error = %v, want ctx.Err()", err)
	}
}

func TestCheckedEndsTheStreamAtTheFirstChunkDoneOrError(t *testing.T) {
	done := model.Chunk{Kind: model.ChunkDone, Message: model.AssistantText("x"), StopReason: model.StopEndTurn}
	boom := errors.New("boom")
	tests := []struct {
		name    string
		script  []model.Chunk
		errAt   int // index in script at which the provider yields boom instead; -1 for never
		want    []model.Chunk
		wantErr error
	}{
		{"chunks after ChunkDone", []model.Chunk{{Kind: model.ChunkText, Text: "x"}, done, {Kind: model.ChunkText, Text: "late"}, done}, -1, []model.Chunk{{Kind: model.ChunkText, Text: "x"}, done}, nil},
		{"chunks after an error", []model.Chunk{{Kind: model.ChunkText, Text: "x"}, {}, {Kind: model.ChunkText, Text: "late"}, done}, 1, []model.Chunk{{Kind: model.ChunkText, Text: "x"}}, boom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stopped := false
			p := streamFunc(func(context.Context, model.Request) iter.Seq2[model.Chunk, error] {
				return func(yield func(model.Chunk, error) bool) {
					for i, c := range tt.script {
						var err error
						if i == tt.errAt {
							c, err = model.Chunk{}, boom
						}
						if !yield(c, err) {
							stopped = true
							return
						}
					}
				}
			})
			for _, wrap := range []model.Provider{model.Checked(p), model.WithRetry(p, model.RetryOptions{})} {
				stopped = false
				got, err := collect(t, wrap.Stream(t.Context(), testRequest()))
				if !reflect.DeepEqual(got, tt.want) || err != tt.wantErr {
					t.Errorf("%T: got %+v, %v; want %+v, %v", wrap, got, err, tt.want, tt.wantErr)
				}
				if !stopped {
					t.Errorf("%T: the provider's stream was not stopped", wrap)
				}
			}
		})
	}
}

func TestWrappersUnwrapAndAreNotStacked(t *testing.T) {
	p := modeltest.New()
	type unwrapper interface{ Unwrap() model.Provider }
	checked := model.Checked(p)
	retrying := model.WithRetry(p, model.RetryOptions{})
	for _, w := range []model.Provider{checked, retrying} {
		u, ok := w.(unwrapper)
		if !ok || u.Unwrap() != model.Provider(p) {
			t.Errorf("%T does not unwrap to the provider", w)
		}
		if model.Checked(w) != w {
			t.Errorf("Checked(%T) wrapped it again", w)
		}
	}
}

func TestIsRetryable(t *testing.T) {
	started := httpError(429)
	started.Started = true
	timeout := &url.Error{Op: "Post", URL: "https://api.example", Err: &net.OpError{Op: "dial", Err: os.ErrDeadlineExceeded}}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"rate limit", httpError(429), true},
		{"overloaded", httpError(529), true},
		{"server", httpError(500), true},
		{"network class", model.NewError(model.ClassNetwork, 0, "", nil), true},
		{"auth", httpError(401), false},
		{"bad request", httpError(400), false},
		{"context overflow", httpError(413), false},
		{"stream", model.NewError(model.ClassStream, 0, "", nil), false},
		{"started", started, false},
		{"*Error decides even over a network cause", model.NewError(model.ClassBadRequest, 400, "", syscall.ECONNRESET), false},
		{"connection reset", os.NewSyscallError("read", syscall.ECONNRESET), true},
		{"connection refused", os.NewSyscallError("connect", syscall.ECONNREFUSED), true},
		{"connection aborted", syscall.ECONNABORTED, true},
		{"broken pipe", fmt.Errorf("write: %w", syscall.EPIPE), true},
		{"unexpected EOF", io.ErrUnexpectedEOF, true},
		{"net.OpError", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("no route")}, true},
		{"timeout", timeout, true},
		{"server closed the connection", &url.Error{Op: "Post", URL: "https://api.example", Err: io.EOF}, true},
		{"url error of a bad certificate", &url.Error{Op: "Post", URL: "https://api.example", Err: errors.New("x509: certificate signed by unknown authority")}, false},
		{"context canceled", context.Canceled, false},
		{"plain error", errors.New("boom"), false},
		{"plain EOF", io.EOF, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := model.IsRetryable(tt.err); got != tt.want {
				t.Errorf("IsRetryable(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
