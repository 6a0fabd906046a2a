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
