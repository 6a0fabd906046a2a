package session

import "context"

// A ViewReader reads what a resume needs of a session log: its latest
// valid committed context view and the records after the seq the view
// covers, without reading (or decoding) the records the view stands for.
// [FileCheckpointer], [MemoryCheckpointer] and the PostgreSQL checkpointer
// implement it; use [ReadFromView] to read any [Checkpointer], falling
// back to [Checkpointer.Read] for those that do not.
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

// ReadFromView reads session id of c from its latest valid context view,
// as [ViewReader.ReadFromView] describes: through c's own ReadFromView when
// c implements [ViewReader], and otherwise by reading the whole log with
// [Checkpointer.Read] and cutting it with [LatestView].
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

// LatestView finds the latest valid context view in records, a log's
// records in order from seq 1 or from any seq after which the view lies,
// and returns it (a pointer into records) with the records after its
// ThroughSeq, a subslice of records; with no valid view it returns nil and
// records. A view is valid when 0 <= ThroughSeq < its Seq.
func LatestView(records []StoredEvent) (view *StoredEvent, after []StoredEvent) {
	for i := len(records) - 1; i >= 0; i-- {
		through, ok := viewThrough(records[i])
		if !ok {
			continue
		}
		view = &records[i]
		// records are consecutive: the first one after through is at
		// index i-(Seq-through-1), unless records start later.
		j := max(i-int(view.Seq-through-1), 0)
		for j < i && records[j].Seq <= through {
			j++
		}
		return view, records[j:]
	}
	return nil, records
}

// viewThrough returns the ThroughSeq of r when r is a valid context view.
func viewThrough(r StoredEvent) (int64, bool) {
	v, ok := r.Event.(ContextViewEvent)
	if !ok || v.ThroughSeq < 0 || v.ThroughSeq >= r.Seq {
		return 0, false
	}
	return v.ThroughSeq, true
}
