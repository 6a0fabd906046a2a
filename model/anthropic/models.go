package anthropic

import "strings"

// FallbackMaxTokens is max_tokens for a model that [MaxOutputTokens] does
// not know, when neither the request nor [Options.DefaultMaxTokens] sets
// it: 4096, which every Claude model accepts.
const FallbackMaxTokens = 4096

// outputLimits are the documented maximum output tokens of Claude models,
// by model id prefix. The longest matching prefix wins, so
// "claude-opus-4-6" is looked up before "claude-opus-4", and dated ids
// ("claude-sonnet-4-20250514") and aliases ("claude-sonnet-4-0") share
// their family's entry.
var outputLimits = [...]struct {
	prefix string
	tokens int
}{
	{"claude-fable-5", 128_000},
	{"claude-opus-5", 128_000},
	{"claude-sonnet-5", 128_000},
	{"claude-opus-4-8", 128_000},
	{"claude-opus-4-7", 128_000},
	{"claude-opus-4-6", 128_000},
	{"claude-sonnet-4-6", 128_000},
	{"claude-opus-4-5", 64_000},
	{"claude-sonnet-4-5", 64_000},
	{"claude-haiku-4-5", 64_000},
	{"claude-opus-4-1", 32_000},
	{"claude-opus-4", 32_000},
	{"claude-sonnet-4", 64_000},
	{"claude-3-7-sonnet", 64_000},
	{"claude-3-5-sonnet", 8_192},
	{"claude-3-5-haiku", 8_192},
	{"claude-3-opus", 4_096},
	{"claude-3-haiku", 4_096},
}

// MaxOutputTokens returns the documented maximum output tokens of the
// Claude model id, and whether the model is known. It matches the id by
// prefix, case-insensitively, after any platform prefix ending in "."
// (Amazon Bedrock's "anthropic.claude-…" and "us.anthropic.claude-…");
// Vertex AI's "claude-…@date" ids match too. An unknown model reports
// (0, false).
func MaxOutputTokens(modelID string) (int, bool) {
	id := strings.ToLower(modelID)
	if i := strings.LastIndex(id, "."); i >= 0 && strings.HasPrefix(id[i+1:], "claude-") {
		id = id[i+1:]
	}
	best, tokens := -1, 0
	for _, l := range outputLimits {
		if len(l.prefix) > best && hasFamilyPrefix(id, l.prefix) {
			best, tokens = len(l.prefix), l.tokens
		}
	}
	return tokens, best >= 0
}

// hasFamilyPrefix reports whether id is prefix or continues it after a
// separator ("-", "@", ":"), so that "claude-opus-4" matches
// "claude-opus-4-20250514" but "claude-opus-4-5" does not match
// "claude-opus-4-50".
func hasFamilyPrefix(id, prefix string) bool {
	if !strings.HasPrefix(id, prefix) {
		return false
	}
	rest := id[len(prefix):]
	return rest == "" || strings.ContainsRune("-@:", rune(rest[0]))
}

// DefaultMaxTokens returns the max_tokens p sends for a request to
// modelID whose MaxTokens is zero (see [Options.DefaultMaxTokens]); it
// makes p a [model.MaxTokensReporter].
func (p *Provider) DefaultMaxTokens(modelID string) int { return int(p.maxTokensFor(modelID)) }

// maxTokensFor returns max_tokens for a request to modelID whose MaxTokens
// is zero: the provider's DefaultMaxTokens when set, else the model's
// documented limit, else FallbackMaxTokens.
func (p *Provider) maxTokensFor(modelID string) int64 {
	if p.maxTokens > 0 {
		return p.maxTokens
	}
	if n, ok := MaxOutputTokens(modelID); ok {
		return int64(n)
	}
	return FallbackMaxTokens
}
