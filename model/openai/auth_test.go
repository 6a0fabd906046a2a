package openai_test

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/openai"
)

// countingTransport fails every request and counts them.
type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	c.n.Add(1)
	return nil, errors.New("no network in this test")
}

func clearEnv(t *testing.T) {
	t.Setenv(openai.EnvAPIKey, "")
	t.Setenv(openai.EnvBaseURL, "")
}

func TestMissingKeyForOpenAIFailsBeforeSending(t *testing.T) {
	clearEnv(t)
	for name, base := range map[string]string{"default": "", "explicit": openai.DefaultBaseURL, "trailing slash": openai.DefaultBaseURL + "/"} {
		t.Run(name, func(t *testing.T) {
			tr := &countingTransport{}
			p := openai.New(openai.Options{BaseURL: base, HTTPClient: &http.Client{Transport: tr}})
			check := p.CheckKey()
			if !errors.Is(check, openai.ErrNoAPIKey) || !model.IsClass(check, model.ClassAuth) {
				t.Errorf("CheckKey() = %v, want ClassAuth wrapping ErrNoAPIKey", check)
			}
			r := collect(t, p.Stream(t.Context(), model.Request{Model: "m"}))
			e := modelError(t, r.err)
			if e.Class != model.ClassAuth || !errors.Is(e, openai.ErrNoAPIKey) || !strings.Contains(e.Error(), "OPENAI_API_KEY") {
				t.Errorf("error = %v, want ClassAuth naming OPENAI_API_KEY", e)
			}
			if n := tr.n.Load(); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

func TestCheckKeyReturnsACopy(t *testing.T) {
	clearEnv(t)
	p := openai.New(openai.Options{})
	modelError(t, p.CheckKey()).Message = "changed"
	if e := modelError(t, p.CheckKey()); e.Message == "changed" {
		t.Error("a caller changed the error the provider reports")
	}
}

func TestLocalServerNeedsNoKey(t *testing.T) {
	clearEnv(t)
	f := newFake(t, sse(text("hi"), finish("stop"), done))
	p := openai.New(openai.Options{BaseURL: f.srv.URL + "/v1"})
	if err := p.CheckKey(); err != nil {
		t.Errorf("CheckKey() = %v, want nil for a custom endpoint", err)
	}
	if r := collect(t, p.Stream(t.Context(), model.Request{Model: "m"})); r.err != nil {
		t.Fatal(r.err)
	}
	if h, ok := f.requests()[0].header["Authorization"]; ok {
		t.Errorf("Authorization = %q sent without a key", h)
	}
}

func TestKeyIsSentAsBearerToken(t *testing.T) {
	clearEnv(t)
	f := newFake(t, sse(finish("stop"), done))
	if r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"})); r.err != nil {
		t.Fatal(r.err)
	}
	if got := f.requests()[0].header.Get("Authorization"); got != "Bearer test-key" {
		t.Errorf("Authorization = %q", got)
	}
}

func TestKeyAndEndpointComeFromTheEnvironment(t *testing.T) {
	f := newFake(t, sse(finish("stop"), done), sse(finish("stop"), done))
	t.Setenv(openai.EnvAPIKey, "env-key")
	t.Setenv(openai.EnvBaseURL, f.srv.URL+"/v1/")

	p := openai.New(openai.Options{})
	if got, want := p.BaseURL(), f.srv.URL+"/v1"; got != want {
		t.Errorf("BaseURL() = %q, want %q", got, want)
	}
	if r := collect(t, p.Stream(t.Context(), model.Request{Model: "m"})); r.err != nil {
		t.Fatal(r.err)
	}
	if got := f.requests()[0].header.Get("Authorization"); got != "Bearer env-key" {
		t.Errorf("Authorization = %q, want the key from the environment", got)
	}

	// Options win over the environment.
	p = openai.New(openai.Options{APIKey: "opt-key", BaseURL: f.srv.URL + "/v1"})
	if r := collect(t, p.Stream(t.Context(), model.Request{Model: "m"})); r.err != nil {
		t.Fatal(r.err)
	}
	if got := f.requests()[1].header.Get("Authorization"); got != "Bearer opt-key" {
		t.Errorf("Authorization = %q, want the key from the options", got)
	}
}

func TestMalformedBaseURLFailsBeforeSending(t *testing.T) {
	clearEnv(t)
	for _, base := range []string{"localhost:11434/v1", "ftp://host/v1", "http://", "://x"} {
		t.Run(base, func(t *testing.T) {
			tr := &countingTransport{}
			p := openai.New(openai.Options{BaseURL: base, APIKey: "k", HTTPClient: &http.Client{Transport: tr}})
			if !model.IsClass(p.CheckKey(), model.ClassBadRequest) {
				t.Errorf("CheckKey() = %v, want ClassBadRequest", p.CheckKey())
			}
			r := collect(t, p.Stream(t.Context(), model.Request{Model: "m"}))
			if e := modelError(t, r.err); e.Class != model.ClassBadRequest {
				t.Errorf("error = %v, want ClassBadRequest", e)
			}
			if n := tr.n.Load(); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

func TestProviderUsesTheGivenHTTPClient(t *testing.T) {
	tr := &countingTransport{}
	p := openai.New(openai.Options{APIKey: "k", BaseURL: "http://example.invalid/v1", HTTPClient: &http.Client{Transport: tr}})
	r := collect(t, p.Stream(t.Context(), model.Request{Model: "m"}))
	if e := modelError(t, r.err); e.Class != model.ClassNetwork {
		t.Errorf("error = %v, want ClassNetwork", e)
	}
	if n := tr.n.Load(); n != 1 {
		t.Errorf("the given client saw %d requests, want 1", n)
	}
}
