package main

import "github.com/lite-agent/lite-agent-go/model"

// buildOpenAI returns the OpenAI-compatible provider the flags select.
func buildOpenAI(f *agentFlags) (model.Provider, string, error) {
	return nil, "", usagef("--provider openai is not available in this build")
}
