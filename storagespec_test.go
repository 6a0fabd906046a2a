package liteagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/internal/testcodec"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// encodedSession runs, on a new agent under codec c, one session that
// leaves a log, two tasks and an archived result (sessionWithData), and
// returns the agent (still open) and the archived ref.
func encodedSession(t *testing.T, f *fixture, c storage.Codec) (*liteagent.Agent, string) {
	t.Helper()
	opts := f.options(c)
	opts.ContextWindow = 4000
	a := f.agent(t, opts)
	return a, sessionWithData(t, f, a)
}

// Spec, "Encode and decode runtime data": the codec context holds no
// physical path, "so moving the data home preserves the encoding context
// when the project path and logical identifiers stay the same", and
// "Moving only home preserves project hashes". An authenticated codec
// binds the context as associated data, so a path in it would make every
// record unreadable after the move.
func TestMovingOnlyTheDataHomeKeepsEncodedRecordsReadable(t *testing.T) {
	f := newFixture(t)
	c := aeadCodec(t, "k1")
	a, ref := encodedSession(t, f, c)
	id, oldPaths := a.SessionID(), a.Paths()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(f.home, moved); err != nil {
		t.Fatal(err)
	}
	opts := f.options(c)
	opts.Storage.Home = moved
	b := f.agent(t, opts)
	p := b.Paths()
	if p.Hash != oldPaths.Hash || p.Home != moved {
		t.Fatalf("paths after the move %+v, before %+v", p, oldPaths)
	}
	enc := storage.Encoding{Codec: c, Namespace: "acme", ProjectID: p.Hash}

	cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(t.Context(), id, 0)
	if err != nil || len(evs) == 0 {
		t.Fatalf("log after the move: %d events, %v", len(evs), err)
	}
	ts, err := task.NewFileStore(p.TasksDir, id, enc)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := ts.List(t.Context())
	if err != nil || len(tasks) != 2 || tasks[0].Subject+tasks[1].Subject != "firstsecond" && tasks[0].Subject+tasks[1].Subject != "secondfirst" {
		t.Fatalf("tasks after the move %+v %v", tasks, err)
	}
	ar, err := archive.OpenFileArchive(p.ArchiveDir(id), archive.Options{Encoding: enc, SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	page, err := ar.Read(t.Context(), archive.ReadRequest{Ref: ref})
	if err != nil || !strings.Contains(page, "line 000 of the big file") {
		t.Fatalf("archive after the move: %.200q %v", page, err)
	}

	// And the agent resumes the moved session.
	if err := b.Resume(id); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("resumed"))
	if _, err := b.Send(t.Context(), "still there?"); err != nil {
		t.Fatal(err)
	}
}

// Spec: "New runtime files use mode 0600; temporary replacement files
// contain encoded bytes too", with the architecture's "Directories 0700".
// A whole encoded session (log, task list, context archive, their locks)
// leaves nothing else in the data home, whatever the umask lets through,
// and no file holds the plaintext.
func TestEveryRuntimeFileIs0600AndEveryDirectory0700(t *testing.T) {
	f := newFixture(t)
	a, _ := encodedSession(t, f, aeadCodec(t, "k1"))
	// A fork copies the log, the archive and the private task list.
	cps, err := a.Checkpoints(t.Context(), a.SessionID())
	if err != nil || len(cps) == 0 {
		t.Fatalf("checkpoints %v %v", cps, err)
	}
	fork, err := a.Fork(t.Context(), a.SessionID(), cps[len(cps)-1].Seq)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.Paths().TasksDir, fork)); err != nil {
		t.Fatalf("the fork has no task list: %v", err)
	}
	var files int
	walkRuntimeModes(t, f.home, func(path string, isDir bool) {
		if isDir {
			return
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{`"subject":"first"`, `"description":"one"`, "of the big file"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds the plaintext %q", path, secret)
			}
		}
	})
	if files < 8 { // a log, a task, an archive note and its index, twice
		t.Fatalf("only %d files in the data home", files)
	}
}

