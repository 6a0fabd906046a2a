package liteagent_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

var archivedRef = regexp.MustCompile(`\[tool result archived: ([0-9a-f]{64})\] `)

// agentWithSessionData returns a fixture, the options of an agent with a
// small context window, and an agent of them whose new session holds a
// log, tasks and an archived result (sessionWithData).
func agentWithSessionData(t *testing.T) (*fixture, liteagent.Options, *liteagent.Agent) {
	t.Helper()
	f := newFixture(t)
	opts := f.options(nil)
	opts.ContextWindow = 4000
	a := f.agent(t, opts)
	sessionWithData(t, f, a)
	return f, opts, a
}

// sessionWithData runs two prompts on a new session of a: the first reads
// a big file and creates two tasks, the second outgrows the small window
// so that the file's result is archived. It returns the archive ref the
// second request showed.
func sessionWithData(t *testing.T, f *fixture, a *liteagent.Agent) string {
	t.Helper()
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf("line %03d of the big file", i))
	}
	if err := os.WriteFile(filepath.Join(f.workdir, "big.txt"), []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.ToolCalls(
		call("r", "read_file", `{"path":"big.txt"}`),
		call("t1", "TaskCreate", `{"subject":"first","description":"one"}`),
		call("t2", "TaskCreate", `{"subject":"second","description":"two"}`),
	), modeltest.ToolCalls(call("u", "TaskUpdate", `{"taskId":"1","status":"in_progress"}`)), modeltest.Text("I read it."))
	if _, err := a.Send(t.Context(), "read big.txt"); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "and now?"); err != nil {
		t.Fatal(err)
	}
	reqs := f.p.Requests()
	for _, m := range reqs[len(reqs)-1].Messages {
		for _, b := range m.Blocks {
			if sm := archivedRef.FindStringSubmatch(b.Content); sm != nil {
				return sm[1]
			}
		}
	}
	t.Fatal("the read_file result was not archived in the second request")
	return ""
}

// readRef resumes session id on a and has the model read ref through the
// context tool; it returns what the tool answered.
func readRef(t *testing.T, f *fixture, a *liteagent.Agent, id, ref string) string {
	t.Helper()
	if err := a.Resume(id); err != nil {
		t.Fatal(err)
	}
	in, _ := json.Marshal(map[string]any{"ref": ref, "offset": 0})
	f.p.Reply(modeltest.ToolCalls(call("c", "context", string(in))), modeltest.Text("done"))
	if _, err := a.Send(t.Context(), "what was in the file?"); err != nil {
		t.Fatal(err)
	}
	reqs := f.p.Requests()
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, b := range msgs[i].Blocks {
			if b.Type == model.BlockToolResult && b.ID == "c" {
				return b.Content
			}
		}
	}
	t.Fatalf("no result of the context call in %+v", msgs)
	return ""
}

// A fork carries the archive its copied events refer to: the context tool
// reads the ref in the fork as in the original, with the notes encoded
// under the fork's id.
func TestForkCarriesTheContextArchive(t *testing.T) {
	for _, tc := range []struct {
		name  string
		codec func(*testing.T) storage.Codec
	}{
		{"plaintext", func(*testing.T) storage.Codec { return nil }},
		{"aead", func(t *testing.T) storage.Codec { return aeadCodec(t, "k1") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(tc.codec(t))
			opts.ContextWindow = 4000
			a := f.agent(t, opts)
			ref := sessionWithData(t, f, a)
			orig := a.SessionID()
			forked, err := a.Fork(t.Context(), orig, liteagent.ForkAtHead)
			if err != nil {
				t.Fatal(err)
			}
			a.Close()
			b := f.agent(t, opts) // a new process would see the same
			for _, id := range []string{forked, orig} {
				page := readRef(t, f, b, id, ref)
				if !strings.Contains(page, `<historical-context ref="`+ref) || !strings.Contains(page, "line 000 of the big file") {
					t.Errorf("%s: the context tool did not read %s: %.300q", id, ref, page)
				}
			}
			note := filepath.Join(b.Paths().ArchiveDir(forked), "notes", ref+".md")
			stored, err := os.ReadFile(note)
			if err != nil {
				t.Fatalf("the fork's note: %v", err)
			}
			if plain := strings.Contains(string(stored), "line 000 of the big file"); plain != (tc.name == "plaintext") {
				t.Errorf("the fork's note holds plaintext: %v", plain)
			}
		})
	}
}

