package model_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

func TestRetryObserverSeesEachRetryOfItsRequestBeforeTheWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		limited := httpError(429)
		limited.RetryAfter = 20 * time.Second
		failures := []error{limited, httpError(529)}
		p := modeltest.New()
		for _, err := range failures {
			p.Fail(err)
		}
		p.Reply(modeltest.Text("done"))
		var log retryLog
		r := model.WithRetryRand(p, model.RetryOptions{MaxRetries: 3, OnRetry: log.onRetry}, func(int64) int64 { return 0 })

		start := time.Now()
		var seen []model.Retry
		var at []time.Duration
		ctx := model.WithRetryObserver(t.Context(), func(r model.Retry) {
			if len(log.get()) != len(seen)+1 {
				t.Errorf("observer called before OnRetry")
			}
			seen = append(seen, r)
			at = append(at, time.Since(start))
		})
		if _, err := collect(t, r.Stream(ctx, testRequest())); err != nil {
			t.Fatal(err)
		}
		want := []model.Retry{{Attempt: 1, Err: failures[0], Wait: 20 * time.Second}, {Attempt: 2, Err: failures[1], Wait: 0}}
		if len(seen) != len(want) {
			t.Fatalf("observer saw %d retries, want %d", len(seen), len(want))
		}
		for i := range want {
			if seen[i] != want[i] {
				t.Errorf("retry %d = %+v, want %+v", i, seen[i], want[i])
			}
		}
		if at[0] != 0 || at[1] != 20*time.Second {
			t.Errorf("observed at %v, want each retry before its wait (0s, 20s)", at)
		}
		if got := seen[0].Reason(); got != "rate limited (429)" {
			t.Errorf("Reason = %q", got)
		}

		// Another request, without the observer, is not seen.
		p.Fail(httpError(500))
		p.Reply(modeltest.Text("again"))
		if _, err := collect(t, r.Stream(t.Context(), testRequest())); err != nil {
			t.Fatal(err)
		}
		if len(seen) != 2 {
			t.Errorf("observer saw a retry of a request made without it")
		}
	})
}

func TestRetryObserversNest(t *testing.T) {
	var order []string
	ctx := model.WithRetryObserver(context.Background(), func(model.Retry) { order = append(order, "outer") })
	ctx = model.WithRetryObserver(ctx, func(model.Retry) { order = append(order, "inner") })
	if model.WithRetryObserver(ctx, nil) != ctx {
		t.Error("a nil observer changed the context")
	}
	p := modeltest.New()
	p.Fail(httpError(503))
	p.Reply(modeltest.Text("ok"))
	r := model.WithRetry(p, model.RetryOptions{BaseDelay: time.Nanosecond, MaxDelay: time.Nanosecond})
	if _, err := collect(t, r.Stream(ctx, testRequest())); err != nil {
		t.Fatal(err)
	}
	if len(order) != 2 || order[0] != "outer" || order[1] != "inner" {
		t.Errorf("observers called %v, want [outer inner]", order)
	}
}

func TestRetryReason(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{httpError(429), "rate limited (429)"},
		{httpError(529), "overloaded (529)"},
		{httpError(503), "overloaded (503)"},
		{httpError(500), "server error (500)"},
		{model.NewError(model.ClassNetwork, 0, "connection reset", nil), "network error"},
		{model.NewError(model.ClassStream, 0, "no message_stop", nil), "stream broke"},
		{errors.New("dial tcp: connection refused"), "network error"},
		{nil, "unknown error"},
	} {
		if got := (model.Retry{Attempt: 1, Err: tc.err}).Reason(); got != tc.want {
			t.Errorf("Reason of %v = %q, want %q", tc.err, got, tc.want)
		}
	}
}
