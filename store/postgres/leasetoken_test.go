package postgres_test

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A fencing token must never come back for the same session: a holder
// stopped past its TTL (SIGSTOP) whose lease passed on, was released (or
// whose session was deleted), and was taken again, carried the token the
// new holder got when the release deleted the row (the next INSERT started
// at 1 again), and its append on waking passed the check. The child holds
// token 1 and is stopped; this process takes the lease over and releases
// it (or deletes the session, clears the project, or sweeps the
// session and its lease row), takes it again through another Project, and
// continues the child, whose append must be refused.
func TestALeaseTokenNeverComesBack(t *testing.T) {
	for _, between := range []string{"release", "delete", "clear", "sweep"} {
		t.Run(between, func(t *testing.T) {
			schema := freshSchema(t)
			st := openStore(t, postgres.Options{Schema: schema, LeaseTTL: time.Second, Holder: "parent"})
			project := func() *postgres.Project {
				p, err := st.Project(storage.Encoding{ProjectID: "mp"})
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			child := childtest.Start(t, "held", helperEnvs(schema, "stall", "child")...)
			if err := child.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			waitLeaseExpired(t, schema, "s1") // past the child's TTL

			b := project()
			switch between {
			case "release":
				l, err := b.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
				if err != nil {
					t.Fatalf("takeover: %v", err)
				}
				if err := l.Release(t.Context()); err != nil {
					t.Fatal(err)
				}
			case "delete":
				if err := b.DeleteSession(t.Context(), "s1"); err != nil {
					t.Fatalf("delete: %v", err)
				}
			case "clear":
				if err := b.Clear(t.Context()); err != nil {
					t.Fatalf("clear: %v", err)
				}
			case "sweep":
				rep, err := st.Sweep(t.Context(), postgres.SweepOptions{MaxAge: time.Millisecond})
				if err != nil {
					t.Fatalf("sweep: %v", err)
				}
				if len(rep.Deleted) != 1 {
					t.Fatalf("the sweep deleted %d sessions, want the stopped child's", len(rep.Deleted))
				}
			}
			c := project()
			l, err := c.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
			if err != nil {
				t.Fatalf("the next acquire: %v", err)
			}
			defer l.Release(t.Context())
			t.Logf("the next holder's token: %d", l.Token())

			if err := child.Signal(syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
			if err := child.Release(); err != nil {
				t.Errorf("the stalled child: %v (its append passed under a token given again)", err)
			}
			evs, err := c.Checkpointer().Read(t.Context(), "s1", 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if strings.Contains(userText(e.Event), "late") {
					t.Errorf("the session holds the stalled child's late record")
				}
			}
			ev := session.UserEvent{Message: model.UserText("mine")}
			if _, err := c.Checkpointer().Append(t.Context(), "s1", []session.Event{ev}, session.AnyHead); err != nil {
				t.Errorf("the holder's own append: %v", err)
			}
		})
	}
}

// waitLeaseExpired waits until the lease of session id of project mp in
// schema has expired by the database's clock (its holder is stopped), at
// most 10 s.
func waitLeaseExpired(t *testing.T, schema, id string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		var live bool
		scanOne(t, `SELECT EXISTS (SELECT 1 FROM `+schema+`.leases
			WHERE project = 'mp' AND session = $1 AND expires >= now())`, &live, id)
		if !live {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lease of %s is still live after 10 s", id)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
