package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
)

func TestSSEDecoderFollowsTheEventStreamFormat(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []sseEvent
	}{
		{"one event", "data: {}\n\n", []sseEvent{{data: []byte("{}")}}},
		{"CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", []sseEvent{{data: []byte("a")}, {data: []byte("b")}}},
		{"no space after colon", "data:a\n\n", []sseEvent{{data: []byte("a")}}},
		{"only one space is stripped", "data:  a\n\n", []sseEvent{{data: []byte(" a")}}},
		{"multi-line data", "data: a\ndata: b\n\n", []sseEvent{{data: []byte("a\nb")}}},
		{"comments and other fields", ": ping\nid: 7\nretry: 100\ndata: a\n\n", []sseEvent{{data: []byte("a")}}},
		{"event type", "event: error\ndata: x\n\ndata: y\n\n", []sseEvent{{typ: "error", data: []byte("x")}, {data: []byte("y")}}},
		{"event without data is dropped", "event: ping\n\ndata: y\n\n", []sseEvent{{data: []byte("y")}}},
		{"extra blank lines", "\n\n\ndata: a\n\n\n\n", []sseEvent{{data: []byte("a")}}},
		{"last event without blank line", "data: a\n\ndata: [DONE]\n", []sseEvent{{data: []byte("a")}, {data: []byte("[DONE]")}}},
		{"last line without line break", "data: a\n\ndata: [DONE]", []sseEvent{{data: []byte("a")}, {data: []byte("[DONE]")}}},
		{"field without colon", "data\n\n", []sseEvent{{}}},
		{"nothing", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range map[string]io.Reader{"whole": strings.NewReader(tt.in), "byte by byte": iotest.OneByteReader(strings.NewReader(tt.in))} {
				d := newSSEDecoder(r, maxEvent)
				var got []sseEvent
				for {
					ev, err := d.next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, ev)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("events = %q, want %q", got, tt.want)
				}
			}
		})
	}
}

func TestSSEDecoderReportsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	d := newSSEDecoder(io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(boom)), maxEvent)
	if ev, err := d.next(); err != nil || string(ev.data) != "a" {
		t.Fatalf("first event = %q, %v", ev.data, err)
	}
	if _, err := d.next(); !errors.Is(err, boom) {
		t.Errorf("error = %v, want the read error, not a half event", err)
	}
}

func TestSSEDecoderRefusesHugeEvents(t *testing.T) {
	const limit = 100 // the default is 16 MiB
	line := "data: " + strings.Repeat("x", limit) + "\n\n"
	if _, err := newSSEDecoder(strings.NewReader(line), limit).next(); !errors.Is(err, errEventTooLarge) {
		t.Errorf("long line: error = %v, want errEventTooLarge", err)
	}
	half := "data: " + strings.Repeat("x", limit/2) + "\n"
	if _, err := newSSEDecoder(strings.NewReader(half+half+"\n"), limit).next(); !errors.Is(err, errEventTooLarge) {
		t.Errorf("many lines: error = %v, want errEventTooLarge", err)
	}
	fits := "data: " + strings.Repeat("x", limit-len("data: \n")) + "\n\n" // a line of limit bytes
	if ev, err := newSSEDecoder(strings.NewReader(fits), limit).next(); err != nil || len(ev.data) != limit-7 {
		t.Errorf("event within the limit: %d bytes, %v", len(ev.data), err)
	}
	r := collectReader(t, "data: "+strings.Repeat("x", limit)+"\n\n", limit)
	if e, ok := r.err.(*model.Error); !ok || e.Class != model.ClassStream || !errors.Is(e, errEventTooLarge) {
		t.Errorf("stream error = %v, want ClassStream wrapping errEventTooLarge", r.err)
	}
}

