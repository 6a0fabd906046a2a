package model_test

import (
	"context"
	"iter"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
)

type plainProvider struct{}

func (plainProvider) Stream(context.Context, model.Request) iter.Seq2[model.Chunk, error] {
	return func(func(model.Chunk, error) bool) {}
}

type countingProvider struct{ plainProvider }

func (countingProvider) CountTokens(context.Context, model.Request) (int, error) { return 7, nil }

func TestAsTokenCounterLooksThroughWrappers(t *testing.T) {
	tests := []struct {
		name string
		p    model.Provider
		want bool
	}{
		{"counter", countingProvider{}, true},
		{"retried counter", model.WithRetry(countingProvider{}, model.RetryOptions{}), true},
		{"plain", plainProvider{}, false},
		{"retried plain", model.WithRetry(plainProvider{}, model.RetryOptions{}), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		tc, ok := model.AsTokenCounter(tt.p)
		if ok != tt.want {
			t.Errorf("%s: ok %v, want %v", tt.name, ok, tt.want)
			continue
		}
		if ok {
			if n, err := tc.CountTokens(t.Context(), model.Request{}); n != 7 || err != nil {
				t.Errorf("%s: count %d %v", tt.name, n, err)
			}
		}
	}
}

type windowProvider struct{ plainProvider }

func (windowProvider) ContextWindow(string) int { return 99 }

func TestAsWindowReporterLooksThroughWrappers(t *testing.T) {
	if wr, ok := model.AsWindowReporter(model.WithRetry(windowProvider{}, model.RetryOptions{})); !ok || wr.ContextWindow("m") != 99 {
		t.Errorf("retried reporter: %v", ok)
	}
	if _, ok := model.AsWindowReporter(plainProvider{}); ok {
		t.Error("a plain provider reports a window")
	}
}

// cachedInInput is a provider whose usage counts the cached input in
// InputTokens, as OpenAI's prompt_tokens does.
type cachedInInput struct{ plainProvider }

func (cachedInInput) InputIncludesCache() bool { return true }

// TestRequestInput: the whole input of a request, as its usage reports
// it: InputTokens and the cache's reads and writes (Anthropic's
// input_tokens leaves them out), or InputTokens alone when the provider
// says it includes them (OpenAI's prompt_tokens), through wrappers.
func TestRequestInput(t *testing.T) {
	u := model.Usage{InputTokens: 50, OutputTokens: 7, CacheReadTokens: 90_000, CacheCreationTokens: 2_000}
	for _, tt := range []struct {
		p    model.Provider
		want int64
	}{
		{plainProvider{}, 92_050},
		{model.WithRetry(plainProvider{}, model.RetryOptions{}), 92_050},
		{cachedInInput{}, 50},
		{model.WithRetry(cachedInInput{}, model.RetryOptions{}), 50},
	} {
		if got := model.RequestInput(tt.p, u); got != tt.want {
			t.Errorf("RequestInput(%T) = %d, want %d", tt.p, got, tt.want)
		}
	}
}
