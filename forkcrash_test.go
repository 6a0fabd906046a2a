package liteagent_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// forkChildEnv makes the test binary a child that forks a session and is
// killed (SIGKILL, by itself) when it first encodes a record of a given
// kind. Its value is "<home>\n<workdir>\n<session>\n<kind>", followed by
// "\n<url>\n<schema>" when the agent stores through PostgreSQL.
const forkChildEnv = "LITE_AGENT_FORK_CHILD"

// killingCodec is the test's AEAD codec, which kills its process when it
// is first asked to encode a record of kind.
type killingCodec struct {
	storage.Codec
	kind storage.Kind
}

func (c killingCodec) Encode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	if sc.Kind == c.kind {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	return c.Codec.Encode(ctx, p, sc)
}

func runForkChild(v string) int {
	parts := strings.Split(v, "\n")
	if len(parts) != 4 && len(parts) != 6 {
		fmt.Fprintln(os.Stderr, "bad", forkChildEnv)
		return 2
	}
	t := &testing.T{}
	c := killingCodec{Codec: aeadCodec(t, "k1"), kind: storage.Kind(parts[3])}
	opts := liteagent.Options{
		Model: modeltest.New(), ModelName: "test-model", Workdir: parts[1],
		Storage: storage.Options{Namespace: "acme", Home: parts[0], Codec: c}, OnApproval: approveAll,
		ContextWindow: 4000,
	}
	closeStore, err := withChildStore(&opts, parts[4:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer closeStore()
	a, err := liteagent.New(context.Background(), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	_, err = a.Fork(context.Background(), parts[2], liteagent.ForkAtHead)
	fmt.Fprintln(os.Stderr, "the fork was not killed:", err)
	return 3
}

// A fork killed while it copies the session's context archive, its task
// list or its log leaves either no new session or a whole one: never a
// session whose compacted events refer to notes it does not have, or
// whose tasks are missing.
func TestAKilledForkLeavesNoHalfMadeSession(t *testing.T) {
	checkKilledForks(t, nil)
}

// The same through the PostgreSQL store, whose DeleteSession could not
// remove what a fork copied before its log.
func TestAKilledForkThroughPostgresLeavesNoHalfMadeSession(t *testing.T) {
	url := pgtest.URL(t)
	checkKilledForks(t, pgForkStore(url))
}

// pgForkStore returns the withStore of checkKilledForks and checkForkRace
// that stores through PostgreSQL at url, in a schema of the test's own.
func pgForkStore(url string) func(*testing.T, *liteagent.Options) string {
	return func(t *testing.T, opts *liteagent.Options) string {
		st, url, schema := forkStore(t, url)
		opts.Store = st
		return "\n" + url + "\n" + schema
	}
}

// withChildStore sets opts.Store, in a fork child, to the PostgreSQL store
// that rest ("<url>", "<schema>") names, when rest is not empty, and
// returns a function that closes it.
func withChildStore(opts *liteagent.Options, rest []string) (func(), error) {
	if len(rest) == 0 {
		return func() {}, nil
	}
	st, err := postgres.Open(context.Background(), rest[0], postgres.Options{Schema: rest[1]})
	if err != nil {
		return nil, err
	}
	opts.Store = st
	return func() { st.Close() }, nil
}

// checkKilledForks kills a child forking a session at its first encode of
// each kind of record, and checks what it left. withStore, when not nil,
// sets the agent's Store and returns what the child needs to open it.
func checkKilledForks(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	for _, kind := range []storage.Kind{storage.KindArchive, storage.KindArchiveIndex, storage.KindTask, storage.KindCheckpoint} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(aeadCodec(t, "k1"))
			opts.ContextWindow = 4000
			store := ""
			if withStore != nil {
				store = withStore(t, &opts)
			}
			a := f.agent(t, opts)
			ref := sessionWithData(t, f, a)
			orig := a.SessionID()
			a.Close()

			out, err := childtest.Command(t.Context(), forkChildEnv+"="+f.home+"\n"+f.workdir+"\n"+orig+"\n"+string(kind)+store).CombinedOutput()
			if !childtest.Killed(err) {
				t.Fatalf("the child was not killed at its first %s encode: %v\n%s", kind, err, out)
			}

			b := f.agent(t, opts)
			infos, err := b.ListSessions(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range infos {
				if in.ID == orig {
					continue
				}
				// A fork that is listed must be whole.
				if got := readRef(t, f, b, in.ID, ref); !strings.Contains(got, "line 000 of the big file") {
					t.Errorf("the fork %s left by the killed child cannot read its archived result: %q", in.ID, got)
				}
				var st task.Store
				var err error
				if opts.Store != nil {
					st, err = opts.Store.TaskList(t.Context(), encodingOf(b, opts), in.ID)
				} else {
					st, err = task.NewFileStore(b.Paths().TasksDir, in.ID, encodingOf(b, opts))
				}
				if err != nil {
					t.Fatal(err)
				}
				tasks, err := st.List(t.Context())
				if err != nil || len(tasks) != 2 {
					t.Errorf("the fork %s left by the killed child has %d tasks (%v), want 2", in.ID, len(tasks), err)
				}
			}
		})
	}
}
