package session

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

// MemoryCheckpointer is a [Checkpointer] that keeps session logs in memory,
// for tests and for agents run without persistence. Records are stored in
// their JSON form, exactly as a file log would hold them, so reading gives
// back the same values a FileCheckpointer would, never values shared with
// the caller. It accepts any non-empty session id. It is safe for
// concurrent use. The zero value holds no sessions and is ready to use, as
// is the one [NewMemoryCheckpointer] returns.
type MemoryCheckpointer struct {
	now func() time.Time

	mu       sync.Mutex         // guards sessions
	sessions map[string]*memLog // by id
}

var _ Checkpointer = (*MemoryCheckpointer)(nil)

type memLog struct {
	lines   [][]byte // one JSON frame per record
	modTime time.Time
}

// NewMemoryCheckpointer returns an empty MemoryCheckpointer.
func NewMemoryCheckpointer() *MemoryCheckpointer {
	return &MemoryCheckpointer{now: time.Now, sessions: make(map[string]*memLog)}
}

var errEmptyID = errors.New("session: empty session id")

// clock returns the time now; time.Now for the zero MemoryCheckpointer.
func (m *MemoryCheckpointer) clock() time.Time {
	if m.now == nil {
		return time.Now()
	}
	return m.now()
}

func (m *MemoryCheckpointer) headLocked(id string) int64 {
	if l := m.sessions[id]; l != nil {
		return int64(len(l.lines))
	}
	return 0
}

// Append implements [Checkpointer.Append]. The whole batch is encoded
// before the log changes.
func (m *MemoryCheckpointer) Append(ctx context.Context, id string, events []Event, expectedHead int64) (int64, error) {
	if id == "" {
		return 0, errEmptyID
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	head := m.headLocked(id)
	if expectedHead >= 0 && expectedHead != head {
		return 0, &ConflictError{SessionID: id, Expected: expectedHead, Head: head}
	}
	if len(events) == 0 {
		return head, nil
	}
	now := m.clock()
	ts := jsonstr.FormatTime(now)
	lines := make([][]byte, len(events))
	for i, ev := range events {
		seq := head + int64(i) + 1
		if ev == nil {
			return 0, encodeError("", itoa(seq), errors.New("nil event"))
		}
		b, err := appendRecord(nil, seq, id, seq-1, ts, ev)
		if err != nil {
			return 0, encodeError("", itoa(seq), err)
		}
		lines[i] = b
	}
	l := m.sessions[id]
	if l == nil {
		if m.sessions == nil { // the zero MemoryCheckpointer
			m.sessions = make(map[string]*memLog)
		}
		l = &memLog{}
		m.sessions[id] = l
	}
	l.lines = append(l.lines, lines...)
	l.modTime = now
	return head + int64(len(events)), nil
}

// Read implements [Checkpointer.Read].
func (m *MemoryCheckpointer) Read(ctx context.Context, id string, sinceSeq int64) ([]StoredEvent, error) {
	if id == "" {
		return nil, errEmptyID
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	var lines [][]byte
	if l := m.sessions[id]; l != nil {
		lines = l.lines[:len(l.lines):len(l.lines)]
	}
	m.mu.Unlock()
	var out []StoredEvent
	for i := max(sinceSeq, 0); i < int64(len(lines)); i++ {
		pos := i + 1
		var f frame
		f.parse(newReader(lines[i]), true)
		f.Check(id, pos)
		if f.Problem != "" {
			// Only a bug could get here: the lines were written by Append.
			return nil, errors.New("session: corrupt in-memory record " + itoa(pos) + ": " + f.Problem)
		}
		out = append(out, f.stored(id, pos))
	}
	return out, nil
}

// Head implements [Checkpointer.Head].
func (m *MemoryCheckpointer) Head(ctx context.Context, id string) (int64, error) {
	if id == "" {
		return 0, errEmptyID
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.headLocked(id), nil
}

// List implements [Checkpointer.List]: every session appended to and not
// deleted, most recently changed first (ties by id).
func (m *MemoryCheckpointer) List(ctx context.Context) ([]Info, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	out := make([]Info, 0, len(m.sessions))
	for id, l := range m.sessions {
		out = append(out, Info{ID: id, ModTime: l.modTime})
	}
	m.mu.Unlock()
	slices.SortFunc(out, func(a, b Info) int {
		if c := b.ModTime.Compare(a.ModTime); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Delete implements [Checkpointer.Delete].
func (m *MemoryCheckpointer) Delete(ctx context.Context, id string) error {
	if id == "" {
		return errEmptyID
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	delete(m.sessions, id)
	m.mu.Unlock()
	return nil
}

// Truncate implements [Checkpointer.Truncate].
func (m *MemoryCheckpointer) Truncate(ctx context.Context, id string, toSeq, expectedHead int64) error {
	if id == "" {
		return errEmptyID
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	head := m.headLocked(id)
	if expectedHead >= 0 && expectedHead != head {
		return &ConflictError{SessionID: id, Expected: expectedHead, Head: head}
	}
	if toSeq < 0 || toSeq > head {
		return &RangeError{SessionID: id, ToSeq: toSeq, Head: head}
	}
	if l := m.sessions[id]; l != nil && toSeq < head {
		l.lines = slices.Clip(l.lines[:toSeq])
		l.modTime = m.clock()
	}
	return nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

var _ ViewReader = (*MemoryCheckpointer)(nil)

// ReadFromView implements [ViewReader] over Read and [LatestView]: an
// in-memory log is decoded whole, as it is read at most once per process.
func (m *MemoryCheckpointer) ReadFromView(ctx context.Context, id string) (*StoredEvent, []StoredEvent, error) {
	all, err := m.Read(ctx, id, 0)
	view, after := LatestView(all)
	return view, after, err
}
