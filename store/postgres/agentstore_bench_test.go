package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// These benchmarks compare the PostgreSQL store with the file store on the
// same machine, side by side (sub-benchmarks "file" and "postgres"):
//
//	go test ./store/postgres -run '^$' -bench 'Durable|Resume|TaskUpdates|Lease' -benchtime 3x
//
// They need a database in LITE_AGENT_TEST_POSTGRES (pgtest.Env), as the tests do.

// benchStore opens the test database in the schema bench_pgwire.
func benchStore(tb testing.TB) *postgres.Store {
	tb.Helper()
	st, err := postgres.Open(tb.Context(), pgtest.URL(tb), postgres.Options{Schema: "bench_pgwire"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(st.Close)
	return st
}

// benchProject returns an encoding for a project no earlier run used.
func benchProject() storage.Encoding {
	return storage.Encoding{ProjectID: fmt.Sprintf("b%x", time.Now().UnixNano())}
}

// benchEvents returns n user events of about size bytes of text each.
func benchEvents(n, size int) []session.Event {
	evs := make([]session.Event, n)
	for i := range evs {
		evs[i] = session.UserEvent{Message: model.UserText(strings.Repeat("x", size))}
	}
	return evs
}

// benchCheckpointers returns the two stores compared: a durable file
// checkpointer in a temporary directory and the database's.
func benchCheckpointers(b *testing.B) map[string]func(b *testing.B) session.Checkpointer {
	return map[string]func(b *testing.B) session.Checkpointer{
		"file": func(b *testing.B) session.Checkpointer {
			cp, err := session.NewFileCheckpointer(b.TempDir(), session.FileOptions{Durable: true})
			if err != nil {
				b.Fatal(err)
			}
			return cp
		},
		"postgres": func(b *testing.B) session.Checkpointer {
			cp, err := benchStore(b).Checkpointer(b.Context(), benchProject())
			if err != nil {
				b.Fatal(err)
			}
			return cp
		},
	}
}

// BenchmarkDurableAppend appends batches of 64 events of 1 KiB, each
// batch durable before Append returns.
func BenchmarkDurableAppend(b *testing.B) {
	batch := benchEvents(64, 1024)
	for _, name := range []string{"file", "postgres"} {
		b.Run(name, func(b *testing.B) {
			cp := benchCheckpointers(b)[name](b)
			b.SetBytes(64 * 1024)
			for b.Loop() {
				if _, err := cp.Append(b.Context(), "append", batch, session.AnyHead); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/batch")
		})
	}
}

// BenchmarkResume reads a session of 100,000 events (of about 100 bytes)
// whole, as resuming it does.
func BenchmarkResume(b *testing.B) {
	const total, per = 100_000, 1000
	batch := benchEvents(per, 100)
	for _, name := range []string{"file", "postgres"} {
		b.Run(name, func(b *testing.B) {
			cp := benchCheckpointers(b)[name](b)
			for range total / per {
				if _, err := cp.Append(b.Context(), "resume", batch, session.AnyHead); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				evs, err := cp.Read(b.Context(), "resume", 0)
				if err != nil || len(evs) != total {
					b.Fatal(len(evs), err)
				}
			}
		})
	}
}

// BenchmarkLeasePerTurn measures what the lease adds to a turn: taking and
// releasing it ("lease"), beside one durable append of one 1 KiB event
// ("append") and a turn's minimum with the lease, the append between
// taking and releasing it ("lease+append").
func BenchmarkLeasePerTurn(b *testing.B) {
	st := benchStore(b)
	cp, err := st.Checkpointer(b.Context(), benchProject())
	if err != nil {
		b.Fatal(err)
	}
	leaser := cp.(interface {
		LeaseSession(ctx context.Context, id string) (func(), error)
	})
	ev := benchEvents(1, 1024)
	b.Run("append", func(b *testing.B) {
		for b.Loop() {
			if _, err := cp.Append(b.Context(), "turn", ev, session.AnyHead); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lease", func(b *testing.B) {
		for b.Loop() {
			release, err := leaser.LeaseSession(b.Context(), "turn")
			if err != nil {
				b.Fatal(err)
			}
			release()
		}
	})
	b.Run("lease+append", func(b *testing.B) {
		for b.Loop() {
			release, err := leaser.LeaseSession(b.Context(), "turn")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := cp.Append(b.Context(), "turn", ev, session.AnyHead); err != nil {
				b.Fatal(err)
			}
			release()
		}
	})
}

// The child processes of BenchmarkTaskUpdates read their job from these
// variables.
const (
	childJobEnv = "PGWIRE_BENCH_CHILD" // JSON of a benchTaskJob
	benchHubs   = 50                   // tasks in the list
)

// benchTaskJob is one child's share of BenchmarkTaskUpdates.
type benchTaskJob struct {
	Store   string // "file" or "postgres"
	Dir     string // the file store's tasks directory
	Project string // the database project
	Proc    int    // the child's index
	Updates int
}

// openList opens the benchmark's task list as job says.
func (j benchTaskJob) openList(ctx context.Context, tb testing.TB) task.Store {
	if j.Store == "file" {
		s, err := task.NewFileStore(j.Dir, "bench", storage.Encoding{})
		if err != nil {
			tb.Fatal(err)
		}
		return s
	}
	st, err := postgres.Open(ctx, pgtest.URL(tb), postgres.Options{Schema: "bench_pgwire"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(st.Close)
	s, err := st.TaskList(ctx, storage.Encoding{ProjectID: j.Project}, "bench")
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestTaskUpdatesChild is one child process of BenchmarkTaskUpdates.
func TestTaskUpdatesChild(t *testing.T) {
	raw := os.Getenv(childJobEnv)
	if raw == "" {
		t.Skip("a child process of BenchmarkTaskUpdates")
	}
	var j benchTaskJob
	if err := json.Unmarshal([]byte(raw), &j); err != nil {
		t.Fatal(err)
	}
	s := j.openList(t.Context(), t)
	for k := range j.Updates {
		id := strconv.Itoa((j.Proc*7+k)%benchHubs + 1)
		if _, err := s.Update(t.Context(), id, task.UpdateInput{Metadata: map[string]any{fmt.Sprintf("p%d-%d", j.Proc, k): k}}); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkTaskUpdates runs b.N read-modify-write updates, spread over 8
// processes, on one list of 50 tasks, and checks that none is lost.
func BenchmarkTaskUpdates(b *testing.B) {
	const procs = 8
	for _, name := range []string{"file", "postgres"} {
		b.Run(name, func(b *testing.B) {
			job := benchTaskJob{Store: name, Dir: b.TempDir(), Project: benchProject().ProjectID}
			if name == "postgres" {
				pgtest.URL(b)
			}
			s := job.openList(b.Context(), b)
			for range benchHubs {
				if _, err := s.Create(b.Context(), task.CreateInput{Subject: "hub"}); err != nil {
					b.Fatal(err)
				}
			}
			per := max(b.N/procs, 1)
			b.ResetTimer()
			var wg sync.WaitGroup
			for p := range procs {
				j := job
				j.Proc, j.Updates = p, per
				arg, _ := json.Marshal(j)
				cmd := exec.Command(os.Args[0], "-test.run=^TestTaskUpdatesChild$")
				cmd.Env = append(os.Environ(), childJobEnv+"="+string(arg))
				wg.Go(func() {
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Errorf("child %d: %v\n%s", p, err, out)
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			all, err := s.List(b.Context())
			if err != nil {
				b.Fatal(err)
			}
			lost := procs * per
			for _, tk := range all {
				lost -= len(tk.Metadata)
			}
			b.ReportMetric(float64(procs*per)/b.Elapsed().Seconds(), "updates/s")
			b.ReportMetric(float64(lost), "lost")
			if lost != 0 {
				b.Errorf("%d updates lost", lost)
			}
		})
	}
}