// A fork keeps the session's private task list, ids and records intact;
// a shared list is neither copied nor changed.
func TestForkCopiesThePrivateTaskListOnly(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(aeadCodec(t, "k1"))
			opts.ContextWindow = 4000
			if shared {
				opts.TaskListID = "team"
			}
			a := f.agent(t, opts)
			sessionWithData(t, f, a)
			orig := a.SessionID()
			list := func(listID string) []task.Task {
				t.Helper()
				st, err := task.NewFileStore(a.Paths().TasksDir, listID, encodingOf(a, opts))
				if err != nil {
					t.Fatal(err)
				}
				ts, err := st.List(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				return ts
			}
			want := list(task.DefaultListID(orig, opts.TaskListID))
			if len(want) != 2 || want[0].Status != task.InProgress {
				t.Fatalf("the session's tasks: %+v", want)
			}
			before := dirNames(t, a.Paths().TasksDir)
			forked, err := a.Fork(t.Context(), orig, liteagent.ForkAtHead)
			if err != nil {
				t.Fatal(err)
			}
			if shared {
				if got := dirNames(t, a.Paths().TasksDir); !slices.Equal(got, before) {
					t.Errorf("task lists %v after the fork, want %v", got, before)
				}
				if got := list("team"); !reflect.DeepEqual(got, want) {
					t.Errorf("the shared list changed: %+v", got)
				}
				return
			}
			if got := list(forked); !reflect.DeepEqual(got, want) {
				t.Errorf("the fork's tasks\n%+v\nwant\n%+v", got, want)
			}
			if got := list(orig); !reflect.DeepEqual(got, want) {
				t.Errorf("the original's tasks changed: %+v", got)
			}
		})
	}
}

// failingCodec is an AEAD codec whose Encode fails, once armed, for
// records of one kind: a failure in the middle of a fork's copy.
type failingCodec struct {
	storage.Codec
	kind  storage.Kind
	armed atomic.Bool
}

var errInjected = errors.New("injected encode failure")

func (c *failingCodec) Encode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	if c.armed.Load() && sc.Kind == c.kind {
		return nil, errInjected
	}
	return c.Codec.Encode(ctx, p, sc)
}

// A fork whose archive or task list cannot be copied fails with a
// *ForkError and leaves nothing of the new session behind.
func TestAFailedForkLeavesNoFork(t *testing.T) {
	for _, tc := range []struct {
		kind storage.Kind
		part string
	}{
		{storage.KindArchive, liteagent.ForkPartArchive},
		{storage.KindArchiveIndex, liteagent.ForkPartArchive},
		{storage.KindTask, liteagent.ForkPartTaskList}, // after the archive was copied
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			f := newFixture(t)
			c := &failingCodec{Codec: aeadCodec(t, "k1"), kind: tc.kind}
			opts := f.options(c)
			opts.ContextWindow = 4000
			a := f.agent(t, opts)
			sessionWithData(t, f, a)
			orig := a.SessionID()
			sessions, tasks := dirNames(t, a.Paths().SessionsDir), dirNames(t, a.Paths().TasksDir)
			c.armed.Store(true)
			_, err := a.Fork(t.Context(), orig, liteagent.ForkAtHead)
			c.armed.Store(false)
			var fe *liteagent.ForkError
			if !errors.As(err, &fe) || fe.Part != tc.part || fe.CleanupErr != nil || !strings.Contains(err.Error(), "encode failed") {
				t.Fatalf("Fork: %v", err)
			}
			if got := dirNames(t, a.Paths().SessionsDir); !slices.Equal(got, sessions) {
				t.Errorf("sessions dir %v, want %v", got, sessions)
			}
			if got := dirNames(t, a.Paths().TasksDir); !slices.Equal(got, tasks) {
				t.Errorf("tasks dir %v, want %v", got, tasks)
			}
			infos, err := a.ListSessions(t.Context())
			if err != nil || len(infos) != 1 || infos[0].ID != orig {
				t.Errorf("sessions %+v (%v)", infos, err)
			}
			// The next fork works.
			if _, err := a.Fork(t.Context(), orig, liteagent.ForkAtHead); err != nil {
				t.Errorf("fork after the failure: %v", err)
			}
		})
	}
}

