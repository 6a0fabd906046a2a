package tool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool"
)

// reporter records what calls report.
type reporter struct {
	events []any
	output json.RawMessage
}

func (r *reporter) Emit(ev any) bool                 { r.events = append(r.events, ev); return true }
func (r *reporter) SetOutput(v json.RawMessage) bool { r.output = v; return true }

func TestTheHandlerReceivesTheCall(t *testing.T) {
	var got *tool.Call
	tl := tool.New("probe", "", func(ctx context.Context, c *tool.Call, in struct{}) (tool.Result, error) {
		got = c
		c.Emit("progress")
		c.SetOutput(json.RawMessage(`{"ok":true}`))
		return tool.Text("ok"), nil
	})
	rep := &reporter{}
	want := &tool.Call{ID: "c1", Name: "probe", SessionID: "s1", Turn: 2, Reporter: rep}
	if _, err := tl.Call(t.Context(), want, nil); err != nil {
		t.Fatal(err)
	}
	if got != want || len(rep.events) != 1 || rep.events[0] != "progress" || string(rep.output) != `{"ok":true}` {
		t.Errorf("handler saw %+v; reporter got %v and %s", got, rep.events, rep.output)
	}

	tests := []struct {
		name string
		call *tool.Call
	}{
		{"Nil", nil},
		{"NoReporter", &tool.Call{ID: "c2"}},
		{"Detached", want.Detach()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(rep.events)
			if _, err := tl.Call(t.Context(), tt.call, nil); err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatal("the handler received a nil Call")
			}
			if got.Emit("x") || got.SetOutput(nil) || len(rep.events) != before {
				t.Error("a call without a reporter reported something")
			}
		})
	}
	if d := want.Detach(); d.ID != "c1" || d.SessionID != "s1" || d.Reporter != nil || want.Reporter == nil {
		t.Errorf("Detach = %+v, original %+v", d, want)
	}
}
