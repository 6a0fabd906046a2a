package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/openai"
)

// A local server, such as Ollama's OpenAI-compatible endpoint, needs no key.
func ExampleNew_localServer() {
	p := openai.New(openai.Options{BaseURL: "http://localhost:11434/v1"})
	fmt.Println(p.BaseURL(), p.CheckKey())
	// Output: http://localhost:11434/v1 <nil>
}

// Stream yields text as it arrives and ends with the whole message.
func ExampleProvider_Stream() {
	// A stand-in for an OpenAI-compatible server.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"Hello"}}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":", world"},"finish_reason":"stop"}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":3}}`+"\n\n")
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()

	p := openai.New(openai.Options{BaseURL: srv.URL + "/v1"})
	req := model.Request{Model: "llama3.2", Messages: []model.Message{model.UserText("Say hello.")}}
	for chunk, err := range p.Stream(context.Background(), req) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		switch chunk.Kind {
		case model.ChunkText:
			fmt.Printf("text %q\n", chunk.Text)
		case model.ChunkDone:
			fmt.Printf("done: %q, %s, %d+%d tokens\n", chunk.Message.PlainText(), chunk.StopReason, chunk.Usage.InputTokens, chunk.Usage.OutputTokens)
		}
	}
	// Output:
	// text "Hello"
	// text ", world"
	// done: "Hello, world", stop, 9+3 tokens
}

// Retries come from model.WithRetry; the provider itself sends each request
// once.
func ExampleProvider_withRetry() {
	var attempts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if attempts.Add(1) == 1 {
			w.Header().Set("Retry-After-Ms", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"Rate limit reached"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()

	p := model.WithRetry(openai.New(openai.Options{BaseURL: srv.URL}), model.RetryOptions{
		BaseDelay: time.Millisecond,
		OnRetry: func(n int, err error, _ time.Duration) {
			fmt.Printf("retry %d after: %v\n", n, err)
		},
	})
	for chunk, err := range p.Stream(context.Background(), model.Request{Model: "m"}) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if chunk.Kind == model.ChunkDone {
			fmt.Printf("done: %q after %d attempts\n", chunk.Message.PlainText(), attempts.Load())
		}
	}
	// Output:
	// retry 1 after: model: rate_limit (HTTP 429): Rate limit reached
	// done: "ok" after 2 attempts
}
