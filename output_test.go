package liteagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

type forecast struct {
	City  string `json:"city"`
	TempC int    `json:"tempC"`
}

// With an output schema, the model's final_answer call is the result's
// Output: an invalid input is refused and the model tries again, the tool
// survives the tool filters, and the prompt tells the model to use it.
func TestOutputSchemaGivesAStructuredResult(t *testing.T) {
	f := newFixture(t)
	schema, err := liteagent.OutputSchemaFor[forecast]()
	if err != nil {
		t.Fatal(err)
	}
	opts := f.options(nil)
	opts.OutputSchema = schema
	opts.System = "You forecast."
	opts.AllowedTools = []string{"read_file"} // final_answer is added after the filter
	var (
		mu  sync.Mutex
		end *hook.RunResult
	)
	opts.Hooks = []hook.Hook{{Event: hook.EventRunEnd, Func: func(_ context.Context, p hook.Payload) error {
		mu.Lock()
		defer mu.Unlock()
		end = p.(hook.RunEnd).Result
		return nil
	}}}
	a := f.agent(t, opts)
	f.p.Reply(
		modeltest.ToolCalls(call("f1", "final_answer", `{"city":"Oslo","tempC":"cold"}`)),
		modeltest.ToolCalls(call("f2", "final_answer", `{"city":"Oslo","tempC":-3}`)),
		modeltest.Text("Done."),
	)
	res, err := a.Send(t.Context(), "forecast Oslo")
	if err != nil {
		t.Fatal(err)
	}
	got, err := liteagent.DecodeOutput[forecast](res)
	if err != nil || got != (forecast{City: "Oslo", TempC: -3}) {
		t.Errorf("output %+v, %v (raw %s)", got, err, res.Output)
	}
	reqs := f.p.Requests()
	if !strings.HasSuffix(reqs[0].System, "Then end your turn.") || !strings.HasPrefix(reqs[0].System, "You forecast.") {
		t.Errorf("system prompt %q", reqs[0].System)
	}
	var names []string
	for _, s := range reqs[0].Tools {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "read_file,final_answer" {
		t.Errorf("tools %v", names)
	}
	if r := reqs[1].Messages[len(reqs[1].Messages)-1].Blocks[0]; !r.IsError || !strings.Contains(r.Content, "invalid input for final_answer") {
		t.Errorf("the invalid answer was not refused: %+v", r)
	}
	mu.Lock()
	if end == nil || string(end.Output) != string(res.Output) {
		t.Errorf("run:end result %+v", end)
	}
	mu.Unlock()

	// The next prompt starts without an answer.
	f.p.Reply(modeltest.Text("no answer this time"))
	res, err = a.Send(t.Context(), "chat")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := liteagent.DecodeOutput[forecast](res); !errors.Is(err, liteagent.ErrNoOutput) || res.Output != nil {
		t.Errorf("a prompt without final_answer has output %s (%v)", res.Output, err)
	}
}

func TestAnInvalidOutputSchemaFailsNew(t *testing.T) {
	f := newFixture(t)
	for _, schema := range []string{`{"type":"string"}`, `{"type":`, `{"$ref":"#/nowhere"}`} {
		opts := f.options(nil)
		opts.OutputSchema = json.RawMessage(schema)
		if a, err := liteagent.New(t.Context(), opts); err == nil {
			a.Close()
			t.Errorf("schema %s accepted", schema)
		}
	}
}

// Subagents do not inherit the parent's final_answer and ask_user tools.
func TestSubagentsDoNotGetTheFinalAnswerOrAskUserTools(t *testing.T) {
	f := newFixture(t)
	var (
		mu        sync.Mutex
		childTool []string
	)
	f.p = groupProvider(func(context.Context) ([]model.Chunk, error) { return modeltest.Text("42").Chunks(), nil }, nil)
	inner := f.p
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		if strings.HasPrefix(req.System, `You are the "general-purpose" subagent`) {
			mu.Lock()
			for _, s := range req.Tools {
				childTool = append(childTool, s.Name)
			}
			mu.Unlock()
		}
		var chunks []model.Chunk
		for c, err := range inner.Stream(ctx, req) {
			if err != nil {
				return nil, err
			}
			chunks = append(chunks, c)
		}
		return chunks, nil
	})
	opts := f.options(nil)
	opts.OutputSchema = json.RawMessage(`{"type":"object"}`)
	opts.OnAskUser = func(context.Context, liteagent.Question) (liteagent.Answer, error) { return liteagent.Answer{}, nil }
	a := f.agent(t, opts)
	sendAndAwait(t, a, "go")
	mu.Lock()
	defer mu.Unlock()
	if names := strings.Join(childTool, ","); len(childTool) == 0 || strings.Contains(names, "final_answer") || strings.Contains(names, "ask_user") {
		t.Errorf("child tools %v", childTool)
	}
}

// Query returns the delivery turn's result when the prompt started a
// subagent group; the prompt's final answer stays its Output.
func TestQueryKeepsTheAnswerGivenBeforeTheGroupsResults(t *testing.T) {
	f := newFixture(t)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			return modeltest.Text("42").Chunks(), nil
		case isDelivered(req):
			return modeltest.Text("the child said 42").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(
				call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`),
				call("f1", "final_answer", `{"city":"Oslo","tempC":-3}`),
			).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	opts := f.options(nil)
	opts.OutputSchema, _ = liteagent.OutputSchemaFor[forecast]()
	res, err := liteagent.Query(t.Context(), liteagent.QueryOptions{Options: opts, Prompt: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := liteagent.DecodeOutput[forecast](res); err != nil || res.Text != "the child said 42" || got.City != "Oslo" {
		t.Errorf("result %q, output %+v, %v", res.Text, got, err)
	}
}

// A bad output schema, like every bad option, fails New before anything
// is created on disk.
func TestABadOutputSchemaCreatesNothing(t *testing.T) {
	f := newFixture(t)
	for _, bad := range []func(*liteagent.Options){
		func(o *liteagent.Options) { o.OutputSchema = json.RawMessage(`{"type":"string"}`) },
		func(o *liteagent.Options) { o.MaxParallelSubagents = -1 },
	} {
		opts := f.options(nil)
		bad(&opts)
		if a, err := liteagent.New(t.Context(), opts); err == nil {
			a.Close()
			t.Fatal("accepted")
		}
		if _, err := os.Stat(f.home); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the data home exists after a failed New: %v", err)
		}
	}
}
