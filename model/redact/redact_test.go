package redact_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/model/redact"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestStringMasks(t *testing.T) {
	tests := []struct {
		name string
		opts redact.Options
		in   string
		want string
	}{
		{"default pattern", redact.Options{}, "key sk-abcdefghijklmnopqrstuv here", "key [redacted] here"},
		{"default e-mail", redact.Options{}, "write to ann@example.com", "write to [redacted]"},
		{"no defaults", redact.Options{NoDefaults: true}, "write to ann@example.com", "write to ann@example.com"},
		{"host pattern", redact.Options{Patterns: []*regexp.Regexp{regexp.MustCompile(`ACME-\d{4}`)}}, "ticket ACME-1234 open", "ticket [redacted] open"},
		{"literal", redact.Options{Secrets: []string{"hunter2"}}, "pw hunter2!", "pw [redacted]!"},
		{"longer literal wins", redact.Options{Secrets: []string{"abc", "abcdef"}}, "xabcdefx", "x[redacted]x"},
		{"empty literal ignored", redact.Options{Secrets: []string{""}}, "plain text", "plain text"},
		{"nothing to mask", redact.Options{}, "plain text", "plain text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := redact.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNewRefusesPatternsMatchingNothing(t *testing.T) {
	for _, p := range []*regexp.Regexp{regexp.MustCompile(`x*`), nil} {
		if _, err := redact.New(redact.Options{Patterns: []*regexp.Regexp{p}}); err == nil {
			t.Errorf("pattern %v accepted", p)
		}
	}
}

func TestRequestMasksEveryOutboundPartAndLeavesTheCallerAlone(t *testing.T) {
	r, err := redact.New(redact.Options{Secrets: []string{"s3cret-value"}})
	if err != nil {
		t.Fatal(err)
	}
	native := json.RawMessage(`{"thinking":"s3cret-value","signature":"sig"}`)
	req := model.Request{
		System: "the key is s3cret-value",
		Messages: []model.Message{
			model.UserText("use s3cret-value"),
			model.AssistantBlocks(
				model.TextBlock("calling with s3cret-value"),
				model.ToolCallBlock("c1", "bash", json.RawMessage(`{"command":"echo s3cret-value","n":1}`)),
				model.NativeBlock("anthropic", native),
			),
			model.UserBlocks(model.ToolResultBlock("c1", "s3cret-value\n", false)),
		},
		Tools: []model.ToolSpec{{Name: "bash", Description: "mentions s3cret-value"}},
	}
	orig, _ := json.Marshal(req.Messages)
	got := r.Request(req)
	if after, _ := json.Marshal(req.Messages); string(after) != string(orig) {
		t.Fatal("Request changed the caller's messages")
	}
	out, _ := json.Marshal(got.Messages)
	wantMasked := []string{got.System, string(out)}
	for _, s := range wantMasked {
		if strings.Contains(strings.ReplaceAll(s, string(native), ""), "s3cret-value") {
			t.Errorf("secret left in %s", s)
		}
	}
	if got.Messages[1].Blocks[1].Input == nil || !json.Valid(got.Messages[1].Blocks[1].Input) {
		t.Errorf("tool input %s is not JSON", got.Messages[1].Blocks[1].Input)
	}
	if string(got.Messages[1].Blocks[2].Data) != string(native) {
		t.Error("a native block was changed")
	}
	if got.Tools[0].Description != req.Tools[0].Description {
		t.Error("a tool definition was changed")
	}
}

// recordingCounter is a provider that counts the system prompt's bytes and
// remembers the last request it counted.
type recordingCounter struct {
	*modeltest.Provider
	counted model.Request
}

func (c *recordingCounter) CountTokens(_ context.Context, req model.Request) (int, error) {
	c.counted = req
	return len(req.System), nil
}

func TestMiddlewareMasksSentAndCountedRequests(t *testing.T) {
	r, err := redact.New(redact.Options{Secrets: []string{"tok-123456"}})
	if err != nil {
		t.Fatal(err)
	}
	base := &recordingCounter{Provider: modeltest.New()}
	base.Reply(modeltest.Text("ok"))
	p := model.Use(base, r.Middleware())
	req := model.Request{System: "tok-123456", Messages: []model.Message{model.UserText("tok-123456")}}
	for _, err := range p.Stream(t.Context(), req) {
		if err != nil {
			t.Fatal(err)
		}
	}
	tc, ok := model.AsTokenCounter(p)
	if !ok {
		t.Fatal("no token counter")
	}
	if _, err := tc.CountTokens(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	sent := base.Requests()[0]
	for _, s := range []string{sent.System, sent.Messages[0].Text, base.counted.System} {
		if s != redact.Mask {
			t.Errorf("left %q", s)
		}
	}
}

// xorCodec is a reversible codec for tests.
type xorCodec struct{}

func (xorCodec) ID() string { return "xor.v1" }
func (xorCodec) Encode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	out := make([]byte, len(p))
	for i, b := range p {
		out[i] = b ^ 0x5a
	}
	return out, nil
}
func (c xorCodec) Decode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.Encode(ctx, p, sc)
}

