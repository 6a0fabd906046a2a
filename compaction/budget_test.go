package compaction_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// marker is the reference's spill marker, written out here rather than
// built by the package.
func marker(ref string, n int) string {
	return fmt.Sprintf(`[spilled:%s] %d bytes moved off-context — call read_spilled({ ref: "%s" }) to view the full content.`, ref, n, ref)
}

func TestToolResultBudget(t *testing.T) {
	big := func(c string, n int) string { return strings.Repeat(c, n) }
	a150k, b150k := big("a", 150_000), big("b", 150_000)
	emoji := big("😀", 600) // 1200 UTF-16 units, 2400 bytes
	type spilledBody struct {
		id, body string
		chars    int
	}
	tests := []struct {
		name    string
		opts    compaction.ToolResultBudgetOptions
		msgs    []model.Message
		spilled []spilledBody // in the order the bodies appear
	}{
		{"within the default budget", compaction.ToolResultBudgetOptions{},
			concat(toolTurn("c1", big("x", 100_000)), toolTurn("c2", big("y", 100_000))), nil},
		{"over the default budget: the older of two equal bodies", compaction.ToolResultBudgetOptions{},
			concat(toolTurn("c1", a150k), toolTurn("c2", b150k)), []spilledBody{{"c1", a150k, 150_000}}},
		{"largest first until within", compaction.ToolResultBudgetOptions{Budget: 1000},
			concat(toolTurn("c1", big("s", 300)), toolTurn("c2", big("l", 900)), toolTurn("c3", big("m", 600))),
			[]spilledBody{{"c2", big("l", 900), 900}, {"c3", big("m", 600), 600}}},
		{"lengths in utf-16 units", compaction.ToolResultBudgetOptions{Budget: 1000},
			concat(toolTurn("c1", emoji), toolTurn("c2", big("z", 200))), []spilledBody{{"c1", emoji, 1200}}},
		{"markers are not spilled again", compaction.ToolResultBudgetOptions{Budget: 100},
			concat(toolTurn("c1", marker("0123456789abcdef", 5000)), toolTurn("c2", big("q", 90))), nil},
		{"bodies shorter than a marker stay", compaction.ToolResultBudgetOptions{Budget: 100},
			concat(toolTurn("c1", big("q", 90)), toolTurn("c2", big("r", 90))), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, err := spill.NewFileStore(filepath.Join(t.TempDir(), "spill"), storage.Encoding{})
			if err != nil {
				t.Fatal(err)
			}
			out, changed := apply(t, compaction.ToolResultBudget(store, tt.opts), tt.msgs)
			if changed != (len(tt.spilled) > 0) {
				t.Fatalf("changed = %v, want %v", changed, len(tt.spilled) > 0)
			}
			if !changed {
				return
			}
			want := deepCopy(tt.msgs)
			for _, s := range tt.spilled {
				ref := spill.Ref(s.body)
				for i := range want {
					for j := range want[i].Blocks {
						if b := &want[i].Blocks[j]; b.Type == model.BlockToolResult && b.ID == s.id {
							b.Content = marker(ref, s.chars)
						}
					}
				}
				got, ok, err := store.Get(context.Background(), ref)
				if err != nil || !ok || got != s.body {
					t.Errorf("spill store Get(%s) = %d chars, %v, %v; want the body", ref, len(got), ok, err)
				}
			}
			if !reflect.DeepEqual(out, want) {
				t.Errorf("got\n%.300q\nwant\n%.300q", texts(out), texts(want))
			}
		})
	}
}

func TestToolResultBudgetPutFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	store, err := spill.NewFileStore(dir, storage.Encoding{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	msgs := concat(toolTurn("c1", strings.Repeat("a", 300_000)))
	before := deepCopy(msgs)
	_, err = compaction.Run(context.Background(), msgs, compaction.ToolResultBudget(store, compaction.ToolResultBudgetOptions{}))
	var pe *compaction.PassError
	var se *storage.Error
	if !errors.As(err, &pe) || pe.Pass != "tool-result-budget" || !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *PassError of tool-result-budget wrapping a *storage.Error", err)
	}
	if !reflect.DeepEqual(msgs, before) {
		t.Fatal("a failed pass modified its input")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := compaction.ToolResultBudget(spill.NewMemoryStore(), compaction.ToolResultBudgetOptions{}).Apply(ctx, msgs); !errors.Is(err, context.Canceled) {
		t.Fatalf("with a cancelled context: err = %v, want context.Canceled", err)
	}
}

func TestTokenBudgetRejectsNonPositive(t *testing.T) {
	for _, n := range []int{0, -1} {
		p, err := compaction.TokenBudget(n)
		var oe *compaction.OptionError
		if p != nil || !errors.As(err, &oe) || oe.Value != n || oe.Pass != "token-budget" {
			t.Errorf("TokenBudget(%d) = %v, %v; want a *OptionError", n, p, err)
		}
	}
}

// turnOf returns a turn of a prompt of n characters.
func turnOf(name string, n int) []model.Message {
	return []model.Message{u(name + strings.Repeat(".", n-len(name)))}
}

func TestTokenBudget(t *testing.T) {
	five := concat(turnOf("t1", 400), turnOf("t2", 400), turnOf("t3", 400), turnOf("t4", 400), turnOf("t5", 400)) // 100 tokens each
	tests := []struct {
		name string
		max  int
		msgs []model.Message
		want []model.Message // nil: unchanged
	}{
		{"within", 500, five, nil},
		{"the newest that fit", 250, five,
			concat([]model.Message{u("[3 earlier turn(s) omitted to fit the local context budget]")}, five[3:])},
		{"exactly fitting", 200, five,
			concat([]model.Message{u("[3 earlier turn(s) omitted to fit the local context budget]")}, five[3:])},
		{"at least one", 10, five,
			concat([]model.Message{u("[4 earlier turn(s) omitted to fit the local context budget]")}, five[4:])},
		{"one turn over the budget stays", 10, turnOf("only", 4000), nil},
		{"tool pairs stay with their turn", 30, concat(toolTurn("c1", strings.Repeat("x", 200)), toolTurn("c2", "y")),
			concat([]model.Message{u("[1 earlier turn(s) omitted to fit the local context budget]")}, toolTurn("c2", "y"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := compaction.TokenBudget(tt.max)
			if err != nil {
				t.Fatal(err)
			}
			out, changed := apply(t, p, tt.msgs)
			if changed != (tt.want != nil) {
				t.Fatalf("changed = %v, want %v", changed, tt.want != nil)
			}
			if changed && !reflect.DeepEqual(out, tt.want) {
				t.Errorf("got\n%.200q\nwant\n%.200q", texts(out), texts(tt.want))
			}
		})
	}
}

func TestReactive(t *testing.T) {
	small := concat(turnOf("t1", 40), turnOf("t2", 40), turnOf("t3", 40), turnOf("t4", 40), turnOf("t5", 40))
	large := concat(turnOf("L1", 12_000), turnOf("L2", 12_000), turnOf("L3", 12_000)) // 3000 tokens each
	tests := []struct {
		name string
		opts compaction.ReactiveOptions
		msgs []model.Message
		want []model.Message // nil: unchanged
	}{
		{"two newest turns", compaction.ReactiveOptions{}, small,
			concat([]model.Message{u("[3 earlier turn(s) dropped — context overflow]")}, small[3:])},
		{"4000 tokens: one large turn", compaction.ReactiveOptions{}, large,
			concat([]model.Message{u("[2 earlier turn(s) dropped — context overflow]")}, large[2:])},
		{"a turn over 4000 tokens is kept", compaction.ReactiveOptions{}, concat(small, turnOf("huge", 40_000)),
			concat([]model.Message{u("[5 earlier turn(s) dropped — context overflow]")}, turnOf("huge", 40_000))},
		{"two turns stay", compaction.ReactiveOptions{}, small[3:], nil},
		{"one huge turn stays", compaction.ReactiveOptions{}, turnOf("huge", 40_000), nil},
		{"options", compaction.ReactiveOptions{MaxTurns: 3, MaxTokens: 100_000}, large, nil},
		{"tool turns whole", compaction.ReactiveOptions{MaxTurns: 1}, concat(toolTurn("c1", "x"), toolTurn("c2", "y")),
			concat([]model.Message{u("[1 earlier turn(s) dropped — context overflow]")}, toolTurn("c2", "y"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, changed := apply(t, compaction.Reactive(tt.opts), tt.msgs)
			if changed != (tt.want != nil) {
				t.Fatalf("changed = %v, want %v", changed, tt.want != nil)
			}
			if changed && !reflect.DeepEqual(out, tt.want) {
				t.Errorf("got\n%.200q\nwant\n%.200q", texts(out), texts(tt.want))
			}
		})
	}
}

func TestDefault(t *testing.T) {
	names := func(ps []compaction.Pass) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name())
		}
		return out
	}
	if got, want := names(compaction.Default(nil)), []string{"snip", "micro"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Default(nil) = %v, want %v", got, want)
	}
	store := spill.NewMemoryStore()
	if got, want := names(compaction.Default(store)), []string{"tool-result-budget", "snip", "micro"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Default(store) = %v, want %v", got, want)
	}
	// The whole pipeline on a long request: the big body is spilled (and
	// its marker survives micro), the middle is snipped, old bodies are
	// omitted.
	var msgs []model.Message
	msgs = append(msgs, toolTurn("c0", strings.Repeat("B", 250_000))...)
	for i := 1; i < 20; i++ {
		msgs = append(msgs, toolTurn("c"+itoa(i), "body"+itoa(i))...)
	}
	out, err := compaction.Run(context.Background(), msgs, compaction.Default(store)...)
	if err != nil {
		t.Fatal(err)
	}
	ref := spill.Ref(strings.Repeat("B", 250_000))
	want := concat(
		[]model.Message{u("do c0"), call("c0"), res("c0", marker(ref, 250_000)), a("done c0")},
		[]model.Message{u("[14 earlier turn(s) omitted to save context]")},
	)
	for i := 15; i < 20; i++ {
		body := "body" + itoa(i)
		if i < 17 {
			body = compaction.OmittedToolResult
		}
		want = append(want, u("do c"+itoa(i)), call("c"+itoa(i)), res("c"+itoa(i), body), a("done c"+itoa(i)))
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got\n%.120q\nwant\n%.120q", texts(out), texts(want))
	}
}

