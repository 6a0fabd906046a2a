package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/session"
)

var _ session.FirstReader = (*Checkpointer)(nil)

// First implements [session.FirstReader]: one index lookup of the
// session's record 1, decoded as Read decodes it.
func (c *Checkpointer) First(ctx context.Context, id string) (session.StoredEvent, bool, error) {
	if err := ctx.Err(); err != nil {
		return session.StoredEvent{}, false, err
	}
	if err := validID(id); err != nil {
		return session.StoredEvent{}, false, err
	}
	var data []byte
	err := c.p.s.db().scan(ctx, c.p.s.q.sql(`SELECT data FROM {events}
		WHERE namespace = $1 AND project = $2 AND session = $3 AND seq = 1`),
		[]any{c.p.ns, c.p.project, id}, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return session.StoredEvent{}, false, nil
	}
	if err != nil {
		return session.StoredEvent{}, false, err
	}
	ev, err := c.decode(ctx, id, 1, data)
	if err != nil {
		return session.StoredEvent{}, false, err
	}
	return ev, true, nil
}
