package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/backlog"
	"github.com/lite-agent/lite-agent-go/session"
)

var _ session.ViewReader = (*Checkpointer)(nil)

// ReadFromView implements [session.ViewReader]. In one read-only
// repeatable-read transaction, so that concurrent appends are not half
// seen, it reads the session's records newest first in growing batches,
// each an index range scan on the events table's primary key, decoding
// each, until it has the latest valid view and the records after its
// ThroughSeq. The event type is not a column: it is part of the encoded
// payload, which the schema never shows in plaintext.
func (c *Checkpointer) ReadFromView(ctx context.Context, id string) (*session.StoredEvent, []session.StoredEvent, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if err := validID(id); err != nil {
		return nil, nil, err
	}
	var rev backlog.Collector[session.StoredEvent]
	var viewSeq, through int64
	err := c.p.s.readTx(ctx, func(tx db) error {
		rev, viewSeq, through = backlog.Collector[session.StoredEvent]{}, 0, 0
		below := int64(1<<63 - 1)
		for batch := 64; ; batch = min(batch*2, 4096) {
			var data [][]byte
			var seqs []int64
			err := tx.each(ctx, c.p.s.q.sql(`SELECT seq, data FROM {events}
				WHERE namespace = $1 AND project = $2 AND session = $3 AND seq < $4 ORDER BY seq DESC LIMIT $5`),
				[]any{c.p.ns, c.p.project, id, below, batch}, func(rows pgx.Rows) error {
					var seq int64
					var d []byte
					if err := rows.Scan(&seq, &d); err != nil {
						return err
					}
					seqs, data = append(seqs, seq), append(data, d)
					return nil
				})
			if err != nil {
				return err
			}
			for i, seq := range seqs {
				ev, err := c.decode(ctx, id, seq, data[i])
				if err != nil {
					return err
				}
				rev.Add(ev)
				if v, ok := ev.Event.(session.ContextViewEvent); ok && viewSeq == 0 && v.ThroughSeq >= 0 && v.ThroughSeq < seq {
					viewSeq, through = seq, v.ThroughSeq
				}
				if viewSeq != 0 && seq-1 <= through {
					return nil
				}
			}
			if len(seqs) < batch {
				return nil
			}
			below = seqs[len(seqs)-1]
		}
	})
	if err != nil {
		return nil, nil, err
	}
	after := rev.Result()
	if viewSeq == 0 {
		return nil, after, nil
	}
	return &after[viewSeq-after[0].Seq], after, nil
}

// readTx runs fn in one read-only, repeatable-read transaction. Errors are
// as for tx.
func (s *Store) readTx(ctx context.Context, fn func(db) error) error {
	return s.txWith(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn)
}
