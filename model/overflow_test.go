package model_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
)

// TestOverflowTokens reads the input's tokens and the limit from the
// messages of the APIs that say them, and nothing from others.
func TestOverflowTokens(t *testing.T) {
	for _, tt := range []struct {
		msg          string
		class        model.ErrorClass
		input, limit int
	}{
		{"input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again", model.ClassContextOverflow, 188240, 200000},
		{"prompt is too long: 210000 tokens > 200000 maximum", model.ClassContextOverflow, 210000, 200000},
		{"This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (5000 in the messages, 4000 in the completion). Please reduce the length of the messages or completion.", model.ClassContextOverflow, 5000, 8192},
		{"This model's maximum context length is 16385 tokens. However, your messages resulted in 31228 tokens.", model.ClassContextOverflow, 31228, 16385},
		// The tools' definitions are input too: all but the completion.
		{"This model's maximum context length is 8192 tokens. However, you requested 9500 tokens (5000 in the messages, 500 in the functions, 4000 in the completion). Please reduce the length of the messages, functions, or completion.", model.ClassContextOverflow, 5500, 8192},
		{"This model's maximum context length is 4097 tokens. However, your messages resulted in 4225 tokens (4125 in the messages, 100 in the functions). Please reduce the length of the messages or functions.", model.ClassContextOverflow, 4225, 4097},
		{"prompt is too long", model.ClassContextOverflow, 0, 0},
		// Only a context overflow says them.
		{"prompt is too long: 210000 tokens > 200000 maximum", model.ClassBadRequest, 0, 0},
	} {
		e := model.NewError(tt.class, 400, tt.msg, nil)
		if in, limit := e.OverflowTokens(); in != tt.input || limit != tt.limit {
			t.Errorf("%q: OverflowTokens = %d, %d, want %d, %d", tt.msg, in, limit, tt.input, tt.limit)
		}
	}
}
