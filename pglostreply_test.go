package liteagent_test

import (
	"fmt"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A turn whose append of the model's answer reached the database and was
// committed, but whose reply was lost with the connection, succeeds: the
// records are stored, so the turn did happen. The log holds each record
// once, and the next turn follows without a gap.
func TestATurnOnPostgresWhoseCommitReplyIsLost(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	m := modeltest.New()
	g := newPGFailAgent(t, dsn, postgres.Options{}, m)
	ctx := t.Context()
	if err := g.a.StartSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	m.Reply(modeltest.Text("one"), modeltest.Text("answer-lost-xyzzy"), modeltest.Text("three"))
	if _, err := g.a.Send(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	proxy.LoseReplyTo([]byte("answer-lost-xyzzy"))
	if _, err := g.a.Send(ctx, "second"); err != nil {
		t.Errorf("the turn whose append's reply was lost: %v", err)
	}
	if _, err := g.a.Send(ctx, "third"); err != nil {
		t.Errorf("the next turn: %v", err)
	}
	got := fmt.Sprint(g.logOf(t, "s1"))
	if want := "[1 user  2 assistant one 3 user  4 assistant answer-lost-xyzzy 5 user  6 assistant three]"; got != want {
		t.Errorf("log %s, want %s", got, want)
	}
}
