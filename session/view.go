package session

import (
	"cmp"
	"context"
	"errors"
	"io"
	"slices"

	"github.com/lite-agent/lite-agent-go/internal/backlog"
	"github.com/lite-agent/lite-agent-go/internal/jsonl"
)

// A ViewReader reads what a resume needs of a session log, its latest
// committed context view and the records after those the view covers,
// without reading the others. [ReadFromView] reads any [Checkpointer].
type ViewReader interface {
	// ReadFromView returns the latest valid view of session id — the
	// last record whose event is a [ContextViewEvent] with
	// 0 <= ThroughSeq < its own Seq — or nil when the log holds none, and
	// after: every record with Seq > the view's ThroughSeq (the view
	// record itself among them), in order, or every record when there is
	// no view. The result is what Read(ctx, id, 0) would give, cut to the
	// view's ThroughSeq; an unknown session reads as empty.
	//
	// The records it reads are validated as Read validates them (seq
	// chain, session id, event types), and a bad record among them fails
	// the call as it fails Read; records before those it reads may be left
	// unchecked. A torn tail is ignored, as by Read.
	ReadFromView(ctx context.Context, id string) (view *StoredEvent, after []StoredEvent, err error)
}

// ReadFromView reads session id of c as [ViewReader.ReadFromView] does:
// through c's own method, or else with Read and [LatestView].
func ReadFromView(ctx context.Context, c Checkpointer, id string) (view *StoredEvent, after []StoredEvent, err error) {
	if vr, ok := c.(ViewReader); ok {
		return vr.ReadFromView(ctx, id)
	}
	all, err := c.Read(ctx, id, 0)
	if err != nil {
		return nil, nil, err
	}
	view, after = LatestView(all)
	return view, after, nil
}

// LatestView returns the latest valid context view (0 <= ThroughSeq < Seq)
// in records, a log's records in seq order, as a pointer into records,
// with the subslice of records after its ThroughSeq; or nil and records.
func LatestView(records []StoredEvent) (view *StoredEvent, after []StoredEvent) {
	for i := len(records) - 1; i >= 0; i-- {
		through, ok := viewThrough(records[i])
		if !ok {
			continue
		}
		j, _ := slices.BinarySearchFunc(records[:i], through+1, func(r StoredEvent, seq int64) int { return cmp.Compare(r.Seq, seq) })
		return &records[i], records[j:]
	}
	return nil, records
}

// A tail collects records read backwards up to the latest valid view.
type tail struct {
	backlog.Collector[StoredEvent]
	viewSeq, through int64
}

// add takes the record before those taken and reports whether more are
// needed.
func (t *tail) add(r StoredEvent) bool {
	t.Add(r)
	if th, ok := viewThrough(r); ok && t.viewSeq == 0 {
		t.viewSeq, t.through = r.Seq, th
	}
	return t.viewSeq == 0 || r.Seq-1 > t.through
}

// result returns the view and the records taken, in order.
func (t *tail) result() (*StoredEvent, []StoredEvent) {
	out := t.Result()
	if t.viewSeq == 0 {
		return nil, out
	}
	return &out[t.viewSeq-out[0].Seq], out
}

// viewThrough returns the ThroughSeq of r when r is a valid context view.
func viewThrough(r StoredEvent) (int64, bool) {
	v, ok := r.Event.(ContextViewEvent)
	if !ok || v.ThroughSeq < 0 || v.ThroughSeq >= r.Seq {
		return 0, false
	}
	return v.ThroughSeq, true
}

var _ ViewReader = (*FileCheckpointer)(nil)

// ReadFromView implements [ViewReader]: under the session's lock it reads
// the log backwards, block by block, decoding and checking each record.
// The head (the last record's seq; for an encoded log not in the head
// cache, the count of its lines, a byte scan) is cached for the next
// Append. A record it cannot vouch for (bad, overlong, out of sequence)
// makes it read the whole log as Read does, reporting or repairing it.
func (c *FileCheckpointer) ReadFromView(ctx context.Context, id string) (*StoredEvent, []StoredEvent, error) {
	s, err := c.lock(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	defer s.unlock()
	view, after, ok, err := s.readBack(ctx)
	if err == nil && !ok {
		var l loaded
		if l, err = s.load(ctx, loadOpts{collect: true}); err == nil {
			view, after = LatestView(l.events)
		}
	}
	if err == nil {
		err = s.held()
	}
	if err != nil {
		return nil, nil, err
	}
	return view, after, nil
}

// readBack reads the log backwards for ReadFromView. ok is false when it
// met a record it cannot vouch for.
func (s *session) readBack(ctx context.Context) (view *StoredEvent, after []StoredEvent, ok bool, err error) {
	f, err := s.open()
	if err != nil || f == nil {
		return nil, nil, err == nil, err
	}
	defer f.Close()
	st, err := fstamp(s.file, f)
	if err != nil {
		return nil, nil, false, err
	}
	h, cached := s.cachedHead(st)
	if !cached {
		h = headEntry{st: st, head: -1} // plaintext: the last record's seq
		if h.end, err = jsonl.End(f, st.Size); err == nil && s.c.enc.Encoded() {
			h.head, err = jsonl.CountLines(ctx, f, h.end)
		}
		if err != nil {
			return nil, nil, false, backError(s.file, err)
		}
	}
	br := jsonl.NewBackReader(f, h.end, s.c.maxLine)
	opts := scanOpts{id: s.id, file: s.file, budget: s.c.decodeBudget(st.Size)}
	opts.countDecoded()
	var rd reader
	var tl tail
	for pos := h.head; ; {
		text, _, err := br.Prev()
		if errors.Is(err, jsonl.ErrTooLong) || err == io.EOF && pos > 0 || err == nil && pos == 0 && len(jsonl.TrimSpace(text)) > 0 {
			return nil, nil, false, nil // a line too long, or lines and seqs disagree
		} else if err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, false, backError(s.file, err)
		}
		if text = jsonl.TrimSpace(text); len(text) == 0 {
			continue
		}
		if pos < 0 {
			var fr frame
			if fr.parse(newReader(text), false); !fr.HasSeq || fr.Seq <= 0 {
				return nil, nil, false, nil
			}
			pos, h.head = fr.Seq, fr.Seq
		}
		if pos&1023 == 0 && ctx.Err() != nil {
			return nil, nil, false, ctx.Err()
		}
		ev, prob, err := checkLine(ctx, s.c.enc, opts, &rd, pos, line{Text: text}, text)
		if err != nil || prob != nil {
			return nil, nil, false, err
		}
		if pos--; !tl.add(*ev) {
			break
		}
	}
	if !cached {
		s.c.setHead(s.id, st, max(h.head, 0), h.end)
	}
	view, after = tl.result()
	return view, after, true, nil
}

func backError(file string, err error) error {
	if re, ok := err.(*jsonl.ReadError); ok {
		err = readError(file, re.Err)
	}
	return err
}
