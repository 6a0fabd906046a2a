package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// The sweep of what forks killed part-way left judges their age by one
// clock, the database's, whatever the clocks of the hosts that forked and
// that sweep: a fresh leftover stays under a sweeper whose clock is hours
// ahead, and an old one goes under a sweeper, or after a fork, whose clock
// is hours behind or ahead.
func TestTheForkSweepUsesTheDatabasesClock(t *testing.T) {
	url := pgtest.URL(t)
	for _, tc := range []struct {
		name            string
		forker, sweeper time.Duration // the clocks' skews
		age             time.Duration // the leftover's age by the database's clock
		gone            bool
	}{
		{name: "fresh, sweeper ahead", sweeper: 2 * time.Hour, age: 0, gone: false},
		{name: "old, sweeper behind", sweeper: -2 * time.Hour, age: 90 * time.Minute, gone: true},
		{name: "old, forker ahead", forker: 3 * time.Hour, age: 90 * time.Minute, gone: true},
		{name: "fresh, forker behind", forker: -3 * time.Hour, age: 0, gone: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			schema := freshSchema(t)
			st := openStore(t, postgres.Options{Schema: schema})
			enc := storage.Encoding{Namespace: "acme", ProjectID: "p1"}
			postgres.SetClock(st, func() time.Time { return time.Now().Add(tc.forker) })
			if err := st.MarkForking(ctx, enc, "s1"); err != nil {
				t.Fatal(err)
			}
			ar, err := st.Archive(ctx, enc, "s1")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ar.Put(ctx, "a note of the fork's copy", nil); err != nil {
				t.Fatal(err)
			}
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(context.Background())
			if tc.age > 0 {
				for _, stmt := range []string{
					`UPDATE ` + schema + `.archives SET modified = modified - $1::interval`,
					`UPDATE ` + schema + `.leases SET expires = expires - $1::interval`,
				} {
					if _, err := conn.Exec(ctx, stmt, tc.age); err != nil {
						t.Fatal(err)
					}
				}
			}
			postgres.SetClock(st, func() time.Time { return time.Now().Add(tc.sweeper) })
			rep, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: "acme", MaxAge: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			var archives int
			if err := conn.QueryRow(ctx, `SELECT count(*) FROM `+schema+`.archives`).Scan(&archives); err != nil {
				t.Fatal(err)
			}
			if gone := archives == 0; gone != tc.gone || len(rep.ForkLeftovers) != map[bool]int{true: 1}[tc.gone] {
				t.Errorf("the leftover %s by the database's clock, forker's clock %v, sweeper's %v: swept %v (report %+v), want %v",
					tc.age, tc.forker, tc.sweeper, gone, rep.ForkLeftovers, tc.gone)
			}
		})
	}
}

// The sweep of sessions by age judges their age by the database's clock
// too: a session just written stays under a sweeper whose clock is hours
// ahead, and under any sweeper when the host that wrote it had a clock
// hours behind.
func TestTheSessionSweepUsesTheDatabasesClock(t *testing.T) {
	for _, tc := range []struct {
		name            string
		writer, sweeper time.Duration // the clocks' skews
	}{
		{name: "sweeper ahead", sweeper: 2 * time.Hour},
		{name: "writer behind", writer: -2 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			st := openStore(t, postgres.Options{})
			enc := storage.Encoding{Namespace: "acme", ProjectID: "p1"}
			postgres.SetClock(st, func() time.Time { return time.Now().Add(tc.writer) })
			p, err := st.Project(enc)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Checkpointer().Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("just now")}}, session.AnyHead); err != nil {
				t.Fatal(err)
			}
			postgres.SetClock(st, func() time.Time { return time.Now().Add(tc.sweeper) })
			rep, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: "acme", MaxAge: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			if head, err := p.Checkpointer().Head(ctx, "s1"); err != nil || head != 1 || len(rep.Deleted) != 0 {
				t.Errorf("a session written just now by the database's clock, writer's clock %v, sweeper's %v: head %d, %v; deleted %+v",
					tc.writer, tc.sweeper, head, err, rep.Deleted)
			}
		})
	}
}
