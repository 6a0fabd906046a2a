package tool_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool"
)

// recorder records the steps of middleware, safe for concurrent use.
type recorder struct {
	mu    sync.Mutex
	steps []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = append(r.steps, s)
}

// tagged returns a middleware that records the call it sees before and
// after, and appends name to the result.
func tagged(r *recorder, name string) tool.Middleware {
	return func(next tool.CallFunc) tool.CallFunc {
		return func(ctx context.Context, c *tool.Call, in json.RawMessage) (tool.Result, error) {
			r.add(name + ".before:" + c.Name + "/" + c.ID)
			res, err := next(ctx, c, in)
			res.Content += "+" + name
			r.add(name + ".after")
			return res, err
		}
	}
}

func TestUseWrapsCallsInOrder(t *testing.T) {
	echo := tool.New("echo", "Echoes.", func(ctx context.Context, c *tool.Call, in struct {
		S string `json:"s"`
	}) (tool.Result, error) {
		return tool.Result{Content: in.S}, nil
	})
	short := func(next tool.CallFunc) tool.CallFunc {
		return func(ctx context.Context, c *tool.Call, in json.RawMessage) (tool.Result, error) {
			return tool.Result{Content: "short", IsError: true}, nil
		}
	}
	tests := []struct {
		name      string
		mws       func(r *recorder) []tool.Middleware
		call      *tool.Call
		wantSteps []string
		want      string
	}{
		{"none", func(*recorder) []tool.Middleware { return nil }, &tool.Call{ID: "c1", Name: "echo"}, nil, "x"},
		{
			"two in order",
			func(r *recorder) []tool.Middleware { return []tool.Middleware{tagged(r, "a"), tagged(r, "b")} },
			&tool.Call{ID: "c1", Name: "echo", SessionID: "s", Turn: 2},
			[]string{"a.before:echo/c1", "b.before:echo/c1", "b.after", "a.after"},
			"x+b+a",
		},
		{
			"a nil call gets the tool's name",
			func(r *recorder) []tool.Middleware { return []tool.Middleware{tagged(r, "a")} },
			nil,
			[]string{"a.before:echo/", "a.after"},
			"x+a",
		},
		{
			"short circuit skips the inner ones and the tool",
			func(r *recorder) []tool.Middleware {
				return []tool.Middleware{tagged(r, "a"), short, tagged(r, "c")}
			},
			&tool.Call{ID: "c1", Name: "echo"},
			[]string{"a.before:echo/c1", "a.after"},
			"short+a",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			wrapped := tool.Use(echo, tt.mws(r)...)
			if wrapped.Name() != "echo" || string(wrapped.Schema()) != string(echo.Schema()) {
				t.Errorf("wrapped tool is %q with schema %s", wrapped.Name(), wrapped.Schema())
			}
			res, err := wrapped.Call(t.Context(), tt.call, json.RawMessage(`{"s":"x"}`))
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tt.want {
				t.Errorf("result %q, want %q", res.Content, tt.want)
			}
			if !slices.Equal(r.steps, tt.wantSteps) {
				t.Errorf("steps %q, want %q", r.steps, tt.wantSteps)
			}
		})
	}
}

func TestUseUnwrapsToTheTool(t *testing.T) {
	echo := tool.New("echo", "Echoes.", func(ctx context.Context, c *tool.Call, in struct{}) (tool.Result, error) {
		return tool.Result{}, nil
	})
	if got := tool.Use(echo); got != echo {
		t.Error("Use with no middleware did not return the tool")
	}
	u, ok := tool.Use(echo, tagged(&recorder{}, "a")).(interface{ Unwrap() tool.Tool })
	if !ok || u.Unwrap() != echo {
		t.Error("Use's tool does not unwrap to the tool it wraps")
	}
}
