package anthropic

import (
	"errors"
	"net/http"
	"net/url"
	"os"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/lite-agent/lite-agent-go/model"
)

// The environment variables [New] reads when [Options] leaves a field empty.
const (
	EnvAPIKey  = "ANTHROPIC_API_KEY"
	EnvBaseURL = "ANTHROPIC_BASE_URL"
)

// ProviderName is the Provider of the native blocks this package produces
// and the only one whose native blocks it sends.
const ProviderName = "anthropic"

// headerTimeout bounds the wait for response headers when the provider makes
// its own HTTP client. It does not limit how long a response streams.
const headerTimeout = 10 * time.Minute

// ErrNoAPIKey reports that no API key was given in [Options.APIKey] nor in
// the ANTHROPIC_API_KEY environment variable. Requests made without a key
// fail with a [model.ClassAuth] error that wraps it.
var ErrNoAPIKey = errors.New("anthropic: no API key: set ANTHROPIC_API_KEY")

// Options configures a [Provider]. The zero value reads the key and the
// endpoint from the environment and uses its own HTTP client.
type Options struct {
	// APIKey is the Anthropic API key; "" means the ANTHROPIC_API_KEY
	// environment variable.
	APIKey string
	// BaseURL is the API endpoint, such as "https://api.anthropic.com";
	// "" means the ANTHROPIC_BASE_URL environment variable, and when that
	// is unset too, Anthropic's production endpoint.
	BaseURL string
	// HTTPClient sends the requests; nil means a client of the provider's
	// own, whose transport is a copy of http.DefaultTransport that waits
	// at most 10 minutes for response headers.
	HTTPClient *http.Client
	// DefaultMaxTokens is max_tokens for requests whose MaxTokens is zero;
	// zero means the model's documented output limit ([MaxOutputTokens]),
	// or [FallbackMaxTokens] for a model not in that table. Set it to
	// bound the cost or the rate-limit share of one response.
	DefaultMaxTokens int
}

// Provider streams responses from Anthropic's Messages API. It is safe for
// concurrent use.
type Provider struct {
	client    sdk.Client
	configErr *model.Error // set when requests cannot be made; reported by Stream
	maxTokens int64        // Options.DefaultMaxTokens; zero: by model
	now       func() time.Time
}

var _ model.Provider = (*Provider)(nil)

// New returns a Provider configured by opts. It does not fail: a missing key
// or a malformed base URL is reported by [Provider.CheckKey] and by every
// request, which then fails before anything is sent.
func New(opts Options) *Provider {
	p := &Provider{now: time.Now}
	if opts.DefaultMaxTokens > 0 {
		p.maxTokens = int64(opts.DefaultMaxTokens)
	}
	key := opts.APIKey
	if key == "" {
		key = os.Getenv(EnvAPIKey)
	}
	if key == "" {
		p.configErr = model.NewError(model.ClassAuth, 0, "no API key: set "+EnvAPIKey, ErrNoAPIKey)
		return p
	}
	base, baseVar := opts.BaseURL, "Options.BaseURL"
	if base == "" {
		base, baseVar = os.Getenv(EnvBaseURL), EnvBaseURL
	}
	if base != "" {
		if u, err := url.Parse(base); err != nil || u.Scheme == "" || u.Host == "" {
			p.configErr = model.NewError(model.ClassBadRequest, 0, baseVar+" is not an absolute URL", err)
			return p
		}
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient()
	}
	sdkOpts := []option.RequestOption{
		// Only what this package resolved: no profiles, tokens or headers
		// from the environment.
		option.WithoutEnvironmentDefaults(),
		option.WithAPIKey(key),
		option.WithHTTPClient(hc),
		// Retrying is model.WithRetry's job, which knows whether any of the
		// response was already streamed.
		option.WithMaxRetries(0),
	}
	if base != "" {
		sdkOpts = append(sdkOpts, option.WithBaseURL(base))
	}
	p.client = sdk.NewClient(sdkOpts...)
	return p
}

// CheckKey reports whether the provider can send requests. It returns nil,
// or the *[model.Error] every request would fail with: class
// [model.ClassAuth] wrapping [ErrNoAPIKey] when there is no API key, or
// [model.ClassBadRequest] when the base URL is malformed. Use it to tell the
// user to set ANTHROPIC_API_KEY before starting a conversation.
func (p *Provider) CheckKey() error {
	if p.configErr == nil {
		return nil
	}
	e := *p.configErr // a copy, so that no caller can change what others see
	return &e
}

func defaultHTTPClient() *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return &http.Client{Transport: http.DefaultTransport}
	}
	t = t.Clone()
	t.ResponseHeaderTimeout = headerTimeout
	return &http.Client{Transport: t}
}
