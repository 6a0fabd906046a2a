package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
	"github.com/lite-agent/lite-agent-go/session"
)

// sonnet is a model whose documented output limit, 64,000 tokens, is the
// provider's default max_tokens, within a window of 200,000.
const (
	sonnet       = "claude-sonnet-4-5"
	sonnetOutput = 64_000
	sonnetWindow = 200_000
)

// seedTokens appends turns to session id until they hold about tokens
// tokens as anthropictest.Dense counts them (a token for two ASCII
// characters: twice the engine's estimate).
func seedTokens(t *testing.T, cp session.Checkpointer, id string, tokens int) {
	t.Helper()
	const chars = 8000 // each turn: 4,000 dense tokens
	var evs []session.Event
	for n := 0; n < 2*tokens; n += chars {
		evs = append(evs,
			session.UserEvent{Message: model.UserText(strings.Repeat("q", chars/2))},
			session.AssistantEvent{Message: model.AssistantText(strings.Repeat("a", chars/2))})
	}
	if _, err := cp.Append(t.Context(), id, evs, session.AnyHead); err != nil {
		t.Fatal(err)
	}
}

// sonnetEngine returns an engine of an Anthropic provider of srv (counting
// tokens with count) for Sonnet 4.5, with opts' MaxTokens and Context, over
// a log of about tokens dense tokens.
func sonnetEngine(t *testing.T, srv *anthropictest.Server, count bool, opts engine.Options, tokens int) *engine.Engine {
	t.Helper()
	p := anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client()})
	opts.Provider = p
	if count {
		opts.Provider = p.WithTokenCounting()
	}
	opts.Model = sonnet
	opts.Checkpointer = session.NewMemoryCheckpointer()
	seedTokens(t, opts.Checkpointer, "s", tokens)
	eng, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// turnEvents runs a turn of prompt on session s and returns its events
// and error.
func turnEvents(t *testing.T, eng *engine.Engine, prompt string) ([]engine.Event, error) {
	t.Helper()
	var evs []engine.Event
	for ev, err := range eng.Turn(t.Context(), "s", model.UserText(prompt)) {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// parts returns the parts get finds of the events of type typ.
func parts[T any](evs []engine.Event, typ engine.EventType, get func(engine.Event) *T) []T {
	var out []T
	for _, ev := range evs {
		if p := get(ev); ev.Type == typ && p != nil {
			out = append(out, *p)
		}
	}
	return out
}

// callStarts returns the model call parts of the model_call_start events.
func callStarts(evs []engine.Event) []engine.ModelCallEvent {
	return parts(evs, engine.EventModelCallStart, func(ev engine.Event) *engine.ModelCallEvent { return ev.ModelCall })
}

// contextStatuses returns the context parts of the context_status events.
func contextStatuses(evs []engine.Event) []engine.ContextStatus {
	return parts(evs, engine.EventContextStatus, func(ev engine.Event) *engine.ContextStatus { return ev.Context })
}

// checkSentWithin fails t unless every message request srv served was
// answered, with its input and max_tokens within the window, and
// max_tokens at least the floor.
func checkSentWithin(t *testing.T, srv *anthropictest.Server) []anthropictest.Sent {
	t.Helper()
	sent := srv.Sent()
	if len(sent) == 0 {
		t.Fatal("no message request")
	}
	for i, s := range sent {
		if s.Refused || s.Input+s.MaxTokens > sonnetWindow || s.MaxTokens < engine.MinAnswerTokens {
			t.Errorf("request %d: %+v: want input + max_tokens within %d, max_tokens at least %d, answered", i+1, s, sonnetWindow, engine.MinAnswerTokens)
		}
	}
	return sent
}

// TestTurnLeavesTheAnswerRoomInTheWindow: a turn of Sonnet 4.5, whose
// input (150,000 tokens counted) fits its window of 200,000, sends a
// max_tokens that fits beside it, and says in its model_call_start event
// that it lowered the provider's default. It sent the model's whole
// output limit, 64,000, which the API refused as too long: the turn
// failed, or, with the context engine, was retried with every level
// forced, down to the last two messages.
func TestTurnLeavesTheAnswerRoomInTheWindow(t *testing.T) {
	for _, tt := range []struct {
		name    string
		count   bool
		context *engine.ContextOptions
		tokens  func(string) int
	}{
		{"counted", true, nil, nil},
		{"counted, context engine", true, &engine.ContextOptions{}, nil},
		// Without a count, a tokenizer as the estimate counts.
		{"estimated", false, nil, quarter},
		{"estimated, context engine", false, &engine.ContextOptions{}, quarter},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow, Tokens: tt.tokens})
			tokens := 150_000
			if tt.tokens != nil {
				tokens *= 2 // seedTokens counts dense tokens: twice as few
			}
			eng := sonnetEngine(t, srv, tt.count, engine.Options{Context: tt.context}, tokens)
			evs, err := turnEvents(t, eng, "go on")
			if err != nil {
				t.Fatalf("turn: %v (requests %+v)", err, srv.Sent())
			}
			sent := checkSentWithin(t, srv)
			if len(sent) != 1 || sent[0].MaxTokens >= sonnetOutput {
				t.Errorf("requests %+v: want one, max_tokens lowered from %d", sent, sonnetOutput)
			}
			starts := callStarts(evs)
			if len(starts) != 1 || starts[0].MaxTokens != sent[0].MaxTokens || starts[0].MaxTokensFrom != sonnetOutput ||
				starts[0].InputTokens < 140_000 || starts[0].InputCounted != tt.count {
				t.Errorf("model_call_start %+v: want max_tokens %d lowered from %d for about 150000 input tokens, counted %v", starts, sent[0].MaxTokens, sonnetOutput, tt.count)
			}
			// One count: the context engine's of the request before its
			// levels serves, when they changed nothing.
			if want := map[bool]int{true: 1}[tt.count]; srv.Counts() != want {
				t.Errorf("%d counts, want %d", srv.Counts(), want)
			}
			for _, st := range contextStatuses(evs) {
				if st.Level == 5 || st.Reason == "overflow" {
					t.Errorf("context status %+v: the request was cut to fit", st)
				}
			}
		})
	}
}

