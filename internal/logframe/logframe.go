// Package logframe reads the frame of one session log record: the members
// around its event ({"seq","sessionId","parentSeq","ts","event"}) and the
// checks of its place in a log. The session package reads logs with it, and
// tools that copy logs record by record, such as a migration, check each
// record with [Check] so that they refuse what a reader would refuse.
package logframe

import (
	"bytes"
	"errors"
	"strconv"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
	"github.com/lite-agent/lite-agent-go/internal/msgjson"
	"github.com/lite-agent/lite-agent-go/storage"
)

// ErrNoType is the error of an event that is not an object with a string
// "type".
var ErrNoType = errors.New("event must be an object with a string \"type\"")

// envelopeKey is the member that marks an encoded record.
const envelopeKey = "liteAgentStorage"

// Frame is the parsed frame of one log line.
type Frame struct {
	Seq        int64
	Session    []byte // valid only as long as the line
	Parent     int64  // 0 for null
	Time       time.Time
	HasSeq     bool
	HasSession bool
	HasParent  bool
	HasTime    bool
	HasEvent   bool
	Envelope   bool // a "liteAgentStorage" member: an encoded record

	// Problem describes what is wrong, in our own words ("" if nothing);
	// Kind classifies it.
	Problem string
	Kind    storage.ProblemKind

	// The state of Next.
	started, pastFirst, inEvent bool
	evBefore, evErr             error // r.Err before the event; the event's error
}

// Member reads the value of the frame member key, for every member but
// "event", which the caller reads. Unknown members are skipped.
func (f *Frame) Member(r *msgjson.Reader, key []byte) {
	switch string(key) {
	case "seq":
		f.HasSeq = false
		c := r.Peek()
		if c != '-' && (c < '0' || c > '9') {
			r.FailShape(errors.New("seq is not an integer"))
			return
		}
		n, ok := r.Integer()
		if !ok {
			r.Fail(errors.New("seq is not an integer"))
		}
		f.Seq, f.HasSeq = n, true
	case "sessionId":
		if r.Peek() != '"' {
			r.FailShape(errors.New("sessionId is not a string"))
			return
		}
		val, plain := r.ScanString(true)
		if !plain {
			val = append([]byte(nil), val...) // rare; r.Scratch would not outlive the next key
		}
		f.Session, f.HasSession = val, true
	case "parentSeq":
		f.Parent, f.HasParent = 0, true
		if r.IsNull() {
			return
		}
		c := r.Peek()
		if c != '-' && (c < '0' || c > '9') {
			r.FailShape(errors.New("parentSeq is not an integer or null"))
			return
		}
		n, ok := r.Integer()
		if !ok || n == 0 {
			r.Fail(errors.New("parentSeq is not an integer or null"))
		}
		f.Parent = n
	case "ts":
		if r.Peek() != '"' {
			r.FailShape(errors.New("ts is not a string"))
			return
		}
		t, ok := jsonstr.ParseTime(r.StrBytes())
		if !ok {
			r.Fail(errors.New("ts is not an ISO 8601 time"))
		}
		f.Time, f.HasTime = t, true
	case envelopeKey:
		f.Envelope = true
		r.Skip()
	default:
		r.Skip()
	}
}

// Fail records err, a problem found while reading (r.Err if nil); inEvent
// says it was found inside the event. A shape error (valid JSON of the
// wrong form) is told apart from a syntax error by checking the whole line,
// since parsing stops at the first error.
func (f *Frame) Fail(r *msgjson.Reader, err error, inEvent bool) {
	if err == nil {
		err = r.Err
	}
	if err == msgjson.ErrSyntax || !msgjson.Valid(r.Buf) {
		f.Problem, f.Kind = "not valid JSON", storage.ProblemSyntax
		return
	}
	switch {
	case err == ErrNoType:
		f.Problem, f.Kind = "event has no string type", storage.ProblemFrame
	case inEvent:
		f.Problem, f.Kind = "invalid event: "+err.Error(), storage.ProblemEvent
	default:
		f.Problem, f.Kind = err.Error(), storage.ProblemFrame
	}
}

