package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// storeEnv names the environment variable that gives the default namespace
// its --store URL. Other namespaces ignore it, as they ignore
// LITE_AGENT_HOME.
const storeEnv = "LITE_AGENT_STORE"

// storeURL returns the database URL the flags select: --store, else, in the
// default namespace, $LITE_AGENT_STORE; "" means the data home's files. A
// URL that is not postgres:// or postgresql:// is an error.
func (g *globalFlags) storeURL() (string, error) {
	if g.store.set {
		u := strings.TrimSpace(g.store.value)
		if u == "" {
			return "", usagef("--store must not be empty")
		}
		if err := checkStoreURL(u); err != nil {
			return "", usagef("invalid --store: %w", err)
		}
		return u, nil
	}
	if g.namespace.set && g.namespace.value != storage.DefaultNamespace {
		return "", nil
	}
	u := strings.TrimSpace(os.Getenv(storeEnv))
	if u == "" {
		return "", nil
	}
	if err := checkStoreURL(u); err != nil {
		return "", fmt.Errorf("invalid $%s: %w", storeEnv, err)
	}
	return u, nil
}

// checkStoreURL checks that u is a PostgreSQL URL. Its errors do not show
// u, which may hold a password; postgres.Open reports a URL it cannot
// use without the password.
func checkStoreURL(u string) error {
	if !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
		return errors.New("want a postgres:// or postgresql:// URL")
	}
	return nil
}

// openStore opens the database the flags select, or returns nil when they
// select the data home's files. closeStores closes it.
func (g *globalFlags) openStore(ctx context.Context) (*postgres.Store, error) {
	u, err := g.storeURL()
	if err != nil || u == "" {
		return nil, err
	}
	st, err := postgres.Open(ctx, u, postgres.Options{})
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	g.opened = append(g.opened, st)
	return st, nil
}

// closeStores closes the stores openStore opened.
func (g *globalFlags) closeStores() {
	for _, st := range g.opened {
		st.Close()
	}
	g.opened = nil
}

// storeCheckpointer returns the session logs of project p in st.
func storeCheckpointer(ctx context.Context, st liteagent.Store, p project) (session.Checkpointer, error) {
	return st.Checkpointer(ctx, p.enc)
}

// storeSessionExists reports whether st holds a log for session id of
// project p.
func storeSessionExists(ctx context.Context, st liteagent.Store, p project, id string) (bool, error) {
	cp, err := storeCheckpointer(ctx, st, p)
	if err != nil {
		return false, err
	}
	head, err := cp.Head(ctx, id)
	return head > 0, err
}

// storeSessionRows lists the sessions of project p in st, most recently
// active first. A database row has no file size, and the title is not
// kept: it would be plaintext beside encoded records.
func storeSessionRows(ctx context.Context, st liteagent.Store, p project) ([]sessionRow, error) {
	cp, err := storeCheckpointer(ctx, st, p)
	if err != nil {
		return nil, err
	}
	infos, err := cp.List(ctx)
	if err != nil {
		return nil, err
	}
	rows := []sessionRow{}
	for _, in := range infos {
		row := sessionRow{ID: in.ID, Modified: in.ModTime.UTC()}
		if row.Records, err = cp.Head(ctx, in.ID); err != nil {
			row.Error = err.Error()
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// storeShow prints the records of session id of project p in st as sessions
// show does, stopping at the first that does not read.
func storeShow(ctx context.Context, st liteagent.Store, p project, id string, asJSON bool, out io.Writer) error {
	cp, err := storeCheckpointer(ctx, st, p)
	if err != nil {
		return err
	}
	if ok, err := storeSessionExists(ctx, st, p, id); err != nil {
		return err
	} else if !ok {
		return &session.NotFoundError{SessionID: id}
	}
	evs, err := cp.Read(ctx, id, 0)
	if err != nil {
		return err
	}
	if !asJSON {
		for _, ev := range evs {
			fmt.Fprintf(out, "%d\t%s\t%s\t%s\n", ev.Seq, ev.Time.UTC().Format("2006-01-02T15:04:05.000Z"), ev.Event.EventType(), termtext.Line(summarize(ev.Event)))
		}
		return nil
	}
	if evs == nil {
		evs = []session.StoredEvent{}
	}
	return writeJSON(out, evs)
}

// storeDelete deletes session id of project p from st, as sessions delete
// does: shared is the shared task list the session used ("" for its private
// list), and then no task list goes. With dryRun it only says what would go.
func storeDelete(ctx context.Context, st *postgres.Store, p project, id, shared string, dryRun bool, out io.Writer) error {
	if dryRun {
		ok, err := storeSessionExists(ctx, st, p, id)
		switch {
		case err != nil:
			return err
		case !ok:
			return &session.NotFoundError{SessionID: id}
		}
		if shared != "" {
			fmt.Fprintf(out, "would remove session %s: its log and its context archive (it used the shared task list %s: no task list goes)\n", id, shared)
			return nil
		}
		fmt.Fprintf(out, "would remove session %s: its log, its context archive and its private task list\n", id)
		return nil
	}
	if err := st.DeleteSessionWith(ctx, p.enc, id, postgres.DeleteOptions{SharedTaskList: shared}); err != nil {
		return err
	}
	fmt.Fprintf(out, "deleted session %s\n", id)
	return nil
}

// storeTaskListIDs returns the task lists of project p in st to show: only,
// if set and present, else every list, sorted.
func storeTaskListIDs(ctx context.Context, st *postgres.Store, p project, only string) ([]string, error) {
	ids, err := st.TaskListIDs(ctx, p.enc)
	if err != nil || only == "" {
		return ids, err
	}
	if slices.Contains(ids, only) {
		return []string{only}, nil
	}
	return nil, nil
}

// storeCleanup applies retention to the namespace of project p in st, as
// cleanup does to a data home, and prints what went.
func storeCleanup(ctx context.Context, st *postgres.Store, p project, opts postgres.SweepOptions, asJSON bool, out io.Writer) error {
	opts.Namespace = p.paths.Namespace
	rep, err := st.Sweep(ctx, opts)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(out, rep)
	}
	verb := "removed"
	if opts.DryRun {
		verb = "would remove"
	}
	for _, s := range rep.Deleted {
		fmt.Fprintf(out, "%s session %s of project %s (%s, %d bytes)\n", verb, termtext.Line(s.Session), termtext.Line(s.Project), s.Reason, s.Bytes)
	}
	for _, l := range rep.ForkLeftovers {
		fmt.Fprintf(out, "%s the leftover of a killed fork into session %s of project %s (fork-leftover, %d bytes)\n", verb, termtext.Line(l.Session), termtext.Line(l.Project), l.Bytes)
	}
	for _, pr := range rep.ImportIncomplete {
		fmt.Fprintf(out, "kept project %s whole: an import into it did not finish (run migrate --to-store again)\n", termtext.Line(pr))
	}
	fmt.Fprintf(out, "%s %d sessions, %d bytes, and %d spilled bodies; kept %d leased sessions\n", verb, len(rep.Deleted), rep.Bytes, rep.Spilled, rep.Leased)
	return nil
}

// A *postgres.Store is what liteagent.Options.Store takes, and its
// checkpointer leases sessions for each turn.
var (
	_ liteagent.Store         = (*postgres.Store)(nil)
	_ liteagent.SessionLeaser = (*postgres.Checkpointer)(nil)
)
