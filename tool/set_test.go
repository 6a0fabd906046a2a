package tool_test

import (
	"context"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool"
)

// named returns a tool called name whose calls return reply.
func named(name, reply string) tool.Tool {
	return tool.New(name, "", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
		return tool.Text(reply), nil
	})
}

// replyOf calls tl with no input and returns its content.
func replyOf(t *testing.T, tl tool.Tool) string {
	t.Helper()
	res, err := tl.Call(t.Context(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Content
}

func TestSetLookupFindsTheLastToolOfAName(t *testing.T) {
	s := tool.NewSet(named("bash", "built-in bash"), named("read_file", "built-in read"), named("bash", "custom bash"))
	tests := []struct {
		name, lookup, want string
	}{
		{"LaterToolShadowsAnEarlierOne", "bash", "custom bash"},
		{"UnshadowedToolIsFound", "read_file", "built-in read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, ok := s.Lookup(tt.lookup)
			if !ok {
				t.Fatalf("Lookup(%q) found nothing", tt.lookup)
			}
			if got := replyOf(t, tl); got != tt.want {
				t.Errorf("Lookup(%q) ran %q, want %q", tt.lookup, got, tt.want)
			}
		})
	}
	if tl, ok := s.Lookup("Bash"); ok || tl != nil {
		t.Errorf("Lookup is not exact: Bash found %v", tl)
	}
}

func TestSetKeepsEveryToolInOrder(t *testing.T) {
	s := tool.NewSet(named("bash", "1"), named("read_file", "2"), named("bash", "3"))
	var got []string
	for _, tl := range s.Tools() {
		got = append(got, tl.Name()+"="+replyOf(t, tl))
	}
	if want := []string{"bash=1", "read_file=2", "bash=3"}; !slices.Equal(got, want) || s.Len() != 3 {
		t.Errorf("Tools = %q, Len = %d; want %q", got, s.Len(), want)
	}
}

func TestSetIsNotChangedThroughSlices(t *testing.T) {
	given := []tool.Tool{named("a", "a"), named("b", "b")}
	s := tool.NewSet(given...)
	given[0] = named("x", "x")
	out := s.Tools()
	out[1] = named("y", "y")
	var got []string
	for _, tl := range s.Tools() {
		got = append(got, tl.Name())
	}
	if !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Tools = %q after the caller modified its slices", got)
	}
}

func TestZeroSetIsEmpty(t *testing.T) {
	var s tool.Set
	if tl, ok := s.Lookup("bash"); ok || tl != nil || s.Len() != 0 || len(s.Tools()) != 0 {
		t.Errorf("zero Set: Lookup = %v, %t; Len = %d; Tools = %v", tl, ok, s.Len(), s.Tools())
	}
	if empty := tool.NewSet(); empty.Len() != 0 {
		t.Errorf("NewSet() has %d tools", empty.Len())
	}
}

func TestNewSetPanicsOnANilTool(t *testing.T) {
	msg := newPanic(t, func() { tool.NewSet(named("a", "a"), nil) })
	if msg != "tool.NewSet: tool 1 is nil" {
		t.Errorf("panic message %q", msg)
	}
}