// Spec: the default namespace honors LITE_AGENT_TASK_LIST_ID, and
// "Changing the input object or environment later does not redirect a
// running family": the variable is read once, when the agent is made.
func TestTaskListEnvIsReadOnceAtNew(t *testing.T) {
	f := newFixture(t)
	t.Setenv(liteagent.TaskListEnv, "team")
	opts := f.options(nil)
	opts.Storage.Namespace = ""
	opts.AllowedTools = []string{"TaskCreate"}
	a := f.agent(t, opts)
	t.Setenv(liteagent.TaskListEnv, "other")
	f.p.Reply(modeltest.ToolCalls(call("t", "TaskCreate", `{"subject":"x","description":""}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.Paths().TasksDir, "team", "1.json")); err != nil {
		t.Errorf("task not in the list named at New: %v", err)
	}
	if _, err := os.Stat(filepath.Join(a.Paths().TasksDir, "other")); err == nil {
		t.Error("a list named by the variable changed after New was written")
	}
}

// Spec, "Archives and permissions": the SDK resolves the current
// session's reference, and "A reference is not a filesystem path or a
// grant to another session". After Clear starts another session, the ref
// the first session archived, and the path of its note, read as nothing.
func TestAnArchiveRefIsNoGrantToAnotherSession(t *testing.T) {
	for name, c := range map[string]func(*testing.T) storage.Codec{
		"plaintext": func(*testing.T) storage.Codec { return nil },
		"aead":      func(t *testing.T) storage.Codec { return aeadCodec(t, "k1") },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			a, ref := encodedSession(t, f, c(t))
			first := a.SessionID()
			a.Clear()
			note := filepath.Join(a.Paths().ArchiveDir(first), archive.NotesDir, ref+".md")
			for _, r := range []string{ref, note, "../" + first + ".context/" + archive.NotesDir + "/" + ref + ".md"} {
				in, _ := json.Marshal(map[string]any{"ref": r})
				f.p.Reply(modeltest.ToolCalls(call("c", "context", string(in))), modeltest.Text("ok"))
				if _, err := a.Send(t.Context(), "read it"); err != nil {
					t.Fatal(err)
				}
				if a.SessionID() == first {
					t.Fatal("Clear kept the session")
				}
				reqs := f.p.Requests()
				msgs := reqs[len(reqs)-1].Messages
				got := msgs[len(msgs)-1].Blocks[0].Content
				if strings.Contains(got, "of the big file") || !strings.Contains(got, "No archived content") {
					t.Errorf("ref %q from another session: %.300q", r, got)
				}
			}
		})
	}
}

// kindCodec stores bytes unchanged and counts the kinds it encodes.
type kindCodec struct {
	mu    sync.Mutex
	kinds map[storage.Kind]int
}

func (c *kindCodec) ID() string { return "kinds-v1" }
func (c *kindCodec) Encode(_ context.Context, p []byte, sc storage.Context) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kinds[sc.Kind]++
	return bytes.Clone(p), nil
}
func (c *kindCodec) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return bytes.Clone(p), nil
}

// Spec, "Migration and low-level APIs": "A custom Checkpointer retains
// responsibility for its own serialization and transactional guarantees;
// storage.codec is not applied around it". The host's checkpointer gets
// the events themselves, the codec encodes no checkpoint record, and it
// still encodes the built-in task list.
func TestTheCodecIsNotAppliedAroundACustomCheckpointer(t *testing.T) {
	f := newFixture(t)
	c := &kindCodec{kinds: map[storage.Kind]int{}}
	cp := session.NewMemoryCheckpointer()
	opts := f.options(c)
	opts.Checkpointer = cp
	opts.AllowedTools = []string{"TaskCreate"}
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(call("t", "TaskCreate", `{"subject":"x","description":""}`)))
	f.p.Reply(modeltest.Text("the plain answer"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(t.Context(), a.SessionID(), 0)
	if err != nil || len(evs) == 0 {
		t.Fatalf("custom checkpointer: %d events, %v", len(evs), err)
	}
	last, ok := evs[len(evs)-1].Event.(session.AssistantEvent)
	if !ok || !strings.Contains(fmt.Sprint(last), "the plain answer") {
		t.Errorf("the custom checkpointer's last event %#v", evs[len(evs)-1].Event)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kinds[storage.KindCheckpoint] != 0 || c.kinds[storage.KindTask] == 0 {
		t.Errorf("codec calls by kind %v", c.kinds)
	}
	if _, err := os.Stat(filepath.Join(a.Paths().SessionsDir, a.SessionID()+".jsonl")); err == nil {
		t.Error("a file log was written beside the custom checkpointer")
	}
}

// Spec: "Built-in file session and task-list ids must be nonempty letters,
// digits, underscores or hyphens. Invalid ids are rejected instead of being
// rewritten to colliding filenames". Every method of the agent that takes a
// session id refuses each invalid one with a *storage.Error, creates and
// changes nothing in the data home, and keeps the current session.
func TestEverySessionIDMethodRefusesInvalidIDs(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "hi"); err != nil {
		t.Fatal(err)
	}
	current := a.SessionID()
	before := dirState(t, f.home)
	ctx := t.Context()
	methods := map[string]func(id string) error{
		"Resume":       a.Resume,
		"StartSession": func(id string) error { return a.StartSession(ctx, id) },
		"ResumeStored": func(id string) error { return a.ResumeStored(ctx, id) },
		"DeleteSession": func(id string) error {
			return a.DeleteSession(ctx, id)
		},
		"Fork": func(id string) error { _, err := a.Fork(ctx, id, 1); return err },
		"Checkpoints": func(id string) error {
			_, err := a.Checkpoints(ctx, id)
			return err
		},
		"Restore": func(id string) error {
			_, err := a.Restore(ctx, id, 1, liteagent.RestoreOptions{})
			return err
		},
		"CompactSession": func(id string) error {
			_, err := a.CompactSession(ctx, id, liteagent.CompactOptions{})
			return err
		},
	}
	ids := []string{"", " ", "a/b", "../" + current, current + ".jsonl", "a b", "a.b", "a:b", `a\b`, "ü", "a\x00b", current + "\n", strings.Repeat("a", storage.MaxIDLength+1)}
	for name, m := range methods {
		for _, id := range ids {
			err := m(id)
			if _, ok := errors.AsType[*storage.Error](err); !ok {
				t.Errorf("%s(%q) = %v (%T), want a *storage.Error", name, id, err, err)
			}
		}
	}
	if got := a.SessionID(); got != current {
		t.Errorf("the current session changed from %q to %q", current, got)
	}
	if after := dirState(t, f.home); !maps.Equal(before, after) {
		t.Errorf("the data home changed:\nbefore %v\nafter  %v", before, after)
	}
}

// dirState maps every path under root to its mode, size and content.
func dirState(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		v := info.Mode().String()
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		out[path] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// An invalid LITE_AGENT_TASK_LIST_ID is refused by New in the default
// namespace (a *storage.Error inside the *OptionError, nothing created),
// and ignored, like any value of it, by a custom namespace.
func TestAnInvalidTaskListEnvIsRefusedOnlyWhereItApplies(t *testing.T) {
	for _, v := range []string{"../x", "a b", "a/b", " ", strings.Repeat("a", storage.MaxIDLength+1)} {
		f := newFixture(t)
		t.Setenv(liteagent.TaskListEnv, v)
		opts := f.options(nil)
		opts.Storage.Namespace = ""
		_, err := liteagent.New(t.Context(), opts)
		_, isOpt := errors.AsType[*liteagent.OptionError](err)
		_, isStorage := errors.AsType[*storage.Error](err)
		if !isOpt || !isStorage {
			t.Errorf("%s=%q: New = %v, want an *OptionError wrapping a *storage.Error", liteagent.TaskListEnv, v, err)
		}
		if _, err := os.Stat(f.home); err == nil {
			t.Errorf("%s=%q: the home was created", liteagent.TaskListEnv, v)
		}
		opts.Storage.Namespace = "acme"
		a, err := liteagent.New(t.Context(), opts)
		if err != nil {
			t.Errorf("%s=%q with a custom namespace: %v", liteagent.TaskListEnv, v, err)
			continue
		}
		a.Close()
	}
}

// Spec: "An encoded decode failure never triggers tail repair, a plaintext
// retry or an empty-session fallback", and "Enabling a codec on existing
// plaintext data, removing a required codec or changing its id requires
// an explicit migration". An agent under another codec configuration
// than a stored session's gets a *storage.Error from every way in to that
// session, and the data home stays byte for byte as it was.
func TestEveryWayIntoASessionOfAnotherCodecFailsAndChangesNothing(t *testing.T) {
	for name, tc := range map[string]struct {
		from, to func(*testing.T) storage.Codec
	}{
		"enable":  {func(*testing.T) storage.Codec { return nil }, func(t *testing.T) storage.Codec { return aeadCodec(t, "k1") }},
		"remove":  {func(t *testing.T) storage.Codec { return aeadCodec(t, "k1") }, func(*testing.T) storage.Codec { return nil }},
		"new id":  {func(t *testing.T) storage.Codec { return aeadCodec(t, "k1") }, func(t *testing.T) storage.Codec { return aeadCodec(t, "k2") }},
		"new key": {func(t *testing.T) storage.Codec { return aeadCodec(t, "k1") }, func(t *testing.T) storage.Codec { return wrongKeyCodec(t, "k1") }},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			a, ref := encodedSession(t, f, tc.from(t))
			id := a.SessionID()
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			before := dirState(t, f.home)
			b := f.agent(t, f.options(tc.to(t)))
			ctx := t.Context()
			ways := map[string]func() error{
				"ResumeStored": func() error { return b.ResumeStored(ctx, id) },
				"Resume+Send": func() error {
					if err := b.Resume(id); err != nil {
						return err
					}
					_, err := b.Send(ctx, "again")
					return err
				},
				"Checkpoints": func() error { _, err := b.Checkpoints(ctx, id); return err },
				"Fork":        func() error { _, err := b.Fork(ctx, id, 1); return err },
				"Restore": func() error {
					_, err := b.Restore(ctx, id, 1, liteagent.RestoreOptions{})
					return err
				},
				"CompactSession": func() error {
					_, err := b.CompactSession(ctx, id, liteagent.CompactOptions{})
					return err
				},
				"context": func() error {
					if err := b.Resume(id); err != nil {
						return err
					}
					in, _ := json.Marshal(map[string]any{"ref": ref})
					f.p.Reply(modeltest.ToolCalls(call("c", "context", string(in))), modeltest.Text("ok"))
					_, err := b.Send(ctx, "read it")
					return err
				},
			}
			for way, do := range ways {
				err := do()
				se, ok := errors.AsType[*storage.Error](err)
				if !ok {
					t.Errorf("%s: %v (%T), want a *storage.Error", way, err, err)
					continue
				}
				if name != "new key" && !se.CodecMismatch() {
					t.Errorf("%s: %v is not a codec mismatch", way, err)
				}
			}
			if after := dirState(t, f.home); !maps.Equal(before, after) {
				for p, v := range after {
					if before[p] != v {
						t.Errorf("changed or new: %s", p)
					}
				}
				for p := range before {
					if _, ok := after[p]; !ok {
						t.Errorf("gone: %s", p)
					}
				}
			}
		})
	}
}

// wrongKeyCodec is the codec of aeadCodec(t, keyID), id and all, with
// another key.
func wrongKeyCodec(t *testing.T, keyID string) storage.Codec {
	t.Helper()
	c := testcodec.AEAD(keyID, "another key")
	if id := aeadCodec(t, keyID).ID(); c.ID() != id {
		t.Fatalf("codec id %q, want %q", c.ID(), id)
	}
	return c
}

// Spec: "hooks.json and mcps.json are discovered automatically.
// Permission files remain opt-in through permissionFilePolicy". Without a
// file policy, neither the home's nor the project's permissions.json is
// read: their deny does not apply (and a broken one does not fail New).
func TestPermissionFilesAreOptIn(t *testing.T) {
	f := newFixture(t)
	deny := `{"version":1,"rules":[{"tool":"write_file","effect":"deny"}]}`
	writeFile(t, filepath.Join(f.workdir, ".acme", "permissions.json"), deny)
	writeFile(t, filepath.Join(f.home, "permissions.json"), "{broken")
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.ToolCalls(call("w", "write_file", `{"path":"a.txt","content":"ok"}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(f.workdir, "a.txt")); err != nil || string(b) != "ok" {
		t.Errorf("a permissions.json applied without a file policy: %q %v", b, err)
	}
	// With the file policy of the same storage, the project's deny applies.
	f = newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "permissions.json"), deny)
	policy, err := liteagent.PermissionFilePolicy(permission.FileOptions{Workdir: f.workdir, Storage: storage.Options{Namespace: "acme", Home: f.home}, Default: permission.Allow})
	if err != nil {
		t.Fatal(err)
	}
	opts := f.options(nil)
	opts.Permission = policy
	a = f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(call("w", "write_file", `{"path":"a.txt","content":"ok"}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.workdir, "a.txt")); err == nil {
		t.Error("the project's deny did not apply through the file policy")
	}
}

// recordingCodec stores bytes unchanged and keeps the JSON of every
// context it is handed.
type recordingCodec struct {
	mu   sync.Mutex
	seen []string
}

func (c *recordingCodec) ID() string { return "record-v1" }
func (c *recordingCodec) Encode(_ context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.note(p, sc)
}
func (c *recordingCodec) Decode(_ context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.note(p, sc)
}
func (c *recordingCodec) note(p []byte, sc storage.Context) ([]byte, error) {
	b, err := json.Marshal(sc)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen = append(c.seen, string(b))
	return bytes.Clone(p), nil
}

// Spec: "StorageContext contains namespace, projectId, scopeId, kind and
// recordId. The scope is the session id, shared task-list id or project
// spill scope. kind is checkpoint, task, archive, archive-index or spill.
// No physical path is included". Every context an agent hands its codec
// is one of the reference's shapes, in the reference's key order, for its
// namespace and project, and names no path.
func TestEveryCodecContextOfAnAgentHasTheReferenceShape(t *testing.T) {
	f := newFixture(t)
	c := &recordingCodec{}
	a, _ := encodedSession(t, f, c)
	id, hash := a.SessionID(), a.Paths().Hash
	prefix := regexp.QuoteMeta(`{"namespace":"acme","projectId":"` + hash + `","kind":"`)
	shapes := map[string]*regexp.Regexp{
		"checkpoint":    regexp.MustCompile(`^` + prefix + `checkpoint","scopeId":"` + id + `","recordId":"[1-9][0-9]*"}$`),
		"task":          regexp.MustCompile(`^` + prefix + `task","scopeId":"` + id + `","recordId":"[1-9][0-9]*"}$`),
		"archive":       regexp.MustCompile(`^` + prefix + `archive","scopeId":"` + id + `","recordId":"[0-9a-f]{64}"}$`),
		"archive-index": regexp.MustCompile(`^` + prefix + `archive-index","scopeId":"` + id + `","recordId":"(0|[1-9][0-9]*)"}$`),
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	count := map[string]int{}
	for _, s := range c.seen {
		matched := false
		for kind, re := range shapes {
			if re.MatchString(s) {
				count[kind]++
				matched = true
			}
		}
		if !matched {
			t.Errorf("context of no reference shape: %s", s)
		}
		if strings.Contains(s, "/") {
			t.Errorf("context names a path: %s", s)
		}
	}
	for kind := range shapes {
		if count[kind] == 0 {
			t.Errorf("no %s context among %d", kind, len(c.seen))
		}
	}
}

// blockingCodec stores bytes unchanged; once armed, its next Encode of
// kind signals entered and waits for release.
type blockingCodec struct {
	kind             storage.Kind
	armed            atomic.Bool
	entered, release chan struct{}
}

func (c *blockingCodec) ID() string { return "block-v1" }
func (c *blockingCodec) Encode(_ context.Context, p []byte, sc storage.Context) ([]byte, error) {
	if sc.Kind == c.kind && c.armed.CompareAndSwap(true, false) {
		c.entered <- struct{}{}
		<-c.release
	}
	return bytes.Clone(p), nil
}
func (c *blockingCodec) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return bytes.Clone(p), nil
}

// Spec: "File locks remain held across async callbacks" and "New runtime
// files use mode 0600". While the codec runs inside a write, the write's
// lock directory is there, and it and all else in the data home have the
// modes of runtime data (directories 0700, files 0600).
func TestLockDirectoriesHeldAcrossTheCodecAre0700(t *testing.T) {
	for _, kind := range []storage.Kind{storage.KindCheckpoint, storage.KindTask} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFixture(t)
			c := &blockingCodec{kind: kind, entered: make(chan struct{}), release: make(chan struct{})}
			opts := f.options(c)
			opts.AllowedTools = []string{"TaskCreate"}
			a := f.agent(t, opts)
			f.p.Reply(modeltest.Text("first"))
			if _, err := a.Send(t.Context(), "first"); err != nil {
				t.Fatal(err)
			}
			f.p.Reply(modeltest.ToolCalls(call("t", "TaskCreate", `{"subject":"x","description":""}`)))
			f.p.Reply(modeltest.Text("ok"))
			c.armed.Store(true)
			done := make(chan error, 1)
			go func() { _, err := a.Send(t.Context(), "go"); done <- err }()
			<-c.entered
			release := sync.OnceFunc(func() { close(c.release) })
			t.Cleanup(release) // before the agent's Close, should the walk fail
			locks := 0
			walkRuntimeModes(t, f.home, func(path string, isDir bool) {
				if isDir && strings.HasSuffix(path, ".lock") {
					locks++
				}
			})
			release()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if locks == 0 {
				t.Errorf("no lock directory while the %s codec ran", kind)
			}
		})
	}
}