// Check verifies the record's place in the log of sessionID at position
// pos (1-based), after a successful parse.
func (f *Frame) Check(sessionID string, pos int64) {
	switch {
	case f.Problem != "":
	case !f.HasSeq || f.Seq != pos:
		f.Problem, f.Kind = "seq is not "+strconv.FormatInt(pos, 10), storage.ProblemFrame
	case !f.HasSession || string(f.Session) != sessionID:
		f.Problem, f.Kind = "sessionId does not match", storage.ProblemFrame
	case !f.HasParent || f.Parent != pos-1:
		f.Problem, f.Kind = "parentSeq does not precede seq", storage.ProblemFrame
	case !f.HasTime:
		f.Problem, f.Kind = "ts is missing", storage.ProblemFrame
	case !f.HasEvent:
		f.Problem, f.Kind = "event is missing", storage.ProblemFrame
	}
}

// EnvelopeIn reports whether line, parsed into f, is an encoded envelope,
// torn or not: in a plaintext log it is refused as a codec would refuse it
// (see [CodecRequired]), never read as a corrupt record.
func (f *Frame) EnvelopeIn(line []byte) bool {
	return f.Envelope || f.Problem != "" && bytes.Contains(line, []byte(`"`+envelopeKey+`"`))
}

// Corrupt returns the error of record seq of the log file, whose frame or
// event is wrong for reason: "Corrupt checkpoint record <seq>: <reason>",
// the TypeScript SDK's message plus a reason in our own words.
func Corrupt(file string, seq int64, reason string) *storage.Error {
	rec := strconv.FormatInt(seq, 10)
	return &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: file, Record: rec,
		Message: "Corrupt checkpoint record " + rec + ": " + reason}
}

// CodecRequired returns the error of record seq of the plaintext log file,
// the encoded envelope line: the refusal of storage.Encoding.Decode.
func CodecRequired(file string, seq int64, line []byte) *storage.Error {
	return &storage.Error{Op: "decode", Kind: storage.KindCheckpoint, File: file, Record: strconv.FormatInt(seq, 10),
		Message: "Encoded storage requires its configured codec", Found: storage.StoredCodec(line)}
}

// Check reports whether line, the plaintext of one log record, is record
// seq of the log of session sessionID, checked as the session reader checks
// every record of a log: a JSON object whose seq is seq, whose sessionId is
// sessionID, whose parentSeq is seq-1 (null for the first), with an ISO 8601
// ts and an event object with a string type. The event's other members are
// not decoded. encoded says whether the log is encoded (line is then a
// record's decoded plaintext); a line of a plaintext log that is an encoded
// envelope is refused as the reader refuses it. A problem yields a
// *storage.Error whose message is the reader's ([Corrupt] or
// [CodecRequired]); a valid record costs no allocation. A record exactly as
// the session store writes it is checked in one pass over its frame; any
// other line gets the reader's full parse, which gives the same verdict.
func Check(line []byte, sessionID string, seq int64, encoded bool) error {
	if wellFormed(line, sessionID, seq) {
		return nil
	}
	return check(line, sessionID, seq, encoded)
}

// check is Check's full check, for any line.
func check(line []byte, sessionID string, seq int64, encoded bool) error {
	var f Frame
	r := msgjson.Reader{Buf: line}
	for f.Next(&r) {
		msgjson.SkimType(&r, ErrNoType)
	}
	if !encoded && f.EnvelopeIn(line) {
		return CodecRequired("", seq, line)
	}
	f.Check(sessionID, seq)
	if f.Problem != "" {
		return Corrupt("", seq, f.Problem)
	}
	return nil
}

// Next reads the members of the line in r up to the next "event" member
// and reports whether it found one; the caller then reads the event's value
// with r and calls Next again, until Next returns false at the end of the
// line or at its first problem:
//
//	for f.Next(r) {
//		readEvent(r)
//	}
//
// An error the event's reader leaves in r.Err, other than a syntax error
// or [ErrNoType], is a problem of the event.
func (f *Frame) Next(r *msgjson.Reader) bool {
	switch {
	case !f.started:
		f.started = true
		if r.Peek() != '{' {
			r.Skip()
			f.Fail(r, errors.New("not an object"), false)
			return false
		}
		r.BeginObject()
	case f.inEvent:
		f.inEvent = false
		if f.evBefore == nil && r.Err != nil && r.Err != msgjson.ErrSyntax && r.Err != ErrNoType {
			f.evErr = r.Err
		}
	}
	for {
		key, ok := r.NextKey(!f.pastFirst)
		f.pastFirst = true
		if !ok {
			break
		}
		if string(key) == "event" {
			f.HasEvent, f.inEvent, f.evBefore = true, true, r.Err
			return true
		}
		f.Member(r, key)
	}
	if r.Err == nil {
		r.End()
	}
	if r.Err != nil {
		f.Fail(r, r.Err, f.evErr != nil && r.Err == f.evErr)
	}
	return false
}

