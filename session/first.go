package session

import (
	"context"
	"errors"
	"io"

	"github.com/lite-agent/lite-agent-go/internal/jsonl"
)

// A FirstReader reads the first record of a session's log without reading
// the others. A session's first record tells it from another session that
// was started under the same id after it was deleted: records are never
// rewritten, a restore keeps the first record unless it empties the log,
// and a compaction appends. [ReadFirst] reads any [Checkpointer].
type FirstReader interface {
	// First returns the record with Seq 1 of session id and true, or
	// false when the log has no records (an unknown session included).
	// The record is validated as Read validates it.
	First(ctx context.Context, id string) (StoredEvent, bool, error)
}

// ReadFirst reads the first record of session id of c as
// [FirstReader.First] does: through c's own method, or else with Read.
func ReadFirst(ctx context.Context, c Checkpointer, id string) (StoredEvent, bool, error) {
	if fr, ok := c.(FirstReader); ok {
		return fr.First(ctx, id)
	}
	all, err := c.Read(ctx, id, 0)
	if err != nil || len(all) == 0 {
		return StoredEvent{}, false, err
	}
	return all[0], true, nil
}

var _ FirstReader = (*FileCheckpointer)(nil)

// First implements [FirstReader]: under the session's lock it reads the
// log's first line alone. A first line it cannot vouch for (bad,
// overlong) makes it read the whole log as Read does, reporting or
// repairing it.
func (c *FileCheckpointer) First(ctx context.Context, id string) (StoredEvent, bool, error) {
	ev, ok, whole, err := c.firstLine(ctx, id)
	if err != nil || !whole {
		return ev, ok, err
	}
	all, err := c.Read(ctx, id, 0)
	if err != nil || len(all) == 0 {
		return StoredEvent{}, false, err
	}
	return all[0], true, nil
}

// firstLine reads the first record of session id from its first line;
// whole is true when that line is not a good record.
func (c *FileCheckpointer) firstLine(ctx context.Context, id string) (ev StoredEvent, ok, whole bool, err error) {
	s, err := c.lock(ctx, id)
	if err != nil {
		return ev, false, false, err
	}
	defer s.unlock()
	f, err := s.open()
	if err != nil || f == nil {
		return ev, false, false, err
	}
	defer f.Close()
	lr := c.lines.get(f, c.maxLine)
	defer c.lines.put(lr)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			return ev, false, false, nil // no complete line: no record
		}
		if err != nil {
			return ev, false, false, readError(s.file, err)
		}
		text := jsonl.TrimSpace(l.Text)
		if len(text) == 0 && !l.TooLong {
			continue // blank lines are ignored
		}
		rec, prob, err := checkLine(ctx, c.enc, scanOpts{id: id, file: s.file}, &lr.rd, 1, l, text)
		if err != nil {
			return ev, false, false, err
		}
		if prob != nil {
			return ev, false, true, nil
		}
		if err := s.held(); err != nil {
			return ev, false, false, err
		}
		return *rec, true, false, nil
	}
}

var _ FirstReader = (*MemoryCheckpointer)(nil)

// First implements [FirstReader].
func (m *MemoryCheckpointer) First(ctx context.Context, id string) (StoredEvent, bool, error) {
	if id == "" {
		return StoredEvent{}, false, errEmptyID
	}
	if err := ctx.Err(); err != nil {
		return StoredEvent{}, false, err
	}
	m.mu.Lock()
	var line []byte
	if l := m.sessions[id]; l != nil && len(l.lines) > 0 {
		line = l.lines[0]
	}
	m.mu.Unlock()
	if line == nil {
		return StoredEvent{}, false, nil
	}
	var f frame
	f.parse(newReader(line), true)
	f.Check(id, 1)
	if f.Problem != "" {
		// Only a bug could get here: the lines were written by Append.
		return StoredEvent{}, false, errors.New("session: corrupt in-memory record 1: " + f.Problem)
	}
	return f.stored(id, 1), true, nil
}
