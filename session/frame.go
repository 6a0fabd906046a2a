package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/msgjson"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
	"github.com/lite-agent/lite-agent-go/storage"
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
	if f.problem != "" {
		return errors.New("session: " + f.problem)
	}
	if !f.hasSeq || !f.hasSession || !f.hasParent || !f.hasTime || f.event == nil {
		return errors.New("session: record lacks seq, sessionId, parentSeq, ts or event")
	}
	*s = f.stored(string(f.session), f.seq)
	return nil
}

// stored returns the record at pos of session id, after a successful parse
// with the body.
func (f *frame) stored(id string, pos int64) StoredEvent {
	return StoredEvent{Seq: pos, SessionID: id, ParentSeq: pos - 1, Time: f.ts, Event: f.event, Raw: f.raw}
}

// CheckRecord reports whether line, the plaintext of one log record, is
// record seq of the log of session sessionID, checked as Head and Append
// check every record of a log (the TypeScript SDK reader's checks, and a time):
// a JSON object whose seq is seq, whose sessionId is sessionID, whose
// parentSeq is seq-1 (null for the first), with an ISO 8601 ts and an event
// object with a string type. The event's other members are not decoded.
// encoded says whether the log is encoded (line is then a record's decoded
// plaintext); a line of a plaintext log that is an encoded envelope is
// refused as the reader refuses it. A problem yields a *storage.Error whose
// message is the reader's ("Corrupt checkpoint record <seq>: …", or
// "Encoded storage requires its configured codec"); a valid record costs
// no allocation. Tools that copy logs record by record, such as
// migrations, use it to refuse what a reader would refuse.
func CheckRecord(line []byte, sessionID string, seq int64, encoded bool) error {
	var f frame
	r := reader{Reader: msgjson.Reader{Buf: line}}
	f.parse(&r, false)
	if !encoded && (f.envelope || f.problem != "" && bytes.Contains(line, []byte(`"liteAgentStorage"`))) {
		// An envelope, torn or not, in a plaintext log.
		return &storage.Error{
			Op: "decode", Kind: storage.KindCheckpoint, Record: strconv.FormatInt(seq, 10),
			Message: "Encoded storage requires its configured codec", Found: storage.StoredCodec(line),
		}
	}
	f.check(sessionID, seq)
	if f.problem != "" {
		return newProblem(scanOpts{id: sessionID}, seq, f.kind, f.problem).Err
	}
	return nil
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

// frame is a parsed log line.
type frame struct {
	seq        int64
	session    []byte // valid only as long as the line
	parent     int64  // 0 for null
	ts         time.Time
	event      Event           // nil unless decoded
	raw        json.RawMessage // the event as stored, when event lacks some of it
	hasSeq     bool
	hasSession bool
	hasParent  bool
	hasTime    bool
	hasEvent   bool
	envelope   bool // a "liteAgentStorage" member: an encoded record

	// problem describes what is wrong, in our own words ("" if nothing);
	// kind classifies it.
	problem string
	kind    storage.ProblemKind
}

// parse reads one line. With body, the event is decoded; without, it is
// only validated (the line's JSON and the event's string "type"), which
// allocates nothing.
func (f *frame) parse(r *reader, body bool) {
	if r.Peek() != '{' {
		r.Skip()
		f.fail(r, errors.New("not an object"), false)
		return
	}
	r.BeginObject()
	var evErr error
	for first := true; ; first = false {
		key, ok := r.NextKey(first)
		if !ok {
			break
		}
		switch string(key) {
		case "seq":
			f.hasSeq = false
			c := r.Peek()
			if c != '-' && (c < '0' || c > '9') {
				r.FailShape(errors.New("seq is not an integer"))
				break
			}
			n, ok := r.Integer()
			if !ok {
				r.Fail(errors.New("seq is not an integer"))
			}
			f.seq, f.hasSeq = n, true
		case "sessionId":
			if r.Peek() != '"' {
				r.FailShape(errors.New("sessionId is not a string"))
				break
			}
			val, plain := r.ScanString(true)
			if !plain {
				val = append([]byte(nil), val...) // rare; r.Scratch would not outlive the next key
			}
			f.session, f.hasSession = val, true
		case "parentSeq":
			f.parent, f.hasParent = 0, true
			if r.IsNull() {
				break
			}
			c := r.Peek()
			if c != '-' && (c < '0' || c > '9') {
				r.FailShape(errors.New("parentSeq is not an integer or null"))
				break
			}
			n, ok := r.Integer()
			if !ok || n == 0 {
				r.Fail(errors.New("parentSeq is not an integer or null"))
			}
			f.parent = n
		case "ts":
			if r.Peek() != '"' {
				r.FailShape(errors.New("ts is not a string"))
				break
			}
			t, ok := jsonstr.ParseTime(r.StrBytes())
			if !ok {
				r.Fail(errors.New("ts is not an ISO 8601 time"))
			}
			f.ts, f.hasTime = t, true
		case "event":
			f.hasEvent = true
			before := r.Err
			if body {
				r.SkipSpace()
				start := r.Pos
				r.Lossy = false
				f.event = readEvent(r)
				if _, isRaw := f.event.(RawEvent); r.Lossy && r.Err == nil && !isRaw {
					f.raw = append(json.RawMessage(nil), r.Buf[start:r.Pos]...)
				}
			} else {
				skimEventNoAlloc(r)
			}
			if before == nil && r.Err != nil && r.Err != msgjson.ErrSyntax && r.Err != errNoType {
				evErr = r.Err
			}
		case "liteAgentStorage":
			f.envelope = true
			r.Skip()
		default:
			r.Skip()
		}
	}
	if r.Err == nil {
		r.End()
	}
	if r.Err != nil {
		f.fail(r, r.Err, evErr != nil && r.Err == evErr)
		return
	}
}

// fail records a problem found while reading. A shape error (valid JSON of
// the wrong form) is told apart from a syntax error by checking the whole
// line, since parsing stops at the first error.
func (f *frame) fail(r *reader, err error, inEvent bool) {
	if err == nil {
		err = r.Err
	}
	if err == msgjson.ErrSyntax || !msgjson.Valid(r.Buf) {
		f.problem, f.kind = "not valid JSON", storage.ProblemSyntax
		return
	}
	switch {
	case err == errNoType:
		f.problem, f.kind = "event has no string type", storage.ProblemFrame
	case inEvent:
		f.problem, f.kind = "invalid event: "+err.Error(), storage.ProblemEvent
	default:
		f.problem, f.kind = err.Error(), storage.ProblemFrame
	}
}

// check verifies the record's place in the log of sessionID at position
// pos (1-based), after a successful parse.
func (f *frame) check(sessionID string, pos int64) {
	switch {
	case f.problem != "":
	case !f.hasSeq || f.seq != pos:
		f.problem, f.kind = "seq is not "+strconv.FormatInt(pos, 10), storage.ProblemFrame
	case !f.hasSession || string(f.session) != sessionID:
		f.problem, f.kind = "sessionId does not match", storage.ProblemFrame
	case !f.hasParent || f.parent != pos-1:
		f.problem, f.kind = "parentSeq does not precede seq", storage.ProblemFrame
	case !f.hasTime:
		f.problem, f.kind = "ts is missing", storage.ProblemFrame
	case !f.hasEvent:
		f.problem, f.kind = "event is missing", storage.ProblemFrame
	}
}
