package openai

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
)

// The environment variables [New] reads when [Options] leaves a field empty.
const (
	EnvAPIKey  = "OPENAI_API_KEY"
	EnvBaseURL = "OPENAI_BASE_URL"
)

// DefaultBaseURL is OpenAI's endpoint, used when neither [Options.BaseURL]
// nor OPENAI_BASE_URL is set.
const DefaultBaseURL = "https://api.openai.com/v1"

// headerTimeout bounds the wait for response headers when the provider makes
// its own HTTP client. It does not limit how long a response streams.
const headerTimeout = 10 * time.Minute

// ErrNoAPIKey reports that no API key was given in [Options.APIKey] nor in
// the OPENAI_API_KEY environment variable while the endpoint is OpenAI's own.
// Requests made then fail with a [model.ClassAuth] error that wraps it.
var ErrNoAPIKey = errors.New("openai: no API key: set OPENAI_API_KEY")

// Options configures a [Provider]. The zero value reads the key and the
// endpoint from the environment and uses its own HTTP client.
type Options struct {
	// APIKey is sent as a bearer token; "" means the OPENAI_API_KEY
	// environment variable. With neither, no Authorization header is sent,
	// which local servers accept; OpenAI's own endpoint is then refused
	// before anything is sent (see [Provider.CheckKey]).
	APIKey string
	// BaseURL is the API root that "/chat/completions" is appended to, such
	// as "http://localhost:11434/v1" for Ollama; "" means the
	// OPENAI_BASE_URL environment variable, and when that is unset too,
	// [DefaultBaseURL].
	BaseURL string
	// HTTPClient sends the requests; nil means a client of the provider's
	// own, whose transport is a copy of http.DefaultTransport that waits at
	// most 10 minutes for response headers. The client's own Timeout, if
	// any, also bounds how long a response may stream.
	HTTPClient *http.Client
}

// Provider streams responses from an OpenAI-compatible Chat Completions
// endpoint. It never retries; wrap it with [model.WithRetry] for that. It is
// safe for concurrent use.
type Provider struct {
	client    *http.Client
	baseURL   string
	endpoint  string // baseURL + "/chat/completions"
	key       string
	configErr *model.Error // set when requests cannot be made; reported by Stream

	now   func() time.Time // for Retry-After dates
	newID func() string    // ids for tool calls a server sends without one
}

var _ model.Provider = (*Provider)(nil)

// InputIncludesCache reports true: a usage's InputTokens is
// prompt_tokens, which includes the cached tokens (CacheReadTokens), as
// [model.RequestInput] takes it.
func (p *Provider) InputIncludesCache() bool { return true }

// New returns a Provider configured by opts. It does not fail: a missing key
// for OpenAI's endpoint or a malformed base URL is reported by
// [Provider.CheckKey] and by every request, which then fails before anything
// is sent.
func New(opts Options) *Provider {
	p := &Provider{client: opts.HTTPClient, now: time.Now, newID: randomID}
	if p.client == nil {
		p.client = defaultHTTPClient()
	}
	p.key = opts.APIKey
	if p.key == "" {
		p.key = os.Getenv(EnvAPIKey)
	}
	base, baseVar := opts.BaseURL, "Options.BaseURL"
	if base == "" {
		base, baseVar = os.Getenv(EnvBaseURL), EnvBaseURL
	}
	if base == "" {
		base = DefaultBaseURL
	}
	base = strings.TrimRight(base, "/")
	p.baseURL = base
	p.endpoint = base + "/chat/completions"
	if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.configErr = model.NewError(model.ClassBadRequest, 0, baseVar+" is not an absolute http or https URL", err)
		return p
	}
	if p.key == "" && base == DefaultBaseURL {
		p.configErr = model.NewError(model.ClassAuth, 0, "no API key: set "+EnvAPIKey, ErrNoAPIKey)
	}
	return p
}

// BaseURL returns the API root requests are sent to, without a trailing
// slash.
func (p *Provider) BaseURL() string { return p.baseURL }

// CheckKey reports whether the provider can send requests. It returns nil,
// or the *[model.Error] every request would fail with: class
// [model.ClassAuth] wrapping [ErrNoAPIKey] when the endpoint is OpenAI's and
// there is no API key, or [model.ClassBadRequest] when the base URL is
// malformed. Use it to tell the user to set OPENAI_API_KEY before starting a
// conversation. A custom endpoint without a key is not an error: local
// servers need none.
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

// randomID returns an id for a tool call that arrived without one.
func randomID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return "call_" + hex.EncodeToString(b[:])
}
