package rewindcmd

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/rewind"
	"github.com/lite-agent/lite-agent-go/session"
)

// fakeAgent records the restores asked of it; filesErr fails every
// restore that touches files.
type fakeAgent struct {
	cps      []liteagent.Checkpoint
	filesErr error
	calls    []liteagent.RestoreOptions
}

func (f *fakeAgent) Checkpoints(context.Context, string) ([]liteagent.Checkpoint, error) {
	return f.cps, nil
}

func (f *fakeAgent) Restore(_ context.Context, id string, to int64, o liteagent.RestoreOptions) (liteagent.RestoreResult, error) {
	f.calls = append(f.calls, o)
	if f.filesErr != nil && !o.ConversationOnly {
		return liteagent.RestoreResult{}, f.filesErr
	}
	res := liteagent.RestoreResult{SessionID: id, ToSeq: to, Head: 9, DroppedEvents: 9 - to, ConversationRestored: !o.FilesOnly, DryRun: o.DryRun}
	if !o.ConversationOnly {
		res.Files = []rewind.FileChange{{Path: "a.txt"}, {Path: "b.txt", Delete: true}}
	}
	return res, nil
}

func (f *fakeAgent) Fork(context.Context, string, int64) (string, error) { return "new", nil }

func TestChat(t *testing.T) {
	cps := []liteagent.Checkpoint{
		{Seq: 0, Prompt: "first", Time: time.Now()},
		{Seq: 4, Prompt: "second\nline", Time: time.Now(), Files: []string{"a.txt", "big"}, UnavailableFiles: []string{"big"}},
	}
	for _, c := range []struct {
		name     string
		args     string
		answers  []string
		filesErr error
		want     []liteagent.RestoreOptions // the real restore last, if any
		out, err string
	}{
		{"both", "", []string{"2", "y"}, nil, []liteagent.RestoreOptions{{DryRun: true}, {}}, "restore a.txt\ndelete b.txt\ndrop events 5..9 (5)", ""},
		{"files only, number given", "2", []string{"f"}, nil, []liteagent.RestoreOptions{{DryRun: true}, {FilesOnly: true}}, "(rewound: 2 file(s) restored; the conversation is unchanged)", ""},
		{"conversation only", "1", []string{"c"}, nil, []liteagent.RestoreOptions{{DryRun: true}, {ConversationOnly: true}}, `before "first"`, ""},
		{"declined", "1", []string{""}, nil, []liteagent.RestoreOptions{{DryRun: true}}, "(rewind cancelled: nothing changed)", ""},
		{"cancelled at the choice", "", []string{""}, nil, nil, "(rewind cancelled)", ""},
		{"not a number", "x", nil, nil, nil, "", `"x" is not a checkpoint number (1-2)`},
		{"out of range", "3", nil, nil, nil, "", "not a checkpoint number"},
		{"files refused", "2", []string{"f", "y"}, errors.New("cannot restore big"), []liteagent.RestoreOptions{{DryRun: true}, {DryRun: true, ConversationOnly: true}}, "files cannot be restored: cannot restore big", ""},
		{"files refused, then yes", "2", []string{"y"}, errors.New("cannot restore big"), []liteagent.RestoreOptions{{DryRun: true}, {DryRun: true, ConversationOnly: true}, {ConversationOnly: true}}, "Restore the conversation only?", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := &fakeAgent{cps: cps, filesErr: c.filesErr}
			var out strings.Builder
			answers := c.answers
			ask := func(q string) (string, bool) {
				out.WriteString(q + "\n")
				if len(answers) == 0 {
					return "", false
				}
				ans := answers[0]
				answers = answers[1:]
				return ans, true
			}
			err := Chat(context.Background(), a, "s", c.args, ask, &out)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), c.out) || !strings.Contains(out.String(), "2) ") || !strings.Contains(out.String(), "second line") {
				t.Errorf("output lacks %q:\n%s", c.out, out.String())
			}
			if len(a.calls) != len(c.want) {
				t.Fatalf("restores %+v, want %+v", a.calls, c.want)
			}
			for i := range c.want {
				// DeepEqual: Options has a func field (Check), equal only nil.
				if !reflect.DeepEqual(a.calls[i], c.want[i]) {
					t.Errorf("restore %d: %+v, want %+v", i, a.calls[i], c.want[i])
				}
			}
		})
	}
}

func TestWriteCheckpointsMarksUnavailableFiles(t *testing.T) {
	var b strings.Builder
	WriteCheckpoints(&b, []liteagent.Checkpoint{{Seq: 4, Prompt: strings.Repeat("long ", 20), Files: []string{"a", "big"}, UnavailableFiles: []string{"big"}}})
	got := b.String()
	for _, want := range []string{"SEQ", "a, big (no usable snapshot: conversation only)", "…"} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}

// TestWriteCheckpointsDoesNotCallEveryUnavailableFileTooLarge: a file is
// unavailable for a snapshot too large to keep, but also for one that does
// not record what the write left (an older log) or that cannot be read
// exactly; the table must not call those "too large".
func TestWriteCheckpointsDoesNotCallEveryUnavailableFileTooLarge(t *testing.T) {
	before := "old"
	yes := true
	user := session.UserEvent{Message: model.UserText("change it"), Checkpoint: &yes}
	events := []session.StoredEvent{
		{Seq: 1, Event: user},
		// No After: what the write left is not recorded.
		{Seq: 2, Event: session.FileSnapshotEvent{Path: "old.txt", Before: &before, Encoding: "utf8", Turn: 1}},
	}
	cps := rewind.List(events)
	if len(cps) != 1 || len(cps[0].UnavailableFiles) != 1 {
		t.Fatalf("checkpoints %+v, want one with old.txt unavailable", cps)
	}
	var b strings.Builder
	WriteCheckpoints(&b, cps)
	if got := b.String(); strings.Contains(got, "too large") || !strings.Contains(got, "old.txt (no usable snapshot: conversation only)") {
		t.Errorf("an unverifiable snapshot is listed as\n%s", got)
	}
}

// TestOutputEscapesControlCharacters: file paths and prompts come from the
// session log, which an attacker may have written: a path holding a line
// break or a terminal escape must not draw a line of its own (a fake
// "restore" hiding a "delete") or drive the terminal. Such text is
// printed quoted.
func TestOutputEscapesControlCharacters(t *testing.T) {
	evil := []string{"a\ndrop events 1..1 (0)", "b\r\x1b[2Krestore harmless.txt", "c\x1b]0;title\x07", "d\u202egnp.exe", "e\u0085f"}
	var b strings.Builder
	res := liteagent.RestoreResult{Head: 3, ToSeq: 1, DroppedEvents: 2, ConversationRestored: true}
	for i, p := range evil {
		res.Files = append(res.Files, rewind.FileChange{Path: p, Delete: i%2 == 0})
	}
	WritePlan(&b, res)
	if lines := strings.Count(b.String(), "\n"); lines != len(evil)+1 {
		t.Errorf("plan has %d lines, want %d:\n%s", lines, len(evil)+1, b.String())
	}
	cps := []liteagent.Checkpoint{{Seq: 1, Prompt: "hi\x1b[31m red \u202e", Files: evil, UnavailableFiles: []string{}}}
	WriteCheckpoints(&b, cps)
	f := &fakeAgent{cps: cps}
	Chat(context.Background(), f, "s1", "", func(string) (string, bool) { return "", false }, &b)
	for _, r := range b.String() {
		if r != '\n' && (r < 0x20 || r == 0x7f || r == '\u202e' || r == '\u0085') {
			t.Fatalf("output holds %q:\n%q", r, b.String())
		}
	}
}