// Spec: "The old top-level home is deprecated; conflicting home and
// storage.home values are rejected." The top-level Home alone is the data
// home, the same directory spelled twice is accepted, and two different
// ones are refused with the reference's message, a *storage.Error, before
// anything is created.
func TestTheDeprecatedTopLevelHome(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.Storage.Home, opts.Home = "", f.home
	a := f.agent(t, opts)
	if a.Paths().Home != f.home {
		t.Errorf("home %q, want %q", a.Paths().Home, f.home)
	}
	a.Close()
	opts.Storage.Home, opts.Home = f.home, f.home+"/./"
	a = f.agent(t, opts)
	a.Close()

	other := filepath.Join(t.TempDir(), "other")
	opts.Storage.Home, opts.Home = other, f.home
	_, err := liteagent.New(t.Context(), opts)
	se, ok := errors.AsType[*storage.Error](err)
	if !ok || se.Message != "home and storage.home conflict; use storage.home" {
		t.Errorf("conflicting homes: %v (%T)", err, err)
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("the conflicting home was created")
	}
	for _, file := range []string{"liteagent.go", filepath.Join("storage", "paths.go")} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^\t// Deprecated: set Storage\.Home\..*\n(\t//.*\n)*\tHome +string`).Match(src) {
			t.Errorf("%s: the top-level Home is not marked Deprecated", file)
		}
	}
}

