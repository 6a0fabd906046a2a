package builtin_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// forEachStore runs f against a memory store and a file store.
func forEachStore(t *testing.T, f func(t *testing.T, s task.Store)) {
	t.Run("Memory", func(t *testing.T) { f(t, task.NewMemoryStore()) })
	t.Run("File", func(t *testing.T) {
		s, err := task.NewFileStore(t.TempDir(), "s1", storage.Encoding{})
		if err != nil {
			t.Fatal(err)
		}
		f(t, s)
	})
}

// updates records what OnUpdate reports.
type updates struct {
	mu  sync.Mutex
	got []string
}

func (u *updates) record(ctx context.Context, _ *tool.Call, tk task.Task) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.got = append(u.got, tk.ID+":"+string(tk.Status))
}

func taskTools(t *testing.T, s task.Store, u *updates) map[string]tool.Tool {
	t.Helper()
	opts := builtin.TaskOptions{}
	if u != nil {
		opts.OnUpdate = u.record
	}
	m := map[string]tool.Tool{}
	for _, tl := range builtin.TaskTools(func(context.Context, string) (task.Store, error) { return s, nil }, opts) {
		m[tl.Name()] = tl
	}
	return m
}

func TestTaskToolTexts(t *testing.T) {
	forEachStore(t, func(t *testing.T, s task.Store) {
		u := &updates{}
		tools := taskTools(t, s, u)
		steps := []struct {
			tool, input, want string
			isErr             bool
		}{
			{"TaskList", `{}`, "No tasks.", false},
			{"TaskCreate", `{"subject":"Write parser","description":"Parse the input","activeForm":"Writing parser"}`, "Created task #1: Write parser", false},
			{"TaskCreate", `{"subject":"Test parser","description":"","metadata":{"estimate":2}}`, "Created task #2: Test parser", false},
			{"TaskUpdate", `{"taskId":"2","addBlockedBy":["1"]}`, "Updated task #2: Test parser (pending)", false},
			{"TaskUpdate", `{"taskId":"2","status":"in_progress"}`, "Error: task '2' has unfinished dependencies", true},
			{"TaskUpdate", `{"taskId":"1","addBlockedBy":["2"]}`, "Error: update would create a dependency cycle", true},
			{"TaskUpdate", `{"taskId":"9","status":"completed"}`, "Error: no task '9'", true},
			{"TaskUpdate", `{"taskId":"1","status":"in_progress","owner":"alice"}`, "Updated task #1: Write parser (in_progress)", false},
			{"TaskList", `{}`, "[>] #1 Write parser (in_progress) @alice\n[ ] #2 Test parser (pending) [blockedBy: 1]", false},
			{"TaskUpdate", `{"taskId":"1","status":"completed","subject":"Write the parser"}`, "Updated task #1: Write the parser (completed)", false},
			{"TaskGet", `{"taskId":"7"}`, "No task '7'", false},
			{"TaskGet", `{"taskId":"../secret"}`, "No task '../secret'", false},
		}
		for _, st := range steps {
			res := call(t, tools[st.tool], st.input)
			if res.Content != st.want || res.IsError != st.isErr {
				t.Errorf("%s %s: got %q (isError %t), want %q", st.tool, st.input, res.Content, res.IsError, st.want)
			}
		}
		if want := "1:pending 2:pending 2:pending 1:in_progress 1:completed"; strings.Join(u.got, " ") != want {
			t.Errorf("updates %q, want %q", u.got, want)
		}
		res := call(t, tools["TaskGet"], `{"taskId":"2"}`)
		tk, ok, err := s.Get(context.Background(), "2")
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		want, err := task.Marshal(tk)
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != string(want) || !strings.Contains(res.Content, "\n  \"subject\": \"Test parser\",\n") {
			t.Errorf("TaskGet: got\n%s\nwant\n%s", res.Content, want)
		}
	})
}

func TestTaskToolInputIsValidated(t *testing.T) {
	tools := taskTools(t, task.NewMemoryStore(), nil)
	for _, c := range []struct{ tool, input string }{
		{"TaskCreate", `{"subject":"","description":"d"}`},
		{"TaskCreate", `{"subject":"s"}`},
		{"TaskUpdate", `{"taskId":"1","status":"done"}`},
		{"TaskUpdate", `{"taskId":"1","subject":""}`},
		{"TaskUpdate", `{"taskId":"1","execution":{"agentId":"a","status":"running"}}`},
		{"TaskUpdate", `{"status":"completed"}`},
		{"TaskGet", `{}`},
		{"TaskList", `{"all":true}`},
	} {
		res := call(t, tools[c.tool], c.input)
		if !res.IsError || !strings.HasPrefix(res.Content, "Error: invalid input for "+c.tool+": ") {
			t.Errorf("%s %s: got %q", c.tool, c.input, res.Content)
		}
	}
}