func TestCodecLearnsTheLinesOfDecodedArchiveRecords(t *testing.T) {
	r, err := redact.New(redact.Options{NoDefaults: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Codec(xorCodec{})
	if err != nil {
		t.Fatal(err)
	}
	if c.ID() != "xor.v1" {
		t.Errorf("ID %q", c.ID())
	}
	note := "customer record 4711: Jane Roe\nshort\n  balance 12,345.67 EUR owed  \n"
	tests := []struct {
		kind  storage.Kind
		learn bool
	}{
		{storage.KindCheckpoint, false},
		{storage.KindArchiveIndex, false},
		{storage.KindArchive, true},
	}
	for _, tt := range tests {
		enc, _ := c.Encode(t.Context(), []byte(note), storage.Context{Kind: tt.kind})
		plain, err := c.Decode(t.Context(), enc, storage.Context{Kind: tt.kind})
		if err != nil || string(plain) != note {
			t.Fatalf("%s: decode %q %v", tt.kind, plain, err)
		}
		got := r.String("page: customer record 4711: Jane Roe / balance 12,345.67 EUR owed / short")
		masked := got == "page: [redacted] / [redacted] / short"
		if masked != tt.learn {
			t.Errorf("after a %s record: %q", tt.kind, got)
		}
	}
	if _, err := r.Codec(nil); err == nil {
		t.Error("Codec(nil) accepted")
	}
}

func ExampleRedactor() {
	r, err := redact.New(redact.Options{
		Patterns: []*regexp.Regexp{regexp.MustCompile(`\bACCT-\d{6}\b`)},
		Secrets:  []string{"hunter2"},
	})
	if err != nil {
		panic(err)
	}
	// The provider here is scripted; an agent gets the middleware through
	// liteagent.Options{ModelMiddleware: []model.Middleware{r.Middleware()}}.
	base := modeltest.New()
	base.Reply(modeltest.Text("done"))
	p := model.Use(base, r.Middleware())
	req := model.Request{Messages: []model.Message{
		model.UserText("log in as ann@example.com with hunter2 and close ACCT-123456"),
	}}
	for _, err := range p.Stream(context.Background(), req) {
		if err != nil {
			panic(err)
		}
	}
	fmt.Println(base.Requests()[0].Messages[0].Text)
	// Output: log in as [redacted] with [redacted] and close [redacted]
}

func TestLearningReachesStringsMaskedBefore(t *testing.T) {
	r, err := redact.New(redact.Options{NoDefaults: true})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("padding ", 64) + "the code is 7731-alpha-omega"
	req := model.Request{Messages: []model.Message{model.UserText(long)}}
	for i, tc := range []struct {
		learn string
		want  bool // masked
	}{{"", false}, {"", false}, {"7731-alpha-omega", true}, {"", true}} {
		r.Learn(tc.learn)
		got := r.Request(req).Messages[0].Text
		if masked := strings.HasSuffix(got, "the code is "+redact.Mask); masked != tc.want {
			t.Errorf("request %d: masked %v, want %v", i, masked, tc.want)
		}
	}
}

// TestJSONKeysMaskedAlikeKeepEveryValue: two keys of a tool call's input
// that mask to the same text (two secrets) keep both values, under
// distinct keys, the same at every request; a key that is already the
// mask keeps its name.
func TestJSONKeysMaskedAlikeKeepEveryValue(t *testing.T) {
	r, err := redact.New(redact.Options{Secrets: []string{"secret-one", "secret-two"}, NoDefaults: true})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		{`{"secret-one":"a","secret-two":"b"}`, `{"[redacted]":"a","[redacted]#2":"b"}`},
		{`{"!secret-one":1,"[redacted]":2}`, `{"!` + redact.Mask + `":1,"[redacted]":2}`},
		{`{"secret-two":null,"[redacted]":2,"[redacted]#2":3}`, `{"[redacted]":2,"[redacted]#2":3,"[redacted]#3":null}`},
	}
	for _, tt := range tests {
		for range 5 { // map order varies from run to run
			req := model.Request{Messages: []model.Message{{Role: model.RoleAssistant, Blocks: []model.Block{
				{Type: model.BlockToolCall, ID: "c1", Name: "t", Input: json.RawMessage(tt.in)}}}}}
			got := r.Request(req).Messages[0].Blocks[0].Input
			if string(got) != tt.want {
				t.Fatalf("input %s masked to %s, want %s", tt.in, got, tt.want)
			}
		}
	}
}