// Spec: "Since SDK 0.18 / Core 0.17, await these low-level operations:
// ContextArchive.put/search/read and file spill reads/writes;
// TaskStore.get/list/render, as well as its existing create/update
// operations; runPipeline() and CompactPass.apply() results". In Go the
// await is a context.Context first parameter (the operation may block on
// I/O, a lock or a host codec); these fail to compile if one is dropped.
var (
	_ func(archive.Archive, context.Context, string, map[string]any) (archive.Entry, error) = archive.Archive.Put
	_ func(archive.Archive, context.Context, archive.Query) (string, error)                 = archive.Archive.Search
	_ func(archive.Archive, context.Context, archive.ReadRequest) (string, error)           = archive.Archive.Read
	_ func(spill.Store, context.Context, string) (string, error)                            = spill.Store.Put
	_ func(spill.Store, context.Context, string) (string, bool, error)                      = spill.Store.Get
	_ func(task.Store, context.Context, string) (task.Task, bool, error)                    = task.Store.Get
	_ func(task.Store, context.Context) ([]task.Task, error)                                = task.Store.List
	_ func(task.Store, context.Context, task.RenderOptions) (string, error)                 = task.Store.Render
	_ func(task.Store, context.Context, task.CreateInput) (task.Task, error)                = task.Store.Create
	_ func(task.Store, context.Context, string, task.UpdateInput) (task.Task, error)        = task.Store.Update
	_ func(compaction.Pass, context.Context, []model.Message) ([]model.Message, error)      = compaction.Pass.Apply
	_ func(context.Context, []model.Message, ...compaction.Pass) ([]model.Message, error)   = compaction.Run
)

