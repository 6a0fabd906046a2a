package redact_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/redact"
)

// BenchmarkRequest masks a request of 100 messages of about 2 KiB each,
// with no literal secrets and with 10,000 (learned from an archive, say),
// against copying the request's text (strings.Clone), the least any
// redaction does.
func BenchmarkRequest(b *testing.B) {
	var msgs []model.Message
	size := 0
	for i := range 100 {
		text := strings.Repeat(fmt.Sprintf("line %d of message %d: nothing secret here, just words.\n", i, i), 36)
		size += len(text)
		msgs = append(msgs, model.UserText(text))
	}
	req := model.Request{System: "Be brief.", Messages: msgs}
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, m := range req.Messages {
				_ = strings.Clone(m.Text)
			}
		}
	})
	// first: a new redactor each time, so nothing is cached (the cost
	// of a request's new messages); repeat: the same redactor, so the
	// history of the previous request is cached.
	for _, learned := range []int{0, 10000} {
		secrets := make([]string, learned)
		for i := range secrets {
			secrets[i] = fmt.Sprintf("archived line %06d with some content", i)
		}
		b.Run(fmt.Sprintf("first/learned=%d", learned), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				r, err := redact.New(redact.Options{Secrets: secrets})
				if err != nil {
					b.Fatal(err)
				}
				r.Request(req)
			}
		})
		b.Run(fmt.Sprintf("repeat/learned=%d", learned), func(b *testing.B) {
			r, err := redact.New(redact.Options{Secrets: secrets})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(size))
			for b.Loop() {
				r.Request(req)
			}
		})
	}
}
