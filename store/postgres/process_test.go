package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// The helper process: the test binary re-executed with helperEnv set to a
// role. It opens the store on the schema in helperSchema and does its part.
const (
	helperEnv    = "LITE_AGENT_PG_HELPER"
	helperSchema = "LITE_AGENT_PG_HELPER_SCHEMA"
	helperArg    = "LITE_AGENT_PG_HELPER_ARG"
)

func TestMain(m *testing.M) {
	if v := os.Getenv(deleteChildEnv); v != "" {
		os.Exit(runDeleteChild(v))
	}
	if role := os.Getenv(helperEnv); role != "" {
		os.Exit(helperProcess(role))
	}
	os.Exit(m.Run())
}

// helperProcess is the helper process in role; it says what went wrong
// on its standard output.
func helperProcess(role string) int {
	ctx := context.Background()
	arg := os.Getenv(helperArg)
	st, err := postgres.Open(ctx, os.Getenv(pgtest.Env), postgres.Options{
		Schema: os.Getenv(helperSchema), LeaseTTL: time.Second, Holder: "helper-" + arg,
	})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer st.Close()
	if role == "import" {
		err = importHelper(ctx, st, arg)
	} else {
		var p *postgres.Project
		if p, err = st.Project(storage.Encoding{ProjectID: "mp"}); err == nil {
			err = runHelper(ctx, role, arg, p)
		}
	}
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	return 0
}

func runHelper(ctx context.Context, role, arg string, p *postgres.Project) error {
	switch role {
	case "hold":
		// Take the lease, say so, and hold it until killed.
		if _, err := p.Acquire(ctx, "s1", postgres.LeaseOptions{}); err != nil {
			return err
		}
		fmt.Println("held")
		time.Sleep(time.Minute)
		return nil
	case "stall":
		// Take the lease and append a record, say so, wait for the
		// standard input to close (the test stops this process past the
		// TTL meanwhile), then append again under the old lease: that
		// append must be refused as a lost lease. It ends without an error
		// only then.
		if _, err := p.Acquire(ctx, "s1", postgres.LeaseOptions{}); err != nil {
			return err
		}
		cp := p.Checkpointer()
		ev := session.UserEvent{Message: model.UserText("stalled first")}
		head, err := cp.Append(ctx, "s1", []session.Event{ev}, 0)
		if err != nil {
			return err
		}
		fmt.Println("held")
		_, _ = io.Copy(io.Discard, os.Stdin)
		ev = session.UserEvent{Message: model.UserText("stalled late")}
		_, err = cp.Append(ctx, "s1", []session.Event{ev}, session.AnyHead)
		var lost *postgres.LeaseLostError
		if errors.As(err, &lost) {
			return nil
		}
		return fmt.Errorf("the append under a lease lost while stopped (head %d) = %v, want a *LeaseLostError", head, err)
	case "turns":
		// Run turns of two events each, one lease per turn.
		cp := p.Checkpointer()
		for i := range 10 {
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			l, err := p.Acquire(wctx, "s1", postgres.LeaseOptions{Wait: true})
			cancel()
			if err != nil {
				return err
			}
			head, err := cp.Head(ctx, "s1")
			if err != nil {
				return err
			}
			for j, part := range []string{"start", "end"} {
				ev := session.UserEvent{Message: model.UserText(fmt.Sprintf("%s %s %d", arg, part, i))}
				if head, err = cp.Append(ctx, "s1", []session.Event{ev}, head); err != nil {
					return fmt.Errorf("turn %d part %d: %w", i, j, err)
				}
				time.Sleep(time.Millisecond)
			}
			if err := l.Release(ctx); err != nil {
				return err
			}
		}
		return nil
	case "churn":
		// Lease sessions c0..c2 in turn, printing each token drawn; every
		// other lease writes a record and deletes the session after its
		// release, the rest release an unwritten session: each of
		// which deletes the lease row while other processes acquire it.
		cp := p.Checkpointer()
		for i := range 60 {
			id := fmt.Sprintf("c%d", i%3)
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			l, err := p.Acquire(wctx, id, postgres.LeaseOptions{Wait: true})
			cancel()
			if err != nil {
				return err
			}
			fmt.Printf("token %s %d\n", id, l.Token())
			written := i%2 == 0
			if written {
				ev := session.UserEvent{Message: model.UserText(arg)}
				if _, err := cp.Append(ctx, id, []session.Event{ev}, session.AnyHead); err != nil {
					return err
				}
			}
			if err := l.Release(ctx); err != nil {
				return err
			}
			if written {
				var busy *postgres.BusyError
				if err := p.DeleteSession(ctx, id); err != nil && !errors.As(err, &busy) {
					return err
				}
			}
		}
		return nil
	case "replace":
		// Delete session arg and start it again with one record of its
		// own, as another process's delete and new run would.
		cp := p.Checkpointer()
		if err := cp.Delete(ctx, arg); err != nil {
			return err
		}
		ev := session.UserEvent{Message: model.UserText("theirs")}
		_, err := cp.Append(ctx, arg, []session.Event{ev}, 0)
		return err
	case "tasks":
		// Create tasks and add metadata keys to task 1.
		l, err := p.TaskList("shared")
		if err != nil {
			return err
		}
		for i := range 25 {
			if _, err := l.Create(ctx, task.CreateInput{Subject: arg + "-" + strconv.Itoa(i)}); err != nil {
				return err
			}
			if _, err := l.Update(ctx, "1", task.UpdateInput{Metadata: map[string]any{arg + "-" + strconv.Itoa(i): true}}); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown role %q", role)
}

// helperEnvs is the environment of a helper process with role and arg on
// schema.
func helperEnvs(schema, role, arg string) []string {
	return []string{helperEnv + "=" + role, helperSchema + "=" + schema, helperArg + "=" + arg}
}

func TestLeaseAcrossProcesses(t *testing.T) {
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema, LeaseTTL: time.Second, Holder: "parent"})
	p, err := st.Project(storage.Encoding{ProjectID: "mp"})
	if err != nil {
		t.Fatal(err)
	}
	holder := childtest.Start(t, "held", helperEnvs(schema, "hold", "child")...)

	// A second process gets a typed busy error naming the holder, and so
	// does an unleased append.
	_, err = p.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	var busy *postgres.BusyError
	if !errors.As(err, &busy) || busy.Holder != "helper-child" || !errors.Is(err, postgres.ErrBusy) {
		t.Fatalf("Acquire while held = %v, want *BusyError naming helper-child", err)
	}
	ev := []session.Event{session.UserEvent{Message: model.UserText("x")}}
	if _, err := p.Checkpointer().Append(t.Context(), "s1", ev, session.AnyHead); !errors.As(err, &busy) {
		t.Fatalf("Append while leased elsewhere = %v, want *BusyError", err)
	}
	// Waiting is bounded by the context.
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	_, err = p.Acquire(ctx, "s1", postgres.LeaseOptions{Wait: true})
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &busy) {
		t.Fatalf("Acquire with Wait under a short deadline = %v, want deadline and busy", err)
	}

	// The holder crashes: its lease expires and a waiter gets it.
	if err := holder.Kill(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	l, err := p.Acquire(ctx, "s1", postgres.LeaseOptions{Wait: true})
	if err != nil {
		t.Fatalf("Acquire after the holder died: %v", err)
	}
	if l.Token() < 2 {
		t.Errorf("token after takeover = %d, want > 1", l.Token())
	}
	if _, err := p.Checkpointer().Append(t.Context(), "s1", ev, session.AnyHead); err != nil {
		t.Fatalf("Append under our lease: %v", err)
	}
	if err := l.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestTurnsFromProcessesNeverInterleave(t *testing.T) {
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema})
	p, err := st.Project(storage.Encoding{ProjectID: "mp"})
	if err != nil {
		t.Fatal(err)
	}
	const procs = 3
	runHelpers(t, schema, "turns", procs)
	evs, err := p.Checkpointer().Read(t.Context(), "s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != procs*10*2 {
		t.Fatalf("%d records, want %d", len(evs), procs*10*2)
	}
	for i := 0; i < len(evs); i += 2 {
		a := userText(evs[i].Event)
		b := userText(evs[i+1].Event)
		who, turn, _ := strings.Cut(a, " start ")
		if b != who+" end "+turn {
			t.Fatalf("records %d and %d are %q and %q: turns interleaved", i+1, i+2, a, b)
		}
	}
}