// Spec: "The root resolves the layout once; children inherit it. Changing
// the input object or environment later does not redirect a running
// family." After New, the host changes LITE_AGENT_HOME, HOME, its options
// value and its codec's id; a subagent started afterwards still writes its
// log in the root's home, under the root's codec id, and nothing appears
// in the new homes.
func TestASubagentStartedAfterTheHostChangesEverythingKeepsTheRootsLayout(t *testing.T) {
	f := newFixture(t)
	first := filepath.Join(t.TempDir(), "first")
	t.Setenv(storage.HomeEnv, first)
	c := &renamingCodec{id: "rename-v1"}
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			return modeltest.Text("child done").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"Finder","subagent_type":"general-purpose","prompt":"find"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	opts := f.options(c)
	opts.Storage.Namespace, opts.Storage.Home = "", "" // the default namespace: the variable applies
	a := f.agent(t, opts)

	second, user := filepath.Join(t.TempDir(), "second"), t.TempDir()
	t.Setenv(storage.HomeEnv, second)
	t.Setenv("HOME", user)
	opts.Storage.Home, opts.Storage.Namespace = second, "other"
	c.id = "rename-v2"

	if _, err := a.Send(t.Context(), "ask a subagent"); err != nil {
		t.Fatal(err)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Paths().SessionsDir, first+string(filepath.Separator)) {
		t.Fatalf("sessions in %s, want under %s", a.Paths().SessionsDir, first)
	}
	ents, err := os.ReadDir(a.Paths().SessionsDir)
	if err != nil {
		t.Fatal(err)
	}
	var child string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "agent-general-purpose-") && strings.HasSuffix(e.Name(), ".jsonl") {
			child = e.Name()
		}
	}
	if child == "" {
		t.Fatalf("no child log in the root's home: %v", ents)
	}
	raw, err := os.ReadFile(filepath.Join(a.Paths().SessionsDir, child))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(raw), `{"liteAgentStorage":1,"codec":"rename-v1","payload":"`) || strings.Contains(string(raw), "rename-v2") {
		t.Errorf("the child log is not under the root's codec id: %.80s", raw)
	}
	for _, dir := range []string{second, filepath.Join(user, ".lite-agent"), filepath.Join(user, ".other"), filepath.Join(f.workdir, ".other")} {
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%s was created after New", dir)
		}
	}
}

