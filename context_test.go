package liteagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A long session outgrows a small window: the file the model read in the
// first prompt leaves the second prompt's request for the encoded archive,
// and the model reads it back through the context tool.
func TestSeenToolResultsMoveToTheArchiveAndReadBack(t *testing.T) {
	f := newFixture(t)
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf("line %03d of the big file", i))
	}
	content := strings.Join(lines, "\n")
	if err := os.WriteFile(filepath.Join(f.workdir, "big.txt"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := f.options(aeadCodec(t, "k1"))
	opts.System = "You help."
	opts.AllowedTools = []string{"read_file", "context"}
	opts.ContextWindow = 4000
	a := f.agent(t, opts)

	f.p.Reply(modeltest.ToolCalls(call("r", "read_file", `{"path":"big.txt"}`)), modeltest.Text("I read it."))
	if _, err := a.Send(t.Context(), "read big.txt"); err != nil {
		t.Fatal(err)
	}

	var ref string
	f.p.Respond(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
		for _, m := range req.Messages {
			for _, b := range m.Blocks {
				if sm := regexp.MustCompile(`^\[tool result archived: ([0-9a-f]{64})\] `).FindStringSubmatch(b.Content); sm != nil {
					ref = sm[1]
				}
			}
		}
		in, _ := json.Marshal(map[string]any{"ref": ref, "offset": 0})
		return modeltest.ToolCalls(call("c", "context", string(in))).Chunks(), nil
	})
	f.p.Reply(modeltest.Text("Line 399 is there."))
	var status *engine.ContextStatus
	for ev, err := range a.Run(t.Context(), "what is the last line?") {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventContextStatus && status == nil {
			status = ev.Context
		}
	}
	if ref == "" {
		t.Fatal("the read_file result was not archived in the second prompt's request")
	}
	if status == nil || status.Level < 1 || len(status.ArchiveRefs) == 0 || status.ArchiveRefs[0] != ref {
		t.Errorf("status %+v", status)
	}
	reqs := f.p.Requests()
	page := reqs[len(reqs)-1].Messages[len(reqs[len(reqs)-1].Messages)-1].Blocks[0].Content
	if !strings.Contains(page, "<historical-context ref=\""+ref) || !strings.Contains(page, "line 000 of the big file") {
		t.Errorf("the context tool did not read the result back: %.300q", page)
	}
	// The archive is encoded like everything else: no plaintext on disk.
	dir := storage.SessionContextDir(a.Paths().SessionsDir, a.SessionID())
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), "of the big file") {
			t.Errorf("%s holds plaintext", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestContextWindowMustNotBeNegative(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.ContextWindow = -1
	if _, err := liteagent.New(t.Context(), opts); err == nil {
		t.Fatal("a negative context window was accepted")
	}
}

// Compaction by the context engine fires compact:start and compact:end,
// paired by their compaction id, with the run's identity.
func TestContextCompactionFiresCompactHooks(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.System = "You help."
	opts.AllowedTools = []string{"read_file", "context"}
	opts.ContextWindow = 2000
	take := collectHooks(&opts, hook.EventRunStart, hook.EventCompactStart, hook.EventCompactEnd)
	a := f.agent(t, opts)
	f.replyReadingBig(t)
	if _, err := a.Send(t.Context(), "read big.txt"); err != nil {
		t.Fatal(err)
	}
	var starts, ends []hook.Payload
	var run hook.RunStart
	for _, p := range take() {
		switch p := p.(type) {
		case hook.RunStart:
			run = p
		case hook.CompactStart:
			starts = append(starts, p)
		case hook.CompactEnd:
			ends = append(ends, p)
		}
	}
	if len(starts) == 0 || len(starts) != len(ends) {
		t.Fatalf("%d compact:start, %d compact:end", len(starts), len(ends))
	}
	for i := range starts {
		s, e := starts[i].(hook.CompactStart), ends[i].(hook.CompactEnd)
		if s.CompactionID == "" || s.CompactionID != e.CompactionID || s.Kind != hook.CompactAuto || e.Status != hook.StatusCompleted ||
			s.Before != e.Before || s.Before <= 0 || s.RunID != run.RunID || s.SessionID != a.SessionID() {
			t.Errorf("start %+v, end %+v (run %s)", s, e, run.RunID)
		}
	}
}

// A failing compact hook is reported like a failing tool hook: as a
// diagnostic event of the run.
func TestAFailingCompactHookIsADiagnostic(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.System = "You help."
	opts.AllowedTools = []string{"read_file"}
	opts.ContextWindow = 2000
	opts.Hooks = []hook.Hook{{Event: hook.EventCompactStart, Func: func(context.Context, hook.Payload) error {
		return errors.New("compact hook boom")
	}}}
	a := f.agent(t, opts)
	f.replyReadingBig(t)
	var diags []string
	for ev, err := range a.Run(t.Context(), "read big.txt") {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventDiagnostic {
			diags = append(diags, ev.Text)
		}
	}
	if len(diags) == 0 || !strings.Contains(diags[0], "compact hook boom") {
		t.Errorf("diagnostics %q", diags)
	}
}