// quarter counts a token for four characters, as the engine estimates.
func quarter(text string) int { return (len(text) + 3) / 4 }

// TestTurnLowersAnExplicitMaxTokens: a MaxTokens the host set (the
// model's limit) is lowered as the provider's default is, the event
// saying from what: it bounds the answer, and a lower bound still does.
func TestTurnLowersAnExplicitMaxTokens(t *testing.T) {
	srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
	eng := sonnetEngine(t, srv, true, engine.Options{MaxTokens: 60_000}, 160_000)
	evs, err := turnEvents(t, eng, "go on")
	if err != nil {
		t.Fatalf("turn: %v (requests %+v)", err, srv.Sent())
	}
	sent := checkSentWithin(t, srv)
	if starts := callStarts(evs); len(starts) != 1 || starts[0].MaxTokensFrom != 60_000 || starts[0].MaxTokens != sent[0].MaxTokens {
		t.Errorf("model_call_start %+v, sent %+v: want max_tokens lowered from 60000", starts, sent)
	}
}

// TestTurnKeepsAMaxTokensThatFits: a request whose max_tokens fits beside
// its input is sent as configured, and its event says nothing was
// lowered; a small session is not counted.
func TestTurnKeepsAMaxTokensThatFits(t *testing.T) {
	srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
	eng := sonnetEngine(t, srv, true, engine.Options{MaxTokens: 8000}, 2000)
	evs, err := turnEvents(t, eng, "go on")
	if err != nil {
		t.Fatal(err)
	}
	sent := checkSentWithin(t, srv)
	if starts := callStarts(evs); len(starts) != 1 || sent[0].MaxTokens != 8000 || starts[0].MaxTokensFrom != 0 || srv.Counts() != 0 {
		t.Errorf("model_call_start %+v, sent %+v, %d counts: want 8000 as set, not counted", starts, sent, srv.Counts())
	}
}

// TestTurnWithoutRoomForAnAnswer: a request whose counted input leaves
// less than MinAnswerTokens of the window is not sent: without the
// context engine the turn fails with an *engine.OutputRoomError (a
// context overflow); with it, a request the levels of its pressure leave
// so (a prompt of 196,000 tokens, which level 4 does not shorten) is
// compacted first, as one the provider refused, and sent. It was sent
// and refused (and, with the context engine, sent again compacted).
func TestTurnWithoutRoomForAnAnswer(t *testing.T) {
	t.Run("no context engine", func(t *testing.T) {
		srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
		eng := sonnetEngine(t, srv, true, engine.Options{}, 197_000)
		_, err := turnEvents(t, eng, "go on")
		var room *engine.OutputRoomError
		if !errors.As(err, &room) || !model.IsClass(err, model.ClassContextOverflow) || len(srv.Sent()) != 0 {
			t.Fatalf("turn: %v, requests %+v: want an *engine.OutputRoomError, nothing sent", err, srv.Sent())
		}
		if !room.Counted || room.Input < 190_000 || room.Window != sonnetWindow || room.MaxTokens != sonnetOutput {
			t.Errorf("error %+v", room)
		}
	})
	t.Run("overflow passes", func(t *testing.T) {
		srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
		passes := []compaction.Pass{compaction.Reactive(compaction.ReactiveOptions{})}
		eng := sonnetEngine(t, srv, true, engine.Options{OverflowPasses: passes}, 195_000)
		if _, err := turnEvents(t, eng, "go on"); err != nil {
			t.Fatalf("turn: %v, requests %+v", err, srv.Sent())
		}
		if sent := checkSentWithin(t, srv); len(sent) != 1 || sent[0].Input > 10_000 {
			t.Errorf("requests %+v: want one, of the newest turns", sent)
		}
	})
	t.Run("context engine", func(t *testing.T) {
		srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
		eng := sonnetEngine(t, srv, true, engine.Options{Context: &engine.ContextOptions{}}, 2000)
		evs, err := turnEvents(t, eng, strings.Repeat("p", 2*196_000))
		if err != nil {
			t.Fatalf("turn: %v, requests %+v", err, srv.Sent())
		}
		if sent := checkSentWithin(t, srv); len(sent) != 1 {
			t.Errorf("requests %+v: want one", sent)
		}
		st := contextStatuses(evs)
		if len(st) != 1 || st[0].Reason != "overflow" {
			t.Errorf("context statuses %+v: want one, compacted for the answer's room", st)
		}
		for _, ev := range evs {
			if ev.Type == engine.EventRetry {
				t.Errorf("retry event %+v: the provider refused a request", ev.Retry)
			}
		}
	})
}

