package session

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/logframe"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

// StoredEvent is one record of a session log: an [Event] with its place in
// the log. Its JSON form, one line of the log, is
//
//	{"seq":2,"sessionId":"s1","parentSeq":1,"ts":"2026-07-22T12:00:00.000Z","event":{…}}
//
// with the members in that order; parentSeq is null for seq 1.
type StoredEvent struct {
	// Seq is the record's position in the log, starting at 1.
	Seq int64
	// SessionID is the session the record belongs to.
	SessionID string
	// ParentSeq is Seq-1, or 0 (JSON null) for the first record.
	ParentSeq int64
	// Time is when the batch holding the record was appended, to the
	// millisecond; every record of a batch has the same Time.
	Time time.Time
	// Event is the event itself.
	Event Event
	// Raw is the event object exactly as stored when Event does not hold
	// all of it: members its type has no place for (written by another
	// implementation or a newer version) or strings it could not decode
	// exactly (a lone UTF-16 surrogate reads as U+FFFD). It is nil
	// otherwise, and for a [RawEvent], which keeps everything. MarshalJSON
	// writes Raw in place of Event's own form, so that a record read and
	// written back keeps what Event lacks; set it to nil after changing
	// Event.
	Raw json.RawMessage
}

// MarshalJSON encodes the record as one log line (without the newline).
func (s StoredEvent) MarshalJSON() ([]byte, error) {
	if s.Event == nil {
		return nil, errors.New("session: nil event")
	}
	ev := s.Event
	if s.Raw != nil {
		ev = RawEvent{Type: ev.EventType(), JSON: s.Raw}
	}
	return appendRecord(nil, s.Seq, s.SessionID, s.ParentSeq, jsonstr.FormatTime(s.Time), ev)
}

// UnmarshalJSON decodes one log line. It checks the shape of the frame and
// of the event, but not the record's place in a log (seq chain and session
// id), which only a log can check.
func (s *StoredEvent) UnmarshalJSON(data []byte) error {
	var f frame
	f.parse(newReader(data), true)
	if f.Problem != "" {
		return errors.New("session: " + f.Problem)
	}
	if !f.HasSeq || !f.HasSession || !f.HasParent || !f.HasTime || f.event == nil {
		return errors.New("session: record lacks seq, sessionId, parentSeq, ts or event")
	}
	*s = f.stored(string(f.Session), f.Seq)
	return nil
}

// stored returns the record at pos of session id, after a successful parse
// with the body.
func (f *frame) stored(id string, pos int64) StoredEvent {
	return StoredEvent{Seq: pos, SessionID: id, ParentSeq: pos - 1, Time: f.Time, Event: f.event, Raw: f.raw}
}

// appendRecord appends the JSON frame of one record to b. parent 0 is
// written as null.
func appendRecord(b []byte, seq int64, sessionID string, parent int64, ts string, ev Event) ([]byte, error) {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, `,"sessionId":`...)
	b = jsonstr.Append(b, sessionID)
	b = append(b, `,"parentSeq":`...)
	if parent == 0 {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, parent, 10)
	}
	b = append(b, `,"ts":`...)
	b = jsonstr.Append(b, ts)
	b = append(b, `,"event":`...)
	b, err := ev.appendJSON(b)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// frame is a parsed log line: its frame, and its event when decoded.
type frame struct {
	logframe.Frame
	event Event           // nil unless decoded
	raw   json.RawMessage // the event as stored, when event lacks some of it
}

// parse reads one line. With body, the event is decoded; without, it is
// only validated (the line's JSON and the event's string "type"), which
// allocates nothing.
func (f *frame) parse(r *reader, body bool) {
	for f.Next(&r.Reader) {
		if !body {
			skimEventNoAlloc(&r.Reader)
			continue
		}
		r.SkipSpace()
		start := r.Pos
		r.Lossy = false
		f.event = readEvent(r)
		if _, isRaw := f.event.(RawEvent); r.Lossy && r.Err == nil && !isRaw {
			f.raw = append(json.RawMessage(nil), r.Buf[start:r.Pos]...)
		}
	}
}
