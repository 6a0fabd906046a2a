package model_test

import (
	"context"
	"fmt"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// WithRetry sends a request that was rate limited again; the caller sees
// only the stream that succeeded, and OnRetry reports each retry.
func ExampleWithRetry() {
	p := modeltest.New()
	p.Fail(model.NewError(model.ClassRateLimit, 429, "slow down", nil))
	p.Reply(modeltest.Text("Hello there."))

	retrying := model.WithRetry(p, model.RetryOptions{
		BaseDelay: time.Millisecond, // keep the example quick; the default is 250 ms
		OnRetry: func(attempt int, err error, _ time.Duration) {
			fmt.Printf("retry %d after: %v\n", attempt, err)
		},
	})
	for c, err := range retrying.Stream(context.Background(), model.Request{Messages: []model.Message{model.UserText("hi")}}) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if c.Kind == model.ChunkText {
			fmt.Printf("text %q\n", c.Text)
		}
	}
	// Output:
	// retry 1 after: model: rate_limit (HTTP 429): slow down
	// text "Hello "
	// text "there."
}

// Checked turns a stream that ends without its final chunk into an error.
func ExampleChecked() {
	p := modeltest.New()
	p.FailAfter([]model.Chunk{{Kind: model.ChunkText, Text: "Hel"}}, nil) // ends early, no error
	for c, err := range model.Checked(p).Stream(context.Background(), model.Request{}) {
		if err != nil {
			fmt.Println("error:", err)
			break
		}
		fmt.Printf("text %q\n", c.Text)
	}
	// Output:
	// text "Hel"
	// error: model: stream: provider produced no message_done chunk
}

// IsRetryable is the default policy; a custom one can extend it.
func ExampleIsRetryable() {
	fmt.Println(model.IsRetryable(model.NewError(model.ClassOverloaded, 529, "", nil)))
	fmt.Println(model.IsRetryable(model.NewError(model.ClassAuth, 401, "", nil)))
	// Output:
	// true
	// false
}
