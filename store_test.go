package liteagent_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// elsewhere is a Store that keeps everything outside the data home: the
// sessions in memory, task lists and archives in files under its own
// directory. It leases sessions and records what it was asked.
type elsewhere struct {
	dir string
	cp  *leasedLog

	mu       sync.Mutex // guards the fields below
	encs     []storage.Encoding
	leases   []string // "+id" when taken, "-id" when released
	busy     map[string]string
	stall    map[string]chan struct{} // LeaseSession of the id waits for the channel to close
	stalling chan string              // if set, LeaseSession of an id in stall sends the id here first
	deleted  []string
	lists    map[string]task.Store
	archives map[string]archive.Archive
}

var (
	_ liteagent.Store         = (*elsewhere)(nil)
	_ liteagent.SessionLeaser = (*leasedLog)(nil)
)

func newElsewhere(t *testing.T) *elsewhere {
	s := &elsewhere{dir: t.TempDir(), busy: map[string]string{}, lists: map[string]task.Store{}, archives: map[string]archive.Archive{}}
	s.cp = &leasedLog{Checkpointer: session.NewMemoryCheckpointer(), s: s}
	return s
}

func (s *elsewhere) saw(enc storage.Encoding) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.encs = append(s.encs, enc)
}

func (s *elsewhere) Checkpointer(_ context.Context, enc storage.Encoding) (session.Checkpointer, error) {
	s.saw(enc)
	return s.cp, nil
}

func (s *elsewhere) TaskList(_ context.Context, enc storage.Encoding, listID string) (task.Store, error) {
	s.saw(enc)
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.lists[listID]; ok {
		return st, nil
	}
	st, err := task.NewFileStore(filepath.Join(s.dir, "tasks"), listID, enc)
	if err != nil {
		return nil, err
	}
	s.lists[listID] = st
	return st, nil
}

func (s *elsewhere) Archive(_ context.Context, enc storage.Encoding, sessionID string) (archive.Archive, error) {
	s.saw(enc)
	s.mu.Lock()
	defer s.mu.Unlock()
	if ar, ok := s.archives[sessionID]; ok {
		return ar, nil
	}
	ar, err := archive.NewFileArchive(filepath.Join(s.dir, "archives", sessionID), archive.Options{Encoding: enc, SessionID: sessionID})
	if err != nil {
		return nil, err
	}
	s.archives[sessionID] = ar
	return ar, nil
}

func (s *elsewhere) Spill(_ context.Context, enc storage.Encoding) (spill.Store, error) {
	s.saw(enc)
	return spill.NewFileStore(filepath.Join(s.dir, "spill"), enc)
}

func (s *elsewhere) DeleteSession(ctx context.Context, enc storage.Encoding, id string) error {
	s.saw(enc)
	head, err := s.cp.Head(ctx, id)
	if err != nil {
		return err
	}
	if head == 0 {
		return &session.NotFoundError{SessionID: id}
	}
	s.mu.Lock()
	s.deleted = append(s.deleted, id)
	s.mu.Unlock()
	return s.cp.Delete(ctx, id)
}

// errBusy is what elsewhere's LeaseSession returns for a session marked busy.
var errBusy = errors.New("session busy")

func (l *leasedLog) LeaseSession(_ context.Context, id string) (func(), error) {
	s := l.s
	s.mu.Lock()
	stall, stalling := s.stall[id], s.stalling
	s.mu.Unlock()
	if stall != nil {
		if stalling != nil {
			select { // the first call is announced; later ones must not block here, where close(stall) cannot reach them
			case stalling <- id:
			default:
			}
		}
		<-stall // a database that does not answer, whatever the context
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if holder := s.busy[id]; holder != "" {
		return nil, errBusy
	}
	s.busy[id] = "me"
	s.leases = append(s.leases, "+"+id)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.busy, id)
		s.leases = append(s.leases, "-"+id)
	}, nil
}

