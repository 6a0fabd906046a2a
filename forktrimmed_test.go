package liteagent_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

var trimMarkerRE = regexp.MustCompile(`^\[(\d+) earlier turn\(s\) left out to fit the context window\]$`)

// requestTexts returns the plain texts of the last model request.
func requestTexts(f *fixture) []string {
	reqs := f.p.Requests()
	var out []string
	for _, m := range reqs[len(reqs)-1].Messages {
		out = append(out, m.PlainText())
	}
	return out
}

// countPrompts returns the user prompts of session id's log.
func countPrompts(t *testing.T, a *liteagent.Agent, f *fixture, id string) int {
	t.Helper()
	cp, err := session.NewFileCheckpointer(a.Paths().SessionsDir, session.FileOptions{Encoding: storage.Encoding{Namespace: "acme", ProjectID: a.Paths().Hash}})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(t.Context(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, se := range evs {
		if ue, ok := se.Event.(session.UserEvent); ok && ue.Message.Role == model.RoleUser {
			n++
		}
	}
	return n
}

// TestForkAndRewindAcrossATrimmedView: a session whose compaction left its
// oldest turns out of the view (the "[N earlier turn(s) left out …]"
// marker) forks with every event, the fork going on from the trimmed view;
// a rewind to a prompt the view still holds goes on without the later
// turns; a rewind to a prompt the view left out goes on from the log, the
// marker gone.
func TestForkAndRewindAcrossATrimmedView(t *testing.T) {
	const turns = 40
	f := newFixture(t)
	opts := f.options(nil)
	opts.ContextWindow = 12_000
	opts.DisableTasks = true
	a := f.agent(t, opts)
	ctx := t.Context()
	for i := range turns {
		f.p.Reply(modeltest.Text(fmt.Sprintf("answer %d %s", i, strings.Repeat("a", 1000))))
		if _, err := a.Send(ctx, fmt.Sprintf("prompt %d %s", i, strings.Repeat("p", 1000))); err != nil {
			t.Fatal(err)
		}
	}
	orig := a.SessionID()
	res, err := a.Compact(ctx, liteagent.CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compact: %+v", res)
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(ctx, "after compact"); err != nil {
		t.Fatal(err)
	}
	texts := requestTexts(f)
	left := -1
	for _, s := range texts {
		if m := trimMarkerRE.FindStringSubmatch(s); m != nil {
			fmt.Sscan(m[1], &left)
		}
	}
	if left < 1 {
		t.Fatalf("no trim marker in the request after compaction: %d messages starting %.60q", len(texts), texts[0])
	}
	t.Logf("the view leaves out %d turns", left)

	forked, err := a.Fork(ctx, orig, liteagent.ForkAtHead)
	if err != nil {
		t.Fatal(err)
	}
	if n := countPrompts(t, a, f, forked); n != turns+1 {
		t.Errorf("the fork's log holds %d prompts, want %d", n, turns+1)
	}
	if err := a.Resume(forked); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("ok fork"))
	if _, err := a.Send(ctx, "on the fork"); err != nil {
		t.Fatal(err)
	}
	texts = requestTexts(f)
	if last := texts[len(texts)-1]; last != "on the fork" || !containsMarker(texts) || !strings.Contains(strings.Join(texts, "|"), "after compact") {
		t.Errorf("the fork's request: %d messages, last %q, marker %v", len(texts), last, containsMarker(texts))
	}

	// Rewinds of the original: to a prompt the view holds, then to one it
	// left out.
	cps, err := a.Checkpoints(ctx, orig)
	if err != nil || len(cps) != turns+1 {
		t.Fatalf("%d checkpoints, %v", len(cps), err)
	}
	for _, at := range []int{turns - 1, 1} {
		if _, err := a.Restore(ctx, orig, cps[at].Seq, liteagent.RestoreOptions{}); err != nil {
			t.Fatalf("restore to prompt %d: %v", at, err)
		}
		if err := a.Resume(orig); err != nil {
			t.Fatal(err)
		}
		f.p.Reply(modeltest.Text("ok"))
		prompt := fmt.Sprintf("instead of %d", at)
		if _, err := a.Send(ctx, prompt); err != nil {
			t.Fatal(err)
		}
		texts = requestTexts(f)
		all := strings.Join(texts, "|")
		if texts[len(texts)-1] != prompt || strings.Contains(all, fmt.Sprintf("prompt %d ", at)) || strings.Contains(all, "after compact") {
			t.Errorf("after the rewind to prompt %d the request holds a later turn: %d messages, last %q", at, len(texts), texts[len(texts)-1])
		}
		if at == 1 && (containsMarker(texts) || !strings.Contains(all, "prompt 0 ")) {
			t.Errorf("after the rewind to prompt 1 the request does not go on from the log: marker %v, %d messages", containsMarker(texts), len(texts))
		}
		if at == turns-1 && !strings.Contains(all, fmt.Sprintf("prompt %d ", at-1)) {
			t.Errorf("after the rewind to prompt %d the request lost the turn before it", at)
		}
	}
	if n := countPrompts(t, a, f, forked); n != turns+2 {
		t.Errorf("the fork's log holds %d prompts, want %d", n, turns+2)
	}
}

func containsMarker(texts []string) bool {
	for _, s := range texts {
		if trimMarkerRE.MatchString(s) {
			return true
		}
	}
	return false
}