func TestEventsLongerThanTheReadBufferAreWhole(t *testing.T) {
	big := strings.Repeat("y", 200<<10) // the read buffer holds 32 KiB
	body := `data: {"choices":[{"index":0,"delta":{"content":"` + big + `"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	r := collectReader(t, body, 0)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.chunks[len(r.chunks)-1].Message.PlainText(); got != big {
		t.Errorf("text of %d bytes, want %d", len(got), len(big))
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		header []string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", []string{"Retry-After", "30"}, 30 * time.Second},
		{"fractional seconds", []string{"Retry-After", "1.5"}, 1500 * time.Millisecond},
		{"date", []string{"Retry-After", now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second},
		{"past date", []string{"Retry-After", now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		{"garbage", []string{"Retry-After", "soon"}, 0},
		{"negative", []string{"Retry-After", "-5"}, 0},
		{"NaN", []string{"Retry-After", "NaN"}, 0},
		{"huge", []string{"Retry-After", "1e300"}, 0},
		{"milliseconds win", []string{"Retry-After-Ms", "250", "Retry-After", "3"}, 250 * time.Millisecond},
		{"bad milliseconds fall back", []string{"Retry-After-Ms", "x", "Retry-After", "3"}, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for i := 0; i+1 < len(tt.header); i += 2 {
				h.Set(tt.header[i], tt.header[i+1])
			}
			if got := retryAfter(h, now); got != tt.want {
				t.Errorf("retryAfter = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRetryAfterDateUsesTheProviderClock(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	p := New(Options{APIKey: "k", BaseURL: "http://x.invalid"})
	p.now = func() time.Time { return now }
	resp := &http.Response{
		StatusCode: 429,
		Header:     http.Header{"Retry-After": {now.Add(time.Minute).Format(http.TimeFormat)}},
		Body:       io.NopCloser(strings.NewReader("{}")),
	}
	if e := p.statusError(resp); e.RetryAfter != time.Minute || e.Class != model.ClassRateLimit {
		t.Errorf("error = %+v, want rate limit after 1m", e)
	}
}

// collectReader runs a reader over an SSE body and returns what it yielded.
func collectReader(t testing.TB, body string, maxEvent int) (r struct {
	chunks []model.Chunk
	err    error
}) {
	n := 0
	rd := reader{
		yield: func(c model.Chunk, err error) bool {
			if r.err != nil || (len(r.chunks) > 0 && r.chunks[len(r.chunks)-1].Kind == model.ChunkDone) {
				t.Fatalf("yield after the end: %+v, %v", c, err)
			}
			if err != nil {
				r.err = err
			} else {
				r.chunks = append(r.chunks, c)
			}
			return true
		},
		newID:    func() string { n++; return fmt.Sprintf("gen_%d", n) },
		maxEvent: maxEvent,
	}
	rd.read(context.Background(), strings.NewReader(body))
	return r
}

// FuzzStream feeds arbitrary bodies to the stream reader: it must end with
// exactly one ChunkDone or one error, every tool call must carry a JSON
// object with a non-empty id, and the final message must be encodable.
func FuzzStream(f *testing.F) {
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		r := collectReader(t, string(body), 1<<10)
		var done *model.Chunk
		for i := range r.chunks {
			c := &r.chunks[i]
			switch c.Kind {
			case model.ChunkToolCall:
				if c.Block.ID == "" || c.Block.Type != model.BlockToolCall || !bytes.HasPrefix(c.Block.Input, []byte("{")) {
					t.Fatalf("bad tool call %+v", c.Block)
				}
			case model.ChunkDone:
				done = c
			case model.ChunkText:
				if c.Text == "" {
					t.Fatal("empty text chunk")
				}
			default:
				t.Fatalf("chunk of kind %d", c.Kind)
			}
		}
		if (done == nil) == (r.err == nil) {
			t.Fatalf("ended with done=%v err=%v", done != nil, r.err)
		}
		if done != nil {
			if _, err := done.Message.MarshalJSON(); err != nil {
				t.Fatalf("final message does not encode: %v", err)
			}
		}
		if r.err != nil {
			if e, ok := r.err.(*model.Error); !ok || e.Message == "" {
				t.Fatalf("error %v is not a *model.Error with a message", r.err)
			}
		}
	})
}

// The usage's InputTokens is prompt_tokens, the cached tokens included:
// model.RequestInput takes it alone.
func TestUsageInputIncludesTheCache(t *testing.T) {
	u := model.Usage{InputTokens: 1000, CacheReadTokens: 800}
	if got := model.RequestInput(New(Options{APIKey: "k"}), u); got != 1000 {
		t.Errorf("RequestInput = %d, want 1000 (prompt_tokens, cached tokens included)", got)
	}
}