// leasedLog fails appends to a session its store has not leased to the
// agent, so that a test sees every write happen under the lease.
type leasedLog struct {
	session.Checkpointer
	s *elsewhere
}

func (l *leasedLog) Append(ctx context.Context, id string, evs []session.Event, expected int64) (int64, error) {
	l.s.mu.Lock()
	holder := l.s.busy[id]
	l.s.mu.Unlock()
	if holder != "me" {
		return 0, errors.New("append to session " + id + " without its lease")
	}
	return l.Checkpointer.Append(ctx, id, evs, expected)
}

func TestAStoreKeepsTheRecordsOutOfTheDataHome(t *testing.T) {
	f := newFixture(t)
	// A configuration file in the home is still read.
	if err := os.MkdirAll(filepath.Join(f.home, "agents"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.home, "agents", "helper.md"), []byte("---\nname: helper\ndescription: helps with things\n---\nHelp.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("line of a large file\n", 3000)
	if err := os.WriteFile(filepath.Join(f.workdir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	st := newElsewhere(t)
	opts := f.options(aeadCodec(t, "k1"))
	opts.Store = st
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(
		call("t", "TaskCreate", `{"subject":"one","description":"d"}`),
		call("r", "read_file", `{"path":"big.txt"}`),
	))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()

	if got := fileList(t, f.home); len(got) != 3 { // home, agents, helper.md
		t.Errorf("the agent wrote into the data home: %v", got)
	}
	if !strings.Contains(f.p.Requests()[0].System, "helper") {
		t.Error("the home's agent definition was not read")
	}
	if head, err := st.cp.Head(t.Context(), id); err != nil || head < 4 {
		t.Errorf("store's session head %d %v", head, err)
	}
	ts, err := st.lists[id].List(t.Context())
	if err != nil || len(ts) != 1 || ts[0].Subject != "one" {
		t.Errorf("store's task list %+v %v", ts, err)
	}
	if _, ok := st.archives[id]; !ok {
		t.Error("the large result was not archived in the store")
	}
	for _, enc := range st.encs {
		if enc.Namespace != "acme" || enc.ProjectID != a.Paths().Hash || enc.Codec == nil || enc.Codec.ID() != "xchacha20poly1305.v1.k1" {
			t.Fatalf("store given encoding %+v", enc)
		}
	}
	if want := []string{"+" + id, "-" + id}; strings.Join(st.leases, " ") != strings.Join(want, " ") {
		t.Errorf("leases %v, want %v", st.leases, want)
	}

	infos, err := a.ListSessions(t.Context())
	if err != nil || len(infos) != 1 || infos[0].ID != id {
		t.Errorf("ListSessions %+v %v", infos, err)
	}
	if err := a.DeleteSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	if len(st.deleted) != 1 || st.deleted[0] != id {
		t.Errorf("store deleted %v", st.deleted)
	}
	if err := a.DeleteSession(t.Context(), id); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.home, "projects")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("projects directory: %v", err)
	}
}

func TestABusySessionFailsTheTurnWithoutWriting(t *testing.T) {
	f := newFixture(t)
	st := newElsewhere(t)
	opts := f.options(nil)
	opts.Store = st
	a := f.agent(t, opts)
	if err := a.Resume("taken"); err != nil {
		t.Fatal(err)
	}
	st.busy["taken"] = "another host"
	f.p.Reply(modeltest.Text("never"))
	_, err := a.Send(t.Context(), "go")
	if !errors.Is(err, errBusy) {
		t.Fatalf("Send on a busy session: %v", err)
	}
	if head, _ := st.cp.Head(t.Context(), "taken"); head != 0 {
		t.Errorf("busy session written: head %d", head)
	}
	if len(f.p.Requests()) != 0 {
		t.Error("the model was called")
	}
	if err := a.Resume("bad id!"); err == nil {
		t.Error("a Store's session ids are not checked")
	}
}

func TestAStoreReturningNothingIsAnError(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.Store = nilStore{}
	if _, err := liteagent.New(t.Context(), opts); err == nil || !strings.Contains(err.Error(), "Store returned nil") {
		t.Errorf("New: %v", err)
	}
}

// nilStore returns nothing, and no error, from every method.
type nilStore struct{}

func (nilStore) Checkpointer(context.Context, storage.Encoding) (session.Checkpointer, error) {
	return nil, nil
}
func (nilStore) TaskList(context.Context, storage.Encoding, string) (task.Store, error) {
	return nil, nil
}
func (nilStore) Archive(context.Context, storage.Encoding, string) (archive.Archive, error) {
	return nil, nil
}
func (nilStore) Spill(context.Context, storage.Encoding) (spill.Store, error) { return nil, nil }
func (nilStore) DeleteSession(context.Context, storage.Encoding, string) error {
	return nil
}

// TestAStoreCreatesNoDataHome checks that an agent whose state all lives
// in a Store never creates its data home, which does not exist: not in
// New (its cleanup sweep included), not in a turn that creates a task,
// writes and reads files (a large one, archived), runs bash in the
// foreground and the background and a subagent, nor in Compact, Restore
// or Close. Configuration files are only read from the home, and
// with LegacyCompaction the spill store is the Store's.
func TestAStoreCreatesNoDataHome(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(map[bool]string{false: "context engine", true: "legacy compaction"}[legacy], func(t *testing.T) {
			f := newFixture(t)
			if err := os.WriteFile(filepath.Join(f.workdir, "big.txt"), []byte(strings.Repeat("line of a large file\n", 3000)), 0o644); err != nil {
				t.Fatal(err)
			}
			f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
				switch all := allText(req); {
				case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
					return modeltest.Text("child done").Chunks(), nil
				case len(req.Messages) == 1 && strings.Contains(all, "go"):
					return modeltest.ToolCalls(
						call("t", "TaskCreate", `{"subject":"one","description":"d"}`),
						call("w", "write_file", `{"path":"x.txt","content":"hi"}`),
						call("r", "read_file", `{"path":"big.txt"}`),
						call("b", "bash", `{"command":"echo hi"}`),
						call("bg", "bash", `{"command":"sleep 0.1; echo later","run_in_background":true}`),
						call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`),
					).Chunks(), nil
				}
				return modeltest.Text("ok").Chunks(), nil
			})
			opts := f.options(aeadCodec(t, "k1"))
			opts.Store = newElsewhere(t)
			opts.PermissionAudit = true
			opts.LegacyCompaction = legacy
			opts.ContextWindow = 8000
			a, err := liteagent.New(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			home := func(when string) {
				t.Helper()
				if _, err := os.Lstat(f.home); !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("%s, the data home exists (%v): %v", when, err, fileList(t, f.home))
				}
			}
			home("after New")
			// The background command's completion runs a turn of its own
			// after AwaitIdle may have returned (AwaitIdle waits for
			// subagents only): Restore below refuses a session with a run in
			// progress, so wait for that turn to end.
			woken := make(chan struct{}, 1)
			if _, err := a.Subscribe(func(n liteagent.Notice) {
				if n.Source == hook.SourceBackground && n.Event.Type == engine.EventDone {
					select {
					case woken <- struct{}{}:
					default:
					}
				}
			}); err != nil {
				t.Fatal(err)
			}
			sendAndAwait(t, a, "go")
			select {
			case <-woken:
			case <-time.After(30 * time.Second):
				t.Fatal("the background command's turn did not end")
			}
			home("after a turn")
			id := a.SessionID()
			if !legacy { // Compact runs the context engine's levels
				if _, err := a.Compact(t.Context(), liteagent.CompactOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			cps, err := a.Checkpoints(t.Context(), id)
			if err != nil || len(cps) == 0 {
				t.Fatalf("Checkpoints = %v, %v", cps, err)
			}
			if _, err := a.Restore(t.Context(), id, cps[0].Seq, liteagent.RestoreOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			home("after Close")
		})
	}
}