// encodingOf returns the encoding of a's project.
func encodingOf(a *liteagent.Agent, opts liteagent.Options) storage.Encoding {
	p := a.Paths()
	return storage.Encoding{Codec: opts.Storage.Codec, Namespace: p.Namespace, ProjectID: p.Hash}
}

// dirNames lists the names in dir, sorted; a missing dir is empty.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.Name() != filelock.IdleName { // a parked lock directory: no data
			out = append(out, e.Name())
		}
	}
	return out
}

// forkStore opens a PostgreSQL store at url in a schema of its own, which
// is dropped when the test ends; it returns the store and the schema.
func forkStore(t *testing.T, url string) (*postgres.Store, string, string) {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_fork_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx := context.Background()
		if conn, err := pgx.Connect(ctx, url); err == nil {
			_, _ = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
			conn.Close(ctx)
		}
	})
	st, err := postgres.Open(t.Context(), url, postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st, url, schema
}

// Through the PostgreSQL store a fork carries the archive and the private
// task list too.
func TestForkThroughPostgres(t *testing.T) {
	st, url, schema := forkStore(t, pgtest.URL(t))
	// Neither a fork that failed nor one that finished leaves its mark
	// (Store.MarkForking): their data is no leftover.
	defer func() {
		conn, err := pgx.Connect(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		var n int
		if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM `+schema+`.leases WHERE session LIKE '.fork%'`).Scan(&n); err != nil || n != 0 {
			t.Errorf("fork marks left: %d, %v", n, err)
		}
	}()
	f := newFixture(t)
	c := &failingCodec{Codec: aeadCodec(t, "k1"), kind: storage.KindTask}
	opts := f.options(c)
	opts.ContextWindow = 4000
	opts.Store = st
	a := f.agent(t, opts)
	ref := sessionWithData(t, f, a)
	orig := a.SessionID()

	// A failure copying the task list leaves no log, archive or list of
	// the fork in the database.
	c.armed.Store(true)
	_, err := a.Fork(t.Context(), orig, liteagent.ForkAtHead)
	c.armed.Store(false)
	var fe *liteagent.ForkError
	if !errors.As(err, &fe) || fe.Part != liteagent.ForkPartTaskList || fe.CleanupErr != nil {
		t.Fatalf("failing fork: %v", err)
	}
	p, err := st.Project(encodingOf(a, opts))
	if err != nil {
		t.Fatal(err)
	}
	infos, err := a.ListSessions(t.Context())
	archives, aerr := p.Archives(t.Context())
	ids, lerr := st.TaskListIDs(t.Context(), encodingOf(a, opts))
	if err != nil || aerr != nil || lerr != nil || len(infos) != 1 || !slices.Equal(archives, []string{orig}) || !slices.Equal(ids, []string{orig}) {
		t.Errorf("after a failed fork: sessions %+v, archives %v, task lists %v (%v %v %v)", infos, archives, ids, err, aerr, lerr)
	}

	forked, err := a.Fork(t.Context(), orig, liteagent.ForkAtHead)
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	b2 := f.agent(t, opts)
	page := readRef(t, f, b2, forked, ref)
	if !strings.Contains(page, "line 000 of the big file") {
		t.Errorf("the context tool did not read %s in the fork: %.300q", ref, page)
	}
	lists := map[string][]task.Task{}
	for _, id := range []string{orig, forked} {
		ts, err := st.TaskList(t.Context(), encodingOf(b2, opts), id)
		if err != nil {
			t.Fatal(err)
		}
		if lists[id], err = ts.List(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if len(lists[orig]) != 2 || !reflect.DeepEqual(lists[forked], lists[orig]) {
		t.Errorf("tasks: original %+v, fork %+v", lists[orig], lists[forked])
	}
}