// TestTurnSendsAnEstimateWithoutRoomAtTheFloor: a request whose input,
// estimated (the provider does not count), leaves no room for the floor
// of an answer, and that the engine cannot compact, is sent with the
// floor as max_tokens, the provider judging: the estimate may be over its
// count, as here (a tokenizer of a token for eight characters), and the
// request is answered.
func TestTurnSendsAnEstimateWithoutRoomAtTheFloor(t *testing.T) {
	srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow, Tokens: func(s string) int { return len(s) / 8 }})
	eng := sonnetEngine(t, srv, false, engine.Options{}, 392_000) // estimated at 196,000 tokens
	evs, err := turnEvents(t, eng, "go on")
	if err != nil {
		t.Fatalf("turn: %v", err)
	}
	sent := checkSentWithin(t, srv)
	starts := callStarts(evs)
	if len(sent) != 1 || sent[0].MaxTokens != engine.MinAnswerTokens || len(starts) != 1 ||
		starts[0].MaxTokensFrom != sonnetOutput || starts[0].InputCounted || starts[0].InputTokens < 190_000 {
		t.Errorf("sent %+v, model_call_start %+v: want max_tokens %d lowered from %d for an estimate", sent, starts, engine.MinAnswerTokens, sonnetOutput)
	}
}

// TestTurnRetriesWithTheInputTheAPICounted: a request whose estimate
// (half the API's count, here) left max_tokens too much room is refused
// with the API's message "input length and `max_tokens` exceed context
// limit: 150003 + 64000 > 200000", which gives the input's count: the
// request is made once more with max_tokens within the room that count
// leaves, not compacted. It failed (without the context engine) or was
// retried with every level forced (with it).
func TestTurnRetriesWithTheInputTheAPICounted(t *testing.T) {
	for _, tt := range []struct {
		name    string
		context *engine.ContextOptions
	}{{"no context engine", nil}, {"context engine", &engine.ContextOptions{}}} {
		t.Run(tt.name, func(t *testing.T) {
			srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
			eng := sonnetEngine(t, srv, false, engine.Options{Context: tt.context}, 150_000)
			evs, err := turnEvents(t, eng, "go on")
			if err != nil {
				t.Fatalf("turn: %v (requests %+v)", err, srv.Sent())
			}
			sent := srv.Sent()
			if len(sent) != 2 || !sent[0].Refused || sent[1].Refused || sent[1].Input != sent[0].Input ||
				sent[1].Input+sent[1].MaxTokens > sonnetWindow || sent[1].MaxTokens < sonnetWindow-sent[1].Input-sonnetWindow/20 {
				t.Errorf("requests %+v: want one refused, then the same input with the room its count leaves", sent)
			}
			starts := callStarts(evs)
			if len(starts) != 2 || starts[1].MaxTokensFrom != sonnetOutput || !starts[1].InputCounted || starts[1].InputTokens != sent[0].Input {
				t.Errorf("model_call_start %+v: want the retry's max_tokens lowered for the counted input %d", starts, sent[0].Input)
			}
			for _, st := range contextStatuses(evs) {
				if st.Level == 5 || st.Reason == "overflow" {
					t.Errorf("context status %+v: the request was cut to fit", st)
				}
			}
		})
	}
}

// TestTurnRefusedAsTooLongKeepsTheTurnsThatFit: a request the API refuses
// as too long, saying its count (74,000 tokens, twice the estimate, over
// a window of 50,000), is retried with the levels forced and measured at
// that count's scale, so that the oldest turns are left out down to 65%
// of the window: the retry keeps the turns that fit. It kept only the
// facts and the last two messages (level 5), the estimate saying the
// request fit.
func TestTurnRefusedAsTooLongKeepsTheTurnsThatFit(t *testing.T) {
	const window = 50_000
	srv := anthropictest.New(t, anthropictest.Options{Window: window})
	eng, _ := countingEngine(t, anthropicAt(srv, false), window, 700)
	evs, err := turnEvents(t, eng, "go on")
	if err != nil {
		t.Fatalf("turn: %v", err)
	}
	sent := srv.Sent()
	if len(sent) != 2 || !sent[0].Refused || sent[1].Refused || sent[1].Input < window/2 || sent[1].Input+sent[1].MaxTokens > window {
		t.Errorf("requests %+v: want one refused, then one of the turns that fit", sent)
	}
	if st := contextStatuses(evs); len(st) != 2 || st[1].Level != 4 || st[1].Reason != "room" || !st[1].Counted {
		t.Errorf("context statuses %+v: want the retry's at level 4, for the answer's room, counted", st)
	}
}
