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
// "event":{...}} with no white space between the frame's members and
// nothing after the event. It reports true only for a line that the full
// check accepts (seq is seq, the session id is sessionID, parentSeq
// precedes seq, ts is a time, the event is a valid object with a string
// type, and no member can be an envelope's); false means only that the
// line needs the full check, which gives the verdict and the reason. The
// event is read by the full check's own reader, so it is judged alike.
func wellFormed(line []byte, sessionID string, seq int64) bool {
	b, ok := cutPrefix(line, headSeq)
	if !ok {
		return false
	}
	if b, ok = cutInt(b, seq); !ok {
		return false
	}
	if b, ok = cutPrefix(b, headSession); !ok || !plainString(sessionID) {
		return false
	}
	if b, ok = cutPrefix(b, sessionID); !ok {
		return false
	}
	if b, ok = cutPrefix(b, headParent); !ok {
		return false
	}
	if seq == 1 {
		b, ok = cutPrefix(b, "null")
	} else {
		b, ok = cutInt(b, seq-1)
	}
	if !ok {
		return false
	}
	if b, ok = cutPrefix(b, headTime); !ok {
		return false
	}
	end := bytes.IndexByte(b, '"')
	if end < 0 || !plainBytes(b[:end]) {
		return false
	}
	if _, ok := jsonstr.ParseTime(b[:end]); !ok {
		return false
	}
	if b, ok = cutPrefix(b[end:], headEvent); !ok {
		return false
	}
	// The event, read as the full check reads it: inside the record's
	// object, so at depth 1.
	r := msgjson.Reader{Buf: line, Pos: len(line) - len(b), Depth: 1}
	msgjson.SkimType(&r, ErrNoType)
	return r.Err == nil && r.Pos == len(line)-1 && line[r.Pos] == '}'
}

// cutPrefix returns b after prefix, if b starts with it.
func cutPrefix(b []byte, prefix string) ([]byte, bool) {
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		return b, false
	}
	return b[len(prefix):], true
}

// cutInt returns b after the decimal digits of n, a positive integer, if
// b starts with exactly those digits (no sign, no leading zero, no
// fraction or exponent: a number the full check reads as n) and the next
// byte ends the number.
func cutInt(b []byte, n int64) ([]byte, bool) {
	if n <= 0 || n >= 1e15 {
		return b, false
	}
	var digits [15]byte
	i := len(digits)
	for ; n > 0; n /= 10 {
		i--
		digits[i] = byte('0' + n%10)
	}
	rest, ok := cutPrefix(b, string(digits[i:]))
	if !ok || len(rest) == 0 || rest[0] != ',' {
		return b, false
	}
	return rest, true
}

// plainString reports whether s holds only printable ASCII other than '"'
// and '\\': a JSON string whose bytes are its value.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// plainBytes is plainString for a byte slice.
func plainBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
