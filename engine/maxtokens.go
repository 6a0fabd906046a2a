package engine

import (
	"context"
	"fmt"

	"github.com/lite-agent/lite-agent-go/model"
)

// MinAnswerTokens is the least max_tokens the engine lowers a request's
// max_tokens to (or the configured one, or a quarter of the context
// window, when smaller), so that the model can still answer: a request
// whose input leaves less room than that in the context window is
// compacted first, or not sent (an [OutputRoomError]).
const MinAnswerTokens = 4096

// An OutputRoomError reports a model request that was not sent because
// its input, as the provider counted it, leaves less than the floor of
// the answer ([MinAnswerTokens], or MaxTokens or a quarter of Window when
// smaller) in the model's context window, even compacted (with [Options.Context] or
// [Options.OverflowPasses]). It is a context overflow: it unwraps to a
// *[model.Error] of class [model.ClassContextOverflow].
type OutputRoomError struct {
	// Window is the model's context window in tokens.
	Window int
	// Input is the request's input tokens (at least Window when the
	// provider refused to count them as too long); Counted reports that
	// the provider counted them.
	Input   int
	Counted bool
	// MaxTokens is the max_tokens the request would have had
	// ([Options.MaxTokens], else the provider's default).
	MaxTokens int
}

// Error gives the input's tokens, whether counted or estimated, the
// context window and the least room an answer needs in it.
func (e *OutputRoomError) Error() string {
	how := "estimated"
	if e.Counted {
		how = "counted"
	}
	floor := answerRoom{window: e.Window, want: e.MaxTokens}.floor()
	return fmt.Sprintf("engine: a request of %d input tokens (%s) leaves less than %d tokens for the answer in the context window of %d", e.Input, how, floor, e.Window)
}

// Unwrap returns the context overflow the error is.
func (e *OutputRoomError) Unwrap() error {
	return model.NewError(model.ClassContextOverflow, 0, "no room for the answer in the context window", nil)
}

// overflowCount is what a provider said of a request it refused as too
// long ([model.Error.OverflowTokens]): its input's tokens and the model's
// context limit; zero when it did not say.
type overflowCount struct{ input, limit int }

// answerRoom is what bindAnswer found of a request's max_tokens.
type answerRoom struct {
	window int // the model's known context window; 0: none, nothing bound
	want   int // the max_tokens the request would have had
	// input is the request's input tokens; counted reports that the
	// provider counted them.
	input   int
	counted bool
	// from is want when max_tokens was lowered from it; 0 otherwise.
	from int
	// short reports that the input leaves less than the floor.
	short bool
}

// floor is the least max_tokens the room lowers a request's to: the
// wanted one, MinAnswerTokens or a quarter of the window, the least.
func (a answerRoom) floor() int { return max(min(a.want, MinAnswerTokens, a.window/4), 1) }

// The margins bindAnswer leaves in the window besides the input and the
// answer, as fractions of the window: a count is of the request the
// levels then changed a little, or exact; an estimate may be well under
// the provider's count (code, text that is not English).
const (
	countedMargin   = 0.01
	estimatedMargin = 0.05
)

// apiWindow returns the context window the provider's API counts a
// request's input and max_tokens against, when it is known: the one the
// provider reports ([model.WindowReporter]), else the context options';
// 0 otherwise (the context engine's DefaultContextWindow is a guess,
// which max_tokens is not bound to). A host's window smaller than the
// provider's makes the context engine compact sooner, and does not
// bound the answer: the API does not refuse what fits its own window.
func (e *Engine) apiWindow() int {
	if wr, ok := model.AsWindowReporter(e.opts.Provider); ok {
		if n := wr.ContextWindow(e.opts.Model); n > 0 {
			return n
		}
	}
	if e.opts.Context != nil && e.opts.Context.Window > 0 {
		return e.opts.Context.Window
	}
	return 0
}

// bindAnswer lowers req's max_tokens — [Options.MaxTokens], else the
// provider's default ([model.MaxTokensReporter]) — to the room the input
// of size leaves in the model's known window, less a margin, when that is
// less: an API that counts max_tokens against the window (Anthropic's,
// and most OpenAI-compatible servers) refuses a request whose input and
// max_tokens together exceed it, though the input alone fits. An explicit
// MaxTokens is lowered too: it bounds the answer, and a lower bound still
// does; the model_call_start event says from what. The input is the
// provider's count when it counts tokens ([model.TokenCounter]) and the
// estimate says it may not fit (a token is at most about a character, four
// times the estimate), else the estimate. Nothing is bound without a
// max_tokens or a known window. known, when set, is the provider's word
// on the same request, refused: its count of the input, and its limit,
// which bounds the window. It reports a room under the floor (short)
// without changing req; it returns ctx's error only.
func (r *run) bindAnswer(ctx context.Context, req *model.Request, size inputSize, known overflowCount) (answerRoom, error) {
	e := r.e
	a := answerRoom{want: e.wantMaxTokens(), window: e.apiWindow(), input: size.tokens, counted: size.exact}
	if known.limit > 0 && (a.window == 0 || known.limit < a.window) {
		a.window = known.limit
	}
	if a.want == 0 || a.window <= 0 {
		return answerRoom{want: a.want}, nil
	}
	if known.input > 0 {
		a.input, a.counted = known.input, true
	}
	bound := size.tokens
	if !size.scaled {
		bound *= 4
	}
	if tc, ok := model.AsTokenCounter(e.opts.Provider); ok && !a.counted && bound+a.want > a.window-margin(a.window, countedMargin) {
		n, err := tc.CountTokens(ctx, *req)
		switch {
		case err == nil && n >= 0:
			a.input, a.counted = n, true
		case ctx.Err() != nil:
			return answerRoom{}, ctx.Err()
		case model.IsClass(err, model.ClassContextOverflow):
			// Too long to count: over the window.
			a.input, a.counted = max(a.input, a.window), true
		default:
			e.log.Debug("token count failed; bounding max_tokens by the estimate", "session", r.id, "err", err)
		}
	}
	fraction := estimatedMargin
	if a.counted {
		fraction = countedMargin
	}
	room := a.window - a.input - margin(a.window, fraction)
	switch {
	case room >= a.want:
	case room < a.floor():
		a.short = true
	default:
		req.MaxTokens, a.from = room, a.want
	}
	return a, nil
}

// wantMaxTokens returns the max_tokens of a request the room does not
// lower: Options.MaxTokens, else the provider's default
// ([model.MaxTokensReporter]), else 0 (none is sent).
func (e *Engine) wantMaxTokens() int {
	if e.opts.MaxTokens > 0 {
		return e.opts.MaxTokens
	}
	if mr, ok := model.AsMaxTokensReporter(e.opts.Provider); ok {
		return max(mr.DefaultMaxTokens(e.opts.Model), 0)
	}
	return 0
}

// margin returns fraction of window, in tokens.
func margin(window int, fraction float64) int { return int(float64(window) * fraction) }
