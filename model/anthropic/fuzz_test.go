package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
)

// replayTransport answers every request with a 200 SSE response whose body
// is body, without any network.
type replayTransport struct{ body []byte }

func (t replayTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{
		Status:     "200 OK",
		StatusCode: http.StatusOK,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(t.body)),
		Request:    r,
	}, nil
}

// replayProvider returns a Provider whose every response is body.
func replayProvider(body []byte) *Provider {
	return New(Options{
		APIKey:     testKey,
		BaseURL:    "http://api.invalid",
		HTTPClient: &http.Client{Transport: replayTransport{body: body}},
	})
}

// FuzzStream feeds arbitrary bytes to the provider as a response stream and
// checks that it keeps the Provider contract: it ends with exactly one
// ChunkDone or one *model.Error and nothing after; tool calls carry JSON
// objects; the text chunks add up to the final message's text; and the final
// message survives the session log's JSON form.
func FuzzStream(f *testing.F) {
	seeds := [][]string{
		textEvents("Hello", ", world"),
		{messageStart(1, 2, 3), toolStart(0, "t1", "f"), inputDelta(0, `{"a":`), inputDelta(0, `1}`), blockStop(0), messageDelta("tool_use", 2), messageStop()},
		{messageStart(1, 0, 0), event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`), event("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}`), blockStop(0), messageStop()},
		{messageStart(1, 0, 0), textStart(0), textDelta(0, "x"), streamError("overloaded_error", "Overloaded")},
		{messageStart(1, 0, 0), toolStart(0, "t1", "f"), textDelta(0, "stray")},
		{messageStart(1, 0, 0), toolStart(0, "t1", "f"), inputDelta(0, `{"a":1}`), blockStop(0), event("content_block_delta", `{"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"x"}}`), messageStop()},
		{"data: {\n\n"},
	}
	for _, s := range seeds {
		f.Add([]byte(strings.Join(s, "")))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p := replayProvider(body)
		var text strings.Builder
		var calls []model.Block
		r := collect(t, func(yield func(model.Chunk, error) bool) {
			for c, err := range p.Stream(t.Context(), question) {
				switch c.Kind {
				case model.ChunkText:
					text.WriteString(c.Text)
				case model.ChunkToolCall:
					calls = append(calls, c.Block)
				}
				if !yield(c, err) {
					return
				}
			}
		})
		for _, c := range calls {
			if c.Type != model.BlockToolCall || !isObject(c.Input) {
				t.Fatalf("tool call chunk %+v does not carry a JSON object", c)
			}
		}
		if r.err != nil {
			var e *model.Error
			if !errors.As(r.err, &e) {
				t.Fatalf("error %v (%T) is not a *model.Error", r.err, r.err)
			}
			if e.Started != (len(r.chunks) > 0) {
				t.Fatalf("Started = %v after %d chunks", e.Started, len(r.chunks))
			}
			return
		}
		var final strings.Builder
		var finalCalls []model.Block
		for _, b := range r.done.Message.Blocks {
			switch b.Type {
			case model.BlockText:
				final.WriteString(b.Text)
			case model.BlockToolCall:
				finalCalls = append(finalCalls, b)
			}
		}
		if final.String() != text.String() {
			t.Fatalf("text chunks %q, final message text %q", text.String(), final.String())
		}
		if len(finalCalls) != len(calls) {
			t.Fatalf("%d tool call chunks, %d tool calls in the final message", len(calls), len(finalCalls))
		}
		for i := range calls {
			if calls[i].ID != finalCalls[i].ID || !bytes.Equal(calls[i].Input, finalCalls[i].Input) {
				t.Fatalf("tool call chunk %d = %+v, final = %+v", i, calls[i], finalCalls[i])
			}
		}
		logged, err := r.done.Message.MarshalJSON()
		if err != nil {
			t.Fatalf("final message does not marshal: %v", err)
		}
		var back model.Message
		if err := json.Unmarshal(logged, &back); err != nil {
			t.Fatalf("final message %s does not read back: %v", logged, err)
		}
		again, _ := back.MarshalJSON()
		if !bytes.Equal(again, logged) {
			t.Fatalf("final message changed through JSON:\n%s\n%s", logged, again)
		}
	})
}

// FuzzDropMember checks that removing "$schema" from a tool schema keeps
// every other member and yields a JSON object.
func FuzzDropMember(f *testing.F) {
	for _, s := range []string{
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`,
		`{"type":"object","properties":{"$schema":{"type":"string"}}}`,
		`{"a":1,"$schema":2,"$schema":3,"b":[{}]}`,
		`[]`,
		`{"\u0024schema":"escaped"}`,
		"{}\v",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := dropMember(in, "$schema")
		if err != nil {
			if objectByDecoder(in) {
				t.Fatalf("dropMember(%q) failed on a JSON object: %v", in, err)
			}
			return
		}
		if !objectByDecoder(in) {
			t.Fatalf("dropMember(%q) = %s, but the input is not one JSON object", in, out)
		}
		var got, want map[string]json.RawMessage
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("dropMember(%s) = %s, not a JSON object: %v", in, out, err)
		}
		if err := json.Unmarshal(in, &want); err != nil {
			t.Fatalf("input %s accepted but not an object: %v", in, err)
		}
		delete(want, "$schema")
		if len(got) != len(want) {
			t.Fatalf("dropMember(%s) = %s: %d members, want %d", in, out, len(got), len(want))
		}
		for k, v := range want {
			var a, b any
			json.Unmarshal(v, &a)
			json.Unmarshal(got[k], &b)
			if ja, jb := mustJSON(a), mustJSON(b); ja != jb {
				t.Fatalf("member %q changed: %s → %s", k, v, got[k])
			}
		}
	})
}

// objectByDecoder reports whether encoding/json reads in as exactly one
// JSON object, the oracle dropMember is held to.
func objectByDecoder(in []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(in, &m) == nil && m != nil
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