func TestSpillMarker(t *testing.T) {
	ref := spill.Ref("body")
	if got, want := compaction.SpillMarker(ref, 4), marker(ref, 4); got != want {
		t.Errorf("SpillMarker = %q, want %q", got, want)
	}
	if !compaction.IsSpillMarker(marker(ref, 4)) || compaction.IsSpillMarker("[tool result omitted to save context]") {
		t.Error("IsSpillMarker")
	}
}

// collidingStore is a spill store in which one body's ref already names a
// different body: its Put fails as a real store's does on a collision.
type collidingStore struct {
	spill.Store
	body string
}

func (s collidingStore) Put(ctx context.Context, content string) (string, error) {
	if content == s.body {
		return "", spill.CollisionError("", spill.Ref(content))
	}
	return s.Store.Put(ctx, content)
}

func TestToolResultBudgetKeepsACollidingBody(t *testing.T) {
	large, medium := strings.Repeat("l", 900), strings.Repeat("m", 600)
	store := collidingStore{spill.NewMemoryStore(), large}
	msgs := concat(toolTurn("c1", large), toolTurn("c2", medium))
	out, err := compaction.ToolResultBudget(store, compaction.ToolResultBudgetOptions{Budget: 1000}).Apply(context.Background(), msgs)
	if err != nil {
		t.Fatalf("Apply: %v; want the colliding body kept and the pass to go on", err)
	}
	want := deepCopy(msgs)
	for i := range want {
		for j := range want[i].Blocks {
			if b := &want[i].Blocks[j]; b.Type == model.BlockToolResult && b.ID == "c2" {
				b.Content = marker(spill.Ref(medium), 600)
			}
		}
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got\n%.300q\nwant the largest body kept and the next spilled:\n%.300q", texts(out), texts(want))
	}
}
