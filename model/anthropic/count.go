package anthropic

import (
	"context"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/lite-agent/lite-agent-go/model"
)

// A CountingProvider is a [Provider] that also counts the tokens of a
// request with the Messages API's token counting endpoint, as a
// [model.TokenCounter]: the engine's context engine then scales its
// estimates to the API's count of each request large enough to matter (see
// the engine package). Each count is one more API call, which is why a
// plain Provider does not count. Get one with
// [Provider.WithTokenCounting] (the zero value has no Provider and cannot
// be used); it is safe for concurrent use, as a Provider is.
type CountingProvider struct {
	*Provider
}

var _ model.TokenCounter = CountingProvider{}

// WithTokenCounting returns p as a [CountingProvider].
func (p *Provider) WithTokenCounting() CountingProvider { return CountingProvider{p} }

// CountTokens returns the input tokens of req as the API counts them: the
// system prompt, the messages and the tools, mapped as Stream maps them.
// Errors are *[model.Error] values classified as Stream's are.
func (p CountingProvider) CountTokens(ctx context.Context, req model.Request) (int, error) {
	if err := p.CheckKey(); err != nil {
		return 0, err
	}
	full, err := p.params(req)
	if err != nil {
		return 0, model.NewError(model.ClassBadRequest, 0, err.Error(), err)
	}
	params := sdk.MessageCountTokensParams{
		Messages:   full.Messages,
		Model:      full.Model,
		System:     sdk.MessageCountTokensParamsSystemUnion{OfTextBlockArray: full.System},
		ToolChoice: full.ToolChoice,
	}
	for _, t := range full.Tools {
		params.Tools = append(params.Tools, sdk.MessageCountTokensToolUnionParam{OfTool: t.OfTool})
	}
	res, err := p.client.Messages.CountTokens(ctx, params)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return 0, ctxErr
		}
		return 0, p.streamError(err, false)
	}
	return int(res.InputTokens), nil
}

// claudeWindow is the context window of every Claude model since Claude 3,
// in tokens. Larger windows need a beta header this provider does not send.
const claudeWindow = 200_000

// ContextWindow reports the context window of model ([model.WindowReporter]):
// 200,000 tokens for a Claude model (an id starting with "claude-"), 0 for
// an id it does not know.
func (p *Provider) ContextWindow(model string) int {
	if strings.HasPrefix(model, "claude-") {
		return claudeWindow
	}
	return 0
}
