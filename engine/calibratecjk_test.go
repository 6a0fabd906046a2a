package engine_test

import (
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
	"github.com/lite-agent/lite-agent-go/session"
)

// cjkLog appends to session s of cp turns of CJK text holding about
// tokens tokens as anthropictest.CJK counts them.
func cjkLog(t *testing.T, cp session.Checkpointer, tokens int) {
	t.Helper()
	const chars = 4000 // each message: 6,000 tokens
	var evs []session.Event
	for n := 0; n < tokens; n += 2 * chars * 3 / 2 {
		evs = append(evs,
			session.UserEvent{Message: model.UserText(strings.Repeat("問", chars))},
			session.AssistantEvent{Message: model.AssistantText(strings.Repeat("答", chars))})
	}
	if _, err := cp.Append(t.Context(), "s", evs, session.AnyHead); err != nil {
		t.Fatal(err)
	}
}

// cjkEngine returns an engine of an Anthropic provider of srv (counting
// no tokens) for Sonnet 4.5 over cp.
func cjkEngine(t *testing.T, srv *anthropictest.Server, cp session.Checkpointer) *engine.Engine {
	t.Helper()
	eng, err := engine.New(engine.Options{
		Provider:     anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client()}),
		Model:        sonnet,
		Checkpointer: cp,
		Context:      &engine.ContextOptions{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestCJKSessionIsMeasuredAtItsRatio: a session of Chinese text, which
// the provider counts at six times the engine's estimate, is calibrated
// by its first turn at that ratio; a next prompt of 48,000 tokens (8,000
// estimated) is measured at them, in the engine that calibrated it as in
// a new one over the same log, and its request sent within the window,
// refused by none. The ratio was capped at three (1 failure each): in
// the same engine the prompt was measured at 24,000 tokens, the request
// at 120,000 with room for an answer of 64,000, and the API refused
// 144,000 + 64,000 > 200,000 as too long; a new engine measured the
// request of 168,000 tokens at 84,000.
func TestCJKSessionIsMeasuredAtItsRatio(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tokens  int
		resumed bool
	}{
		{"same engine", 96_000, false},
		{"resumed", 120_000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow, Tokens: anthropictest.CJK})
			dir := t.TempDir()
			cjkLog(t, fileCheckpointer(t, dir), tc.tokens)
			eng := cjkEngine(t, srv, fileCheckpointer(t, dir))
			if _, err := turnEvents(t, eng, "続けて"); err != nil {
				t.Fatal(err)
			}
			if n := srv.Refused(); n != 0 {
				t.Fatalf("the first turn: %d requests refused: %+v", n, srv.Sent())
			}
			if tc.resumed {
				eng = cjkEngine(t, srv, fileCheckpointer(t, dir))
			}
			if _, err := turnEvents(t, eng, strings.Repeat("字", 32_000)); err != nil {
				t.Fatal(err)
			}
			if n := srv.Refused(); n != 0 {
				t.Errorf("the prompt's turn: %d requests refused as too long: %+v", n, srv.Sent()[1:])
			}
		})
	}
}

// TestCountedProviderCountsADenseFirstRequest: a session of Chinese text
// (six times the engine's estimate) estimated just under a quarter of the
// 65% threshold, its first request in the process, on a provider that
// counts tokens: the request is counted (a token a UTF-8 byte can reach
// the threshold), compacted to the count, and sent within the window,
// refused by none. The count was skipped for any request estimated under
// a quarter of the threshold (text taken at most a token a character):
// the request of 192,000 tokens was measured at 32,000, sent with room
// for an answer of 64,000 and refused as too long (1 failure).
func TestCountedProviderCountsADenseFirstRequest(t *testing.T) {
	srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow, Tokens: anthropictest.CJK})
	cp := session.NewMemoryCheckpointer()
	cjkLog(t, cp, 190_000) // 16 turns: 192,000 tokens, estimated at 32,000
	eng, err := engine.New(engine.Options{
		Provider:     anthropicAt(srv, true),
		Model:        sonnet,
		Checkpointer: cp,
		Context:      &engine.ContextOptions{},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := turnEvents(t, eng, "続けて"); err != nil {
		t.Fatal(err)
	}
	if n := srv.Refused(); n != 0 {
		t.Errorf("%d requests refused as too long (%d counts): %+v", n, srv.Counts(), srv.Sent())
	}
}
