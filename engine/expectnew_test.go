package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
)

// appendChildEnv makes the test binary a child that appends one user
// event, "<text>", to a new session of a file checkpointer (at expected
// head 0). Its value is "<sessions dir>\n<id>\n<text>".
const appendChildEnv = "LITE_AGENT_ENGINE_APPEND_CHILD"

func TestMain(m *testing.M) {
	if v := os.Getenv(appendChildEnv); v != "" {
		os.Exit(runAppendChild(v))
	}
	if v := os.Getenv(deleteChildEnv); v != "" {
		os.Exit(runDeleteChild(v))
	}
	if v := os.Getenv(compactChildEnv); v != "" {
		os.Exit(runCompactChild(v))
	}
	os.Exit(m.Run())
}

func runAppendChild(v string) int {
	parts := strings.Split(v, "\n")
	if len(parts) != 3 {
		fmt.Fprintln(os.Stderr, "bad", appendChildEnv)
		return 2
	}
	cp, err := session.NewFileCheckpointer(parts[0], session.FileOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := cp.Append(context.Background(), parts[1], []session.Event{session.UserEvent{Message: model.UserText(parts[2])}}, 0); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// deleteChildEnv makes the test binary a child that deletes a session of
// a file checkpointer, as `sessions delete` in another process does. Its
// value is "<sessions dir>\n<id>".
const deleteChildEnv = "LITE_AGENT_ENGINE_DELETE_CHILD"

func runDeleteChild(v string) int {
	dir, id, ok := strings.Cut(v, "\n")
	if !ok {
		fmt.Fprintln(os.Stderr, "bad", deleteChildEnv)
		return 2
	}
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := cp.Delete(context.Background(), id); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// errTaken is what the tests' ExpectNew callback returns.
var errTaken = errors.New("taken")

// takenErr records what the engine gave the ExpectNew callback.
type takenErr struct {
	head  int64
	cause error
}

func (e *takenErr) Error() string        { return fmt.Sprintf("taken at head %d: %v", e.head, e.cause) }
func (e *takenErr) Is(target error) bool { return target == errTaken }

func taken(head int64, cause error) error { return &takenErr{head: head, cause: cause} }

// beforeFirstAppend is a checkpointer that runs hook once, before its
// first append: what another process does between a turn's load and its
// first record.
type beforeFirstAppend struct {
	session.Checkpointer
	once sync.Once
	hook func()
}

func (c *beforeFirstAppend) Append(ctx context.Context, id string, evs []session.Event, expected int64) (int64, error) {
	c.once.Do(c.hook)
	return c.Checkpointer.Append(ctx, id, evs, expected)
}

// A session marked new (ExpectNew) whose log another process writes
// after the turn loaded it empty, before the turn's first append, is the
// other writer's: the turn fails with the mark's error, given the
// checkpointer's conflict, and appends nothing. Without the mark the
// turn would fail with a bare conflict the caller reads as "retry", and
// its retry would continue the other log. A log with records at load
// fails the same way, and the mark goes with the first record written.
func TestExpectNew(t *testing.T) {
	dir := t.TempDir()
	file, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cp := &beforeFirstAppend{Checkpointer: file}
	cp.hook = func() {
		out, err := childtest.Command(t.Context(), appendChildEnv+"="+dir+"\nnew-1\ntheirs").CombinedOutput()
		if err != nil {
			t.Errorf("the other writer failed: %v\n%s", err, out)
		}
	}
	h := newHarness(t, engine.Options{Checkpointer: cp})
	h.p.Reply(modeltest.Text("mine"))

	h.eng.ExpectNew("new-1", taken)
	_, _, err = h.turn(t, t.Context(), "new-1", "my prompt")
	var te *takenErr
	if !errors.As(err, &te) || te.head != 1 || !errors.Is(te.cause, session.ErrConflict) {
		t.Fatalf("the turn on a session written meanwhile: %v; want the mark's error at head 1 with a conflict", err)
	}
	if got := logTypes(t, file, "new-1"); strings.Join(got, ",") != "user" {
		t.Errorf("the log holds %v; want the other writer's one record", got)
	}
	if !h.eng.ExpectsNew("new-1") {
		t.Error("the mark went although nothing was written")
	}
	// Loaded with a record, the session is taken at once.
	if _, _, err := h.turn(t, t.Context(), "new-1", "again"); !errors.Is(err, errTaken) {
		t.Errorf("a second turn: %v; want the mark's error", err)
	}
	// Without the mark the session is continued as any other.
	h.eng.ExpectNew("new-1", nil)
	if _, _, err := h.turn(t, t.Context(), "new-1", "continue"); err != nil {
		t.Fatalf("a turn without the mark: %v", err)
	}

	// A session nobody else writes keeps its turns; the mark goes with
	// the first record.
	h.eng.ExpectNew("new-2", taken)
	h.p.Reply(modeltest.Text("a"), modeltest.Text("b"))
	for _, p := range []string{"one", "two"} {
		if _, _, err := h.turn(t, t.Context(), "new-2", p); err != nil {
			t.Fatalf("turn %q: %v", p, err)
		}
	}
	if h.eng.ExpectsNew("new-2") {
		t.Error("the mark stayed after the first record")
	}
}

// A session marked stored (ExpectStored) whose log is gone when a turn
// first loads it fails with the mark's error and is not started over;
// one found with records loses the mark and continues.
func TestExpectStored(t *testing.T) {
	h := newHarness(t, engine.Options{})
	h.p.Reply(modeltest.Text("one"), modeltest.Text("two"))
	if _, _, err := h.turn(t, t.Context(), "s1", "first"); err != nil {
		t.Fatal(err)
	}
	h.eng.ExpectStored("s1", taken)
	h.eng.ExpectStored("gone", taken)
	if _, _, err := h.turn(t, t.Context(), "gone", "hello"); !errors.Is(err, errTaken) {
		t.Errorf("a turn on a session with no log: %v; want the mark's error", err)
	}
	if got := logTypes(t, h.cp, "gone"); len(got) != 0 {
		t.Errorf("the missing session was started over: %v", got)
	}
	if _, _, err := h.turn(t, t.Context(), "s1", "second"); err != nil {
		t.Fatalf("a turn on the stored session: %v", err)
	}
	if h.eng.ExpectsNew("s1") {
		t.Error("ExpectsNew of a session marked stored")
	}
	// Deleted after that load, it is started over by a later turn only
	// without a mark: the mark went with the load that found records.
	if err := h.cp.Delete(t.Context(), "s1"); err != nil {
		t.Fatal(err)
	}
	h.eng.Forget("s1")
	h.p.Reply(modeltest.Text("three"))
	if _, _, err := h.turn(t, t.Context(), "s1", "third"); err != nil {
		t.Errorf("a turn after the mark went: %v", err)
	}
}

// A session marked stored whose log was emptied (restored to before its
// first prompt: the file is kept, with no records) passes the load, but a
// delete by another process between that load and the turn's first
// append (while the turn starts its MCP servers, say) is still seen: the
// append at head 0 would otherwise create the deleted session anew. The
// mark's callback is asked again under the session's lock, just before
// the first append, and its error fails the turn with nothing written.
func TestExpectStoredOfAnEmptiedLogDeletedBeforeTheFirstAppend(t *testing.T) {
	dir := t.TempDir()
	file, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const id = "emptied"
	if _, err := file.Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("old")}}, 0); err != nil {
		t.Fatal(err)
	}
	if err := file.Truncate(t.Context(), id, 0, 1); err != nil {
		t.Fatal(err)
	}
	logPath, err := file.Path(id)
	if err != nil {
		t.Fatal(err)
	}
	kept := func(int64, error) error {
		if _, err := os.Lstat(logPath); err != nil {
			return errTaken
		}
		return nil
	}
	// ExtraTools runs between the turn's load and its first append; the
	// turn's hold of the session's lock lapses while it waits.
	extra := func(_ context.Context, sid string) ([]tool.Tool, error) {
		if sid == id {
			out, err := childtest.Command(t.Context(), deleteChildEnv+"="+dir+"\n"+id).CombinedOutput()
			if err != nil {
				t.Errorf("the deleting process failed: %v\n%s", err, out)
			}
		}
		return nil, nil
	}
	h := newHarness(t, engine.Options{Checkpointer: file, ExtraTools: extra})
	h.p.Reply(modeltest.Text("mine"))
	h.eng.ExpectStored(id, kept)
	if _, _, err := h.turn(t, t.Context(), id, "go on"); !errors.Is(err, errTaken) {
		t.Errorf("a turn on an emptied session deleted before its first append: %v; want the mark's error", err)
	}
	if _, err := os.Lstat(logPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the deleted session was started over: %v", err)
	}

	// Not deleted, the emptied session is continued, and the mark goes
	// with its first record.
	if _, err := file.Append(t.Context(), "kept", []session.Event{session.UserEvent{Message: model.UserText("old")}}, 0); err != nil {
		t.Fatal(err)
	}
	if err := file.Truncate(t.Context(), "kept", 0, 1); err != nil {
		t.Fatal(err)
	}
	h.eng.ExpectStored("kept", func(int64, error) error { return nil })
	h.p.Reply(modeltest.Text("fine"))
	if _, _, err := h.turn(t, t.Context(), "kept", "go on"); err != nil {
		t.Fatalf("a turn on an emptied session: %v", err)
	}
	if got := logTypes(t, file, "kept"); strings.Join(got, ",") != "user,assistant" {
		t.Errorf("the emptied session holds %v", got)
	}
}