func TestTaskStoreFailuresAreErrorResults(t *testing.T) {
	failing := builtin.TaskTools(func(context.Context, string) (task.Store, error) {
		return nil, errors.New("no task list for this session")
	}, builtin.TaskOptions{})
	for _, tl := range failing {
		input := `{"taskId":"1"}`
		switch tl.Name() {
		case "TaskCreate":
			input = `{"subject":"s","description":"d"}`
		case "TaskList":
			input = `{}`
		}
		res := call(t, tl, input)
		if res.Content != "Error: no task list for this session" || !res.IsError {
			t.Errorf("%s: got %q", tl.Name(), res.Content)
		}
	}
	panicking := builtin.TaskTools(func(context.Context, string) (task.Store, error) { panic("store exploded") }, builtin.TaskOptions{})
	if res := call(t, panicking[3], `{}`); res.Content != "Error: tool TaskList panicked: store exploded" || !res.IsError {
		t.Errorf("panic: got %q", res.Content)
	}
}

func TestTaskToolsResolveTheStorePerCall(t *testing.T) {
	type sessionKey struct{}
	stores := map[string]task.Store{"a": task.NewMemoryStore(), "b": task.NewMemoryStore()}
	tools := builtin.TaskTools(func(ctx context.Context, _ string) (task.Store, error) {
		return stores[ctx.Value(sessionKey{}).(string)], nil
	}, builtin.TaskOptions{})
	ctxA := context.WithValue(context.Background(), sessionKey{}, "a")
	ctxB := context.WithValue(context.Background(), sessionKey{}, "b")
	callCtx(t, ctxA, tools[0], `{"subject":"only in a","description":""}`)
	if res := callCtx(t, ctxB, tools[3], `{}`); res.Content != "No tasks." {
		t.Errorf("list b: %q", res.Content)
	}
	if res := callCtx(t, ctxA, tools[3], `{}`); res.Content != "[ ] #1 only in a (pending)" {
		t.Errorf("list a: %q", res.Content)
	}
}

func TestTaskReminder(t *testing.T) {
	forEachStore(t, func(t *testing.T, s task.Store) {
		ctx := context.Background()
		if got, err := builtin.TaskReminder(ctx, s); got != "" || err != nil {
			t.Errorf("empty list: %q, %v", got, err)
		}
		tools := taskTools(t, s, nil)
		call(t, tools["TaskCreate"], `{"subject":"Done already","description":""}`)
		call(t, tools["TaskUpdate"], `{"taskId":"1","status":"completed"}`)
		if got, err := builtin.TaskReminder(ctx, s); got != "" || err != nil {
			t.Errorf("only completed tasks: %q, %v", got, err)
		}
		call(t, tools["TaskCreate"], `{"subject":"Write parser","description":""}`)
		call(t, tools["TaskCreate"], `{"subject":"Dropped","description":""}`)
		call(t, tools["TaskCreate"], `{"subject":"Broke","description":""}`)
		call(t, tools["TaskUpdate"], `{"taskId":"2","status":"in_progress"}`)
		call(t, tools["TaskUpdate"], `{"taskId":"3","status":"cancelled"}`)
		call(t, tools["TaskUpdate"], `{"taskId":"4","status":"failed"}`)
		before, _ := s.List(ctx)
		got, err := builtin.TaskReminder(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		want := "<system-reminder>\nCurrent tasks:\n[>] #2 Write parser (in_progress)\n[!] #4 Broke (failed)\n</system-reminder>"
		if got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
		after, _ := s.List(ctx)
		if len(before) != len(after) {
			t.Errorf("the reminder changed the list")
		}
		for i := range before {
			if before[i].UpdatedAt != after[i].UpdatedAt {
				t.Errorf("the reminder touched task %s", before[i].ID)
			}
		}
	})
}

func TestTaskReminderReportsStoreErrors(t *testing.T) {
	s, err := task.NewFileStore(t.TempDir(), "s1", storage.Encoding{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.Dir()+"/1.json", "{not a task")
	got, err := builtin.TaskReminder(context.Background(), s)
	var se *storage.Error
	if got != "" || !errors.As(err, &se) {
		t.Errorf("got %q, %v; want a *storage.Error", got, err)
	}
}