// The frame members in the order the session store writes them, with
// nothing between them: the prefix wellFormed recognises.
const (
	headSeq     = `{"seq":`
	headSession = `,"sessionId":"`
	headParent  = `","parentSeq":`
	headTime    = `,"ts":"`
	headEvent   = `","event":`
)

// wellFormed is Check's single pass for a record exactly as the session
// store writes it: {"seq":N,"sessionId":"ID","parentSeq":N|null,"ts":"T",
// "event":{...}} with no white space between the frame's members, a
// session id of ASCII with nothing to escape, T in [jsonstr.TimeLayout],
// and nothing after the event. It reports true only for a line that the
// full check accepts (seq is seq, the session id is sessionID, parentSeq
// precedes seq, ts is a time, the event is a valid object with a string
// type, and no member can be an envelope's); false means only that the
// line needs the full check, which gives the verdict and the reason. The
// event is read by msgjson.SkipTyped, which accepts only what the full
// check's reader accepts.
func wellFormed(line []byte, sessionID string, seq int64) bool {
	// The constant parts are compared as constants, so that the compiler
	// turns each comparison into a few word loads.
	b := line
	if len(b) < len(headSeq) || string(b[:len(headSeq)]) != headSeq {
		return false
	}
	b, ok := cutInt(b[len(headSeq):], seq)
	if !ok || len(b) < len(headSession) || string(b[:len(headSession)]) != headSession {
		return false
	}
	b = b[len(headSession):]
	// The session id ends at the first byte that ends a JSON string's run;
	// it must be the closing quote, after ASCII that reads as itself.
	end, ascii := jsonstr.StringRun(b, 0)
	if end != len(sessionID) || !ascii || string(b[:end]) != sessionID {
		return false
	}
	b = b[end:]
	if len(b) < len(headParent) || string(b[:len(headParent)]) != headParent {
		return false
	}
	b = b[len(headParent):]
	if seq == 1 {
		if len(b) < len("null,") || string(b[:len("null,")]) != "null," {
			return false
		}
		b = b[len("null"):]
	} else if b, ok = cutInt(b, seq-1); !ok {
		return false
	}
	if len(b) < len(headTime) || string(b[:len(headTime)]) != headTime {
		return false
	}
	b = b[len(headTime):]
	// The time, in exactly the layout the store writes (digits and
	// separators: nothing to escape).
	if len(b) < len(jsonstr.TimeLayout) {
		return false
	}
	if !jsonstr.IsLayoutTime(b[:len(jsonstr.TimeLayout)]) {
		return false
	}
	b = b[len(jsonstr.TimeLayout):]
	if len(b) < len(headEvent) || string(b[:len(headEvent)]) != headEvent {
		return false
	}
	// The event, inside the record's object, so at depth 1.
	end, ok = msgjson.SkipTyped(line, len(line)-len(b)+len(headEvent), 1)
	return ok && end == len(line)-1 && line[end] == '}'
}

// cutInt returns b after the decimal digits of n, a positive integer, if
// b starts with exactly those digits (no sign, no leading zero, no
// fraction or exponent: a number the full check reads as n) and the next
// byte is the ',' that ends the number.
func cutInt(b []byte, n int64) ([]byte, bool) {
	if n <= 0 || n >= 1e15 || len(b) == 0 || b[0] == '0' {
		return b, false
	}
	var v int64
	i := 0
	for ; i < len(b) && i < 16; i++ {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		v = v*10 + int64(d)
	}
	if v != n || i >= len(b) || b[i] != ',' {
		return b, false
	}
	return b[i:], true
}