// Spec: "One namespace controls global and project config discovery,
// skills, agent definitions, ..." and "There is no fallback scan of
// .lite-agent after selecting another namespace". Broken configuration in
// every .lite-agent place (the default home and the project's directory)
// does not trouble an acme agent with the default home; the same broken
// file in each acme place fails New, so each is a live tripwire.
func TestNoFallbackToLiteAgentDirectoriesForAnotherNamespace(t *testing.T) {
	broken := map[string]string{
		"hooks.json":                    "{broken",
		"mcps.json":                     "{broken",
		filepath.Join("agents", "x.md"): "---\nname: [broken\n---\n",
	}
	plant := func(dir string, files map[string]string) {
		for name, content := range files {
			writeFile(t, filepath.Join(dir, name), content)
		}
	}
	newAgent := func(f *fixture) error {
		opts := f.options(nil)
		opts.Storage.Home = "" // ~/.acme
		a, err := liteagent.New(t.Context(), opts)
		if err == nil {
			a.Close()
		}
		return err
	}
	f := newFixture(t)
	user := os.Getenv("HOME")
	plant(filepath.Join(user, ".lite-agent"), broken)
	plant(filepath.Join(f.workdir, ".lite-agent"), broken)
	if err := newAgent(f); err != nil {
		t.Fatalf("an acme agent read a .lite-agent directory: %v", err)
	}
	for name, content := range broken {
		for _, place := range []string{"home", "project"} {
			f := newFixture(t)
			dir := filepath.Join(os.Getenv("HOME"), ".acme")
			if place == "project" {
				dir = filepath.Join(f.workdir, ".acme")
			}
			plant(dir, map[string]string{name: content})
			if err := newAgent(f); err == nil {
				t.Errorf("a broken %s in the acme %s did not fail New: no tripwire", name, place)
			}
		}
	}
}

