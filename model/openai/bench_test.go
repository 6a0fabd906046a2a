package openai

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
)

// benchBody returns a stream of n text deltas followed by one tool call in
// n argument fragments.
func benchBody(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word %d \"},\"finish_reason\":null}]}\n\n", i)
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write","arguments":""}}]}}]}` + "\n\n")
	for i := range n {
		fmt.Fprintf(&b, "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":%q}}]}}]}\n\n", map[bool]string{true: `{"text":"`, false: "x"}[i == 0])
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]},"finish_reason":"tool_calls"}]}` + "\n\n")
	b.WriteString(`data: {"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":50}}` + "\n\n")
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// BenchmarkStream measures turning a stream body into chunks ("adapter")
// against the least any client must do with it: split the lines and decode
// each chunk's JSON ("raw").
func BenchmarkStream(b *testing.B) {
	for _, n := range []int{10, 1000} {
		body := benchBody(n)
		b.Run(fmt.Sprintf("deltas=%d/adapter", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				var done bool
				r := reader{
					yield: func(c model.Chunk, err error) bool {
						if err != nil {
							b.Fatal(err)
						}
						done = done || c.Kind == model.ChunkDone
						return true
					},
					newID: randomID,
				}
				r.read(context.Background(), strings.NewReader(body))
				if !done {
					b.Fatal("no ChunkDone")
				}
			}
		})
		b.Run(fmt.Sprintf("deltas=%d/raw", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				sc := bufio.NewScanner(strings.NewReader(body))
				for sc.Scan() {
					data, ok := strings.CutPrefix(sc.Text(), "data: ")
					if !ok || data == "[DONE]" {
						continue
					}
					var c wireChunk
					if err := json.Unmarshal([]byte(data), &c); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkRequestBody measures encoding a request of 100 messages.
func BenchmarkRequestBody(b *testing.B) {
	req := model.Request{Model: "m", System: "You are terse."}
	for i := range 50 {
		req.Messages = append(req.Messages,
			model.AssistantBlocks(model.TextBlock("reading"), model.ToolCallBlock(fmt.Sprint("call_", i), "read", json.RawMessage(`{"path":"a.txt"}`))),
			model.UserBlocks(model.ToolResultBlock(fmt.Sprint("call_", i), strings.Repeat("line\n", 20), false)))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := body(req); err != nil {
			b.Fatal(err)
		}
	}
}
