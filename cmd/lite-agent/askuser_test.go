package main

import (
	"context"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/permission"
)

func TestParseAnswerTakesOptionNumbersOrText(t *testing.T) {
	opts := []string{"red", "green", "blue"}
	tests := []struct {
		line  string
		multi bool
		want  liteagent.Answer
	}{
		{"2", false, liteagent.Answer{Selected: []string{"green"}}},
		{" 1, 3 ", true, liteagent.Answer{Selected: []string{"red", "blue"}}},
		{"1,3", false, liteagent.Answer{Text: "1,3"}}, // one choice only
		{"4", false, liteagent.Answer{Text: "4"}},     // no such option
		{"purple", false, liteagent.Answer{Text: "purple"}},
		{"", true, liteagent.Answer{Text: ""}},
	}
	for _, tt := range tests {
		got := parseAnswer(tt.line, liteagent.Question{Options: opts, MultiSelect: tt.multi})
		if !slices.Equal(got.Selected, tt.want.Selected) || got.Text != tt.want.Text {
			t.Errorf("parseAnswer(%q, multi %v) = %+v, want %+v", tt.line, tt.multi, got, tt.want)
		}
	}
	if got := parseAnswer("3", liteagent.Question{}); got.Text != "3" {
		t.Errorf("without options: %+v", got)
	}
}

// On a terminal, a question shows its options and reads one line.
func TestTerminalAskerShowsOptionsAndReadsALine(t *testing.T) {
	in := newLineReader(strings.NewReader("1,2\nnext line\n"))
	if terminalAsker(in, nil) != nil {
		t.Fatal("an asker without a terminal")
	}
	in.terminal = true // as on a terminal
	var errw strings.Builder
	ask := terminalAsker(in, &errw)
	ans, err := ask(t.Context(), liteagent.Question{Text: "Which?", Options: []string{"a", "b"}, MultiSelect: true})
	if err != nil || !slices.Equal(ans.Selected, []string{"a", "b"}) {
		t.Errorf("answer %+v, %v", ans, err)
	}
	if want := "? Which?\n  1) a\n  2) b\nnumbers separated by commas, or an answer: "; errw.String() != want {
		t.Errorf("shown %q, want %q", errw.String(), want)
	}
	if line, _ := in.readLine(); line != "next line" {
		t.Errorf("the asker read more than its line: next is %q", line)
	}
	if _, err := ask(t.Context(), liteagent.Question{Text: "More?"}); err == nil {
		t.Error("an answer at end of input")
	}
}

// A question waiting for its answer gets the next line even while chat
// waits for a prompt too; chat gets the line after that.
func TestAWaitingQuestionTakesTheLineBeforeChat(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	in := newLineReader(pr)
	chat := make(chan string, 1)
	go func() {
		line, _ := in.readLine()
		chat <- line
	}()
	answer := make(chan string, 1)
	go func() {
		line, _ := in.answer(t.Context())
		answer <- line
	}()
	// Both wait: the line must find the question waiting for it.
	waitForGoroutineBlockedIn(t, "(*lineReader).answer")
	waitForGoroutineBlockedIn(t, "(*lineReader).readLine")
	io.WriteString(pw, "y\n")
	if got := <-answer; got != "y" {
		t.Errorf("answer %q", got)
	}
	io.WriteString(pw, "next prompt\n")
	if got := <-chat; got != "next prompt" {
		t.Errorf("chat %q", got)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, ok := in.answer(ctx); ok {
		t.Error("an answer after ctx was done")
	}
}

// Ctrl-C during a question ends it: the asker returns the context's error
// instead of waiting for a line.
func TestTerminalAskerStopsWhenItsContextEnds(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	in := newLineReader(pr)
	in.terminal = true
	ask := terminalAsker(in, io.Discard)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := ask(ctx, liteagent.Question{Text: "Which?"}); err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("err %v after %v", err, time.Since(start))
	}
	approve := terminalApprover(in, io.Discard)
	ctx2, cancel2 := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel2()
	if d, _ := approve(ctx2, permission.ApprovalRequest{Call: permission.Call{Name: "bash"}}); d == permission.Allow {
		t.Error("a cancelled approval allowed the call")
	}
}

// waitForGoroutineBlockedIn waits, for up to 30 s, until a goroutine that
// the test t started, whose stack holds the function fn, is blocked in a
// select or channel receive.
func waitForGoroutineBlockedIn(t *testing.T, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			header, _, _ := strings.Cut(g, "\n")
			if (strings.Contains(header, "[select") || strings.Contains(header, "[chan receive")) && strings.Contains(g, fn+"(") &&
				strings.Contains(g, "created by ") && strings.Contains(g, "."+t.Name()+" in goroutine") {
				return
			}
		}
	}
	t.Fatalf("no goroutine blocked in %s within 30 s", fn)
}
