package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// seedTurns appends n turns of a prompt and an answer to session id.
func seedTurns(t *testing.T, cp session.Checkpointer, id string, n int) {
	t.Helper()
	var evs []session.Event
	for i := range n {
		evs = append(evs,
			session.UserEvent{Message: model.UserText(fmt.Sprintf("question %d: %s", i, strings.Repeat("why ", 45)))},
			session.AssistantEvent{Message: model.AssistantText(fmt.Sprintf("answer %d: %s", i, strings.Repeat("because ", 22)))})
	}
	if _, err := cp.Append(t.Context(), id, evs, session.AnyHead); err != nil {
		t.Fatal(err)
	}
}

// TestSessionsCompactCountTokensReportsCounts: sessions compact
// --count-tokens reports the tokens Anthropic's count_tokens endpoint
// counts (twice the estimate, from this server), and says they are
// counted; without the flag, estimates, said to be. It printed estimates
// either way: the counter was never asked.
func TestSessionsCompactCountTokensReportsCounts(t *testing.T) {
	isolateEnv(t)
	const window = 50_000
	srv := anthropictest.New(t, anthropictest.Options{})
	home, work, cp := seedStore(t, srv.URL)
	seedTurns(t, cp, "counted", 300)
	seedTurns(t, cp, "estimated", 300)
	base := []string{"--home", home, "--workdir", work, "sessions", "compact", "--context-window", fmt.Sprint(window)}
	r := runCLI(t, append(base, "counted", "--count-tokens")...)
	m := regexp.MustCompile(`compacted: (\d+) → (\d+) tokens \(counted by the provider; `).FindStringSubmatch(r.stdout)
	if r.code != 0 || m == nil || srv.Counts() < 2 {
		t.Fatalf("compact --count-tokens: %d, %d counts, stdout %q stderr %q", r.code, srv.Counts(), r.stdout, r.stderr)
	}
	t.Logf("%s", r.stdout)
	if want := fmt.Sprintf("compact: measure: %s tokens (counted by the provider)\n", m[1]); !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q: want %q", r.stderr, want)
	}
	counts := srv.Counts()
	r = runCLI(t, append(base, "estimated")...)
	est := regexp.MustCompile(`compacted: about (\d+) → (\d+) tokens \(estimated; `).FindStringSubmatch(r.stdout)
	if r.code != 0 || est == nil || srv.Counts() != counts {
		t.Fatalf("compact: %d, %d counts, stdout %q stderr %q", r.code, srv.Counts()-counts, r.stdout, r.stderr)
	}
	counted, _ := strconv.Atoi(m[1])
	estimated, _ := strconv.Atoi(est[1])
	if counted < estimated*3/2 {
		t.Errorf("counted %d tokens before, estimated %d: want the count, about twice the estimate", counted, estimated)
	}
	// The progress on stderr says it too.
	if want := fmt.Sprintf("compact: measure: about %d tokens (estimated)\n", estimated); !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q: want %q", r.stderr, want)
	}
}

// TestPrinterSaysWhatWasCounted: run's stderr says whether a context
// status's figures are the provider's count or estimates, and when a
// request's max_tokens was lowered to fit the window, from what and for
// what input.
func TestPrinterSaysWhatWasCounted(t *testing.T) {
	for _, tt := range []struct {
		ev   liteagent.Event
		want string
	}{
		{liteagent.Event{Type: liteagent.EventContextStatus, Context: &liteagent.ContextStatus{Level: 4, BeforeTokens: 3900, AfterTokens: 1200, Counted: true}},
			"context: level 4, 3900 → about 1200 tokens (counted by the provider, then estimated)\n"},
		{liteagent.Event{Type: liteagent.EventContextStatus, Context: &liteagent.ContextStatus{Level: 1, BeforeTokens: 3900, AfterTokens: 1200}},
			"context: level 1, about 3900 → 1200 tokens (estimated)\n"},
		{liteagent.Event{Type: liteagent.EventModelCallStart, ModelCall: &liteagent.ModelCallEvent{MaxTokens: 40000, MaxTokensFrom: 64000, InputTokens: 150000, InputCounted: true}},
			"max_tokens lowered from 64000 to 40000 to fit the context window beside 150000 input tokens (counted by the provider)\n"},
		{liteagent.Event{Type: liteagent.EventModelCallStart, ModelCall: &liteagent.ModelCallEvent{MaxTokens: 4096, MaxTokensFrom: 64000, InputTokens: 196000}},
			"max_tokens lowered from 64000 to 4096 to fit the context window beside about 196000 input tokens (estimated)\n"},
		{liteagent.Event{Type: liteagent.EventModelCallStart, ModelCall: &liteagent.ModelCallEvent{MaxTokens: 8000}}, ""},
	} {
		var out, errw strings.Builder
		p := &printer{out: &out, errw: &errw}
		p.event(tt.ev)
		if errw.String() != tt.want {
			t.Errorf("%s: stderr %q, want %q", tt.ev.Type, errw.String(), tt.want)
		}
	}
}

// TestSessionsCompactSaysWhenTheCountFails: a count the API fails leaves
// estimates, which sessions compact says, with why.
func TestSessionsCompactSaysWhenTheCountFails(t *testing.T) {
	isolateEnv(t)
	const window = 50_000
	srv := anthropictest.New(t, anthropictest.Options{CountStatus: 400})
	home, work, cp := seedStore(t, srv.URL)
	seedTurns(t, cp, "s", 300)
	r := runCLI(t, "--home", home, "--workdir", work, "sessions", "compact", "s", "--count-tokens", "--context-window", fmt.Sprint(window))
	if r.code != 0 || !strings.Contains(r.stdout, "compacted: about ") || !strings.Contains(r.stdout, "token count failed, figures estimated: ") {
		t.Fatalf("compact: %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestPrinterSaysMaxTokensLoweredOncePerSession: a long session's model
// calls each lower max_tokens (the room shrinks as the input grows); run
// and chat say so once per session, and again only when what is lowered
// (the max_tokens wanted) changes. The events and the audit log keep
// every call's figures. It printed a line at every model call.
func TestPrinterSaysMaxTokensLoweredOncePerSession(t *testing.T) {
	call := func(session string, from, to, input int) liteagent.Event {
		return liteagent.Event{Type: liteagent.EventModelCallStart, SessionID: session,
			ModelCall: &liteagent.ModelCallEvent{MaxTokens: to, MaxTokensFrom: from, InputTokens: input}}
	}
	var out, errw strings.Builder
	p := &printer{out: &out, errw: &errw}
	for _, ev := range []liteagent.Event{
		call("a", 64000, 40000, 150000),
		call("a", 64000, 38000, 152000),
		call("a", 64000, 30000, 160000),
		call("b", 64000, 50000, 140000), // another session
		call("b", 64000, 48000, 142000),
		call("a", 32000, 30000, 160000), // another max_tokens wanted
		call("a", 32000, 29000, 161000),
	} {
		p.event(ev)
	}
	want := "max_tokens lowered from 64000 to 40000 to fit the context window beside about 150000 input tokens (estimated)\n" +
		"max_tokens lowered from 64000 to 50000 to fit the context window beside about 140000 input tokens (estimated)\n" +
		"max_tokens lowered from 32000 to 30000 to fit the context window beside about 160000 input tokens (estimated)\n"
	if errw.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errw.String(), want)
	}
}
