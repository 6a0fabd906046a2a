package main

import (
	"errors"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/openai"
)

// buildOpenAI returns the OpenAI-compatible provider the flags select. Local
// servers need no key; OpenAI's own endpoint does.
func buildOpenAI(f *agentFlags) (model.Provider, string, error) {
	p := openai.New(openai.Options{BaseURL: f.baseURL})
	if err := p.CheckKey(); err != nil {
		if errors.Is(err, openai.ErrNoAPIKey) {
			return nil, "", errors.New("no OpenAI API key: set OPENAI_API_KEY, or give --base-url for a local OpenAI-compatible server")
		}
		return nil, "", err
	}
	return p, cmpOr(f.model, "gpt-4.1-mini"), nil
}
