package anthropic_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
)

// Example streams one answer. The server here stands in for the Messages
// API; a real program leaves BaseURL empty (or sets ANTHROPIC_BASE_URL) and
// takes its key from ANTHROPIC_API_KEY.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"usage":{"input_tokens":25,"cache_read_input_tokens":20,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Bonjour"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" !"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}

event: message_stop
data: {"type":"message_stop"}

`)
	}))
	defer api.Close()

	p := anthropic.New(anthropic.Options{APIKey: "sk-ant-example", BaseURL: api.URL})
	req := model.Request{
		Model:    "claude-sonnet-4-5",
		System:   "Answer in French.",
		Messages: []model.Message{model.UserText("Say hello.")},
	}
	for chunk, err := range p.Stream(context.Background(), req) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		switch chunk.Kind {
		case model.ChunkText:
			fmt.Printf("%q\n", chunk.Text)
		case model.ChunkDone:
			u := chunk.Usage
			fmt.Printf("%s: %d tokens in (%d from cache), %d out\n", chunk.StopReason, u.InputTokens, u.CacheReadTokens, u.OutputTokens)
		}
	}
	// Output:
	// "Bonjour"
	// " !"
	// stop: 25 tokens in (20 from cache), 4 out
}

// ExampleProvider_CheckKey tells the user what to do before any request is
// made. (The tests run with ANTHROPIC_API_KEY unset.)
func ExampleProvider_CheckKey() {
	p := anthropic.New(anthropic.Options{})
	if err := p.CheckKey(); errors.Is(err, anthropic.ErrNoAPIKey) {
		fmt.Println("set ANTHROPIC_API_KEY to talk to Claude")
	}
	// Output:
	// set ANTHROPIC_API_KEY to talk to Claude
}

// ExampleNew_withRetry retries rate limits and overloads that happen before
// the first chunk; the provider itself never retries.
func ExampleNew_withRetry() {
	var p model.Provider = model.WithRetry(anthropic.New(anthropic.Options{}), model.RetryOptions{MaxRetries: 3})
	_ = p
}