// walkRuntimeModes checks that every directory under root (root included)
// has mode 0700 and every other entry is a regular file of mode 0600,
// calling visit for each.
func walkRuntimeModes(t *testing.T, root string, visit func(path string, isDir bool)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = fs.ModeDir | 0o700
		}
		if info.Mode() != want {
			t.Errorf("%s: mode %v, want %v", path, info.Mode(), want)
		}
		visit(path, d.IsDir())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Spec: "host-provided backends can define other id rules", but the
// built-in file task list of a session is named after it. With a custom
// Checkpointer and the data home's task lists, an id the checkpointer
// takes but no file list can (team/alpha) used to be accepted by Resume,
// and the next turn then wrote the prompt and failed on the task reminder
// ("File task-list ids must ..."). It is refused up front now, with a
// *storage.Error and nothing written; with tasks off, or a shared list
// named by TaskListID, the host's id works.
func TestAHostIDWithoutAFileTaskListIsRefusedUpFront(t *testing.T) {
	const id = "team/alpha"
	for name, edit := range map[string]func(*liteagent.Options){
		"file task lists": func(*liteagent.Options) {},
		"tasks off":       func(o *liteagent.Options) { o.DisableTasks = true },
		"shared list":     func(o *liteagent.Options) { o.TaskListID = "team" },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			cp := session.NewMemoryCheckpointer()
			opts := f.options(nil)
			opts.Checkpointer = cp
			edit(&opts)
			a := f.agent(t, opts)
			ctx := t.Context()
			refusing := name == "file task lists"
			for method, do := range map[string]func() error{
				"Resume":       func() error { return a.Resume(id) },
				"StartSession": func() error { return a.StartSession(ctx, id) },
			} {
				err := do()
				if _, ok := errors.AsType[*storage.Error](err); ok != refusing {
					t.Errorf("%s(%q) = %v", method, id, err)
				}
			}
			if refusing {
				if a.SessionID() == id {
					t.Error("the refused id became the current session")
				}
				return
			}
			f.p.Reply(modeltest.Text("ok"))
			if _, err := a.Send(ctx, "go"); err != nil {
				t.Fatalf("a turn on the host's id: %v", err)
			}
			if evs, err := cp.Read(ctx, id, 0); err != nil || len(evs) != 2 {
				t.Errorf("the host's log: %d events, %v", len(evs), err)
			}
		})
	}
}
