package main

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// Commands are not sent to the model; an unknown one is an error line
// and chat goes on; a path-like line is a prompt.
func TestChatSlashCommands(t *testing.T) {
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{textReply("one")}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	var stdout, stderr strings.Builder
	in := strings.NewReader("/help\n/nosuch\n/tmp/a.txt is it big?\n/exit\nnever sent\n")
	code := runWithInput(t.Context(), []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "chat", "--base-url", ts.URL}, in, &stdout, &stderr)
	if code != 0 || stdout.String() != "one\n" {
		t.Errorf("code %d stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
	for _, want := range []string{"/exit ", "error: unknown command /nosuch (/help lists the commands)"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if len(srv.bodies) != 1 {
		t.Errorf("%d requests, want 1", len(srv.bodies))
	}
}