func TestTaskUpdatesFromEightProcesses(t *testing.T) {
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema})
	p, err := st.Project(storage.Encoding{ProjectID: "mp"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.TaskList("shared")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Create(t.Context(), task.CreateInput{Subject: "target"}); err != nil {
		t.Fatal(err)
	}
	const procs = 8
	runHelpers(t, schema, "tasks", procs)
	ts, err := l.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1+procs*25 {
		t.Errorf("%d tasks, want %d", len(ts), 1+procs*25)
	}
	seen := map[string]bool{}
	for _, tk := range ts {
		if seen[tk.ID] {
			t.Errorf("id %s twice", tk.ID)
		}
		seen[tk.ID] = true
	}
	if n := len(ts[0].Metadata); n != procs*25 {
		t.Errorf("task 1 has %d metadata keys, want %d: %d updates lost", n, procs*25, procs*25-n)
	}
}

// runHelpers runs n helper processes with role at once and waits for all.
func runHelpers(t *testing.T, schema, role string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, n)
	outs := make([][]byte, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = childtest.Command(t.Context(), helperEnvs(schema, role, "p"+strconv.Itoa(i))...).CombinedOutput()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("helper %d: %v\n%s", i, err, outs[i])
		}
	}
}

func userText(ev session.Event) string {
	u, ok := ev.(session.UserEvent)
	if !ok {
		return fmt.Sprintf("%T", ev)
	}
	return u.Message.PlainText()
}
