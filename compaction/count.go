package compaction

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/lite-agent/lite-agent-go/model"
)

// A TooLongError is the failure of a summary request that the provider's
// token count ([model.TokenCounter]) found over the room of a request
// within the window ([SummaryOptions.Window]): it was not sent, and is
// asked for again in smaller requests, as one the provider refuses as too
// long.
type TooLongError struct {
	Tokens int // the request's tokens, as the provider counts them
	Room   int // the most tokens a summary request may take
}

// Error gives the counted tokens and the room they exceed.
func (e *TooLongError) Error() string {
	return fmt.Sprintf("compaction: a summary request of %d tokens (as the provider counts them) is over its room of %d", e.Tokens, e.Room)
}

// tooLong reports whether err is a request refused as too long, by the
// provider or by its count.
func tooLong(err error) bool {
	var tl *TooLongError
	return model.IsClass(err, model.ClassContextOverflow) || errors.As(err, &tl)
}

// A CountError reports that a summary was planned, in part or whole, with
// estimated tokens where the provider counts them ([model.TokenCounter]):
// a count failed (Err), or the summary used up its counts (Limit).
type CountError struct {
	// Err is the count's failure; nil when the counts ran out.
	Err error
	// Limit is the counts a summary may ask for ([SummaryOptions.MaxRequests]
	// times 2, plus 1), when they ran out.
	Limit int
}

// Error says the count failed and that estimates are used instead.
func (e *CountError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("compaction: token count failed, estimating: %v", e.Err)
	}
	return fmt.Sprintf("compaction: the summary used up its %d token counts, estimating", e.Limit)
}

// Unwrap returns the count's failure.
func (e *CountError) Unwrap() error { return e.Err }

// A meter counts the requests of one summary with the provider's token
// counter: each prompt once, at most limit times. A nil meter counts
// nothing, and neither does one after a failed count: estimates then.
type meter struct {
	tc    model.TokenCounter
	req   func(prompt string) model.Request
	room  int // the most tokens a request may take
	limit int
	calls int
	seen  map[[sha256.Size]byte]int
	err   *CountError // why it stopped counting, if it did
	p     *summary
}

// meter returns the meter of a summary whose requests take at most room
// tokens: nil when the provider does not count tokens.
func (p *summary) meter(ctx context.Context, room int) *meter {
	tc, ok := model.AsTokenCounter(p.provider)
	if !ok {
		return nil
	}
	window := p.window(ctx)
	return &meter{tc: tc, req: func(prompt string) model.Request { return p.request(prompt, window) }, room: room, limit: 2*p.opts.MaxRequests + 1, seen: make(map[[sha256.Size]byte]int), p: p}
}

// count returns the tokens of the summary request with prompt as the
// provider counts them, and whether it counted: not without a counter,
// after a failed count, beyond the limit, or for a request the provider
// says is too long to count. It returns ctx's error only.
func (m *meter) count(ctx context.Context, prompt string) (int, bool, error) {
	if m == nil || m.err != nil {
		return 0, false, nil
	}
	key := sha256.Sum256([]byte(prompt))
	if n, ok := m.seen[key]; ok {
		return n, true, nil
	}
	if m.calls >= m.limit {
		m.err = &CountError{Limit: m.limit}
		return 0, false, nil
	}
	m.calls++
	n, err := m.tc.CountTokens(ctx, m.req(prompt))
	if err == nil && n < 0 {
		err = fmt.Errorf("negative token count %d", n)
	}
	if err != nil {
		if ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
		if model.IsClass(err, model.ClassContextOverflow) {
			// Too long to count (over the model's window): the
			// request goes by its estimate, as one the provider
			// would refuse, and the next are counted.
			return 0, false, nil
		}
		m.err = &CountError{Err: err}
		return 0, false, nil
	}
	m.seen[key] = n
	return n, true, nil
}

// report records why the meter stopped counting, if it did, in ctx's
// [SummaryReport] and the log.
func (m *meter) report(ctx context.Context) {
	if m == nil || m.err == nil {
		return
	}
	if rep := summaryReport(ctx); rep != nil && rep.CountErr == nil {
		rep.CountErr = m.err
	}
	if m.p.opts.Logger != nil {
		m.p.opts.Logger.Warn("compaction summary: estimating tokens", "err", m.err)
	}
}
