package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/lite-agent/lite-agent-go/internal/logframe"
	"github.com/lite-agent/lite-agent-go/internal/msgjson"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
	"github.com/lite-agent/lite-agent-go/model"
)

// This file holds the JSON codec of the event types: appenders that write
// each type's members in their documented order (strings escaped as
// JSON.stringify escapes them, nothing else), and readers built on reader.

var (
	errNoType    = logframe.ErrNoType
	errNoMessage = errors.New("message event has no message")
)

// appendRaw appends raw JSON compacted (so it holds no line break), or def
// when raw is nil.
func appendRaw(b []byte, raw json.RawMessage, def, what string) ([]byte, error) {
	if raw == nil {
		return append(b, def...), nil
	}
	buf := bytes.NewBuffer(slices.Grow(b, len(raw))) // compacting never lengthens
	if err := json.Compact(buf, raw); err != nil {
		return nil, fmt.Errorf("session: %s is not valid JSON", what)
	}
	return buf.Bytes(), nil
}

func appendKey(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func appendInt(b []byte, key string, n int64) []byte {
	return strconv.AppendInt(appendKey(b, key), n, 10)
}

func appendStr(b []byte, key, s string) []byte {
	return jsonstr.Append(appendKey(b, key), s)
}

func (e UserEvent) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"user","message":`...)
	b, err := e.Message.AppendJSON(b)
	if err != nil {
		return nil, fmt.Errorf("session: user event: %w", err)
	}
	if e.Origin != "" {
		b = appendStr(b, "origin", string(e.Origin))
	}
	if e.Checkpoint != nil {
		b = strconv.AppendBool(appendKey(b, "checkpoint"), *e.Checkpoint)
	}
	return append(b, '}'), nil
}

func (e AssistantEvent) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"assistant","message":`...)
	b, err := e.Message.AppendJSON(b)
	if err != nil {
		return nil, fmt.Errorf("session: assistant event: %w", err)
	}
	if e.Usage != (model.Usage{}) {
		b = appendUsage(append(b, `,"usage":`...), e.Usage)
	}
	if e.InputEstimate != 0 {
		b = appendInt(b, "inputEstimate", int64(e.InputEstimate))
	}
	if e.Model != "" {
		b = appendStr(b, "model", e.Model)
	}
	return append(b, '}'), nil
}

// appendUsage appends u as the object of an assistant event's usage:
// inputTokens and outputTokens, cacheReadTokens and cacheCreationTokens
// when not 0.
func appendUsage(b []byte, u model.Usage) []byte {
	b = strconv.AppendInt(append(b, `{"inputTokens":`...), u.InputTokens, 10)
	b = appendInt(b, "outputTokens", u.OutputTokens)
	if u.CacheReadTokens != 0 {
		b = appendInt(b, "cacheReadTokens", u.CacheReadTokens)
	}
	if u.CacheCreationTokens != 0 {
		b = appendInt(b, "cacheCreationTokens", u.CacheCreationTokens)
	}
	return append(b, '}')
}

func (e ToolStartedEvent) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"tool_started","id":`...)
	b = jsonstr.Append(b, e.ID)
	b = appendStr(b, "name", e.Name)
	b = appendInt(b, "turn", int64(e.Turn))
	return append(b, '}'), nil
}

func (e ToolResultEvent) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"tool_result","result":`...)
	b, err := e.Result.AppendJSON(b)
	if err != nil {
		return nil, fmt.Errorf("session: tool_result event: %w", err)
	}
	b = appendInt(b, "turn", int64(e.Turn))
	return append(b, '}'), nil
}

func (e FileSnapshotEvent) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"file_snapshot","path":`...)
	b = jsonstr.Append(b, e.Path)
	b = appendKey(b, "before")
	if e.Before == nil {
		b = append(b, "null"...)
	} else {
		b = jsonstr.Append(b, *e.Before)
	}
	if e.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	if e.Encoding != "" {
		b = appendStr(b, "encoding", e.Encoding)
	}
	switch {
	case e.Deleted:
		b = append(b, `,"after":null`...)
	case e.After != "":
		b = appendStr(b, "after", e.After)
	}
	b = appendInt(b, "turn", int64(e.Turn))
	return append(b, '}'), nil
}

func (e ArtifactVerifiedEvent) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"artifact_verified","path":`...)
	b = jsonstr.Append(b, e.Path)
	if e.Revision != "" {
		b = appendStr(b, "revision", e.Revision)
	}
	b = appendStr(b, "command", e.Command)
	b, err := appendRaw(appendKey(b, "result"), e.Result, "null", "artifact_verified result")
	if err != nil {
		return nil, err
	}
	b = appendInt(b, "turn", int64(e.Turn))
	return append(b, '}'), nil
}

func (e PermissionDecisionEvent) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"permission_decision","call":{"id":`...)
	b = jsonstr.Append(b, e.Call.ID)
	b = appendStr(b, "name", e.Call.Name)
	b, err := appendRaw(appendKey(b, "input"), e.Call.Input, "{}", "permission_decision input")
	if err != nil {
		return nil, err
	}
	b = append(b, '}')
	b = appendStr(b, "decision", e.Decision)
	if e.RuleID != "" {
		b = appendStr(b, "ruleId", e.RuleID)
	}
	if e.Reason != "" {
		b = appendStr(b, "reason", e.Reason)
	}
	if e.Simulated {
		b = append(b, `,"simulated":true`...)
	}
	b = appendStr(b, "by", e.By)
	b = appendInt(b, "turn", int64(e.Turn))
	return append(b, '}'), nil
}

func (e SummaryEvent) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"summary","messages":[`...)
	for i, m := range e.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = m.AppendJSON(b); err != nil {
			return nil, fmt.Errorf("session: summary message %d: %w", i, err)
		}
	}
	b = append(b, ']')
	b = appendInt(b, "throughSeq", e.ThroughSeq)
	b = appendInt(b, "before", int64(e.Before))
	b = appendInt(b, "after", int64(e.After))
	return append(b, '}'), nil
}

func (e ContextViewEvent) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"context_view"`...)
	b = appendInt(b, "throughSeq", e.ThroughSeq)
	b, err := appendRaw(appendKey(b, "view"), e.View, "null", "context_view view")
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func (e RawEvent) appendJSON(b []byte) ([]byte, error) {
	r := newReader(e.JSON)
	typ, ok := skimEvent(r)
	if r.End() != nil || !ok {
		return nil, fmt.Errorf("session: raw event of type %q: %w", e.Type, errNoType)
	}
	if typ != e.Type {
		return nil, fmt.Errorf("session: raw event of type %q holds type %q", e.Type, typ)
	}
	return appendRaw(b, e.JSON, "", "raw event")
}

// typeMember reads a "type" member and reports whether it differs from typ.
func typeMember(r *reader, typ string) (differs bool) {
	if r.Peek() != '"' {
		r.FailShape(errNoType)
		return true
	}
	return string(r.StrBytes()) != typ
}

// skimEvent validates one event object without keeping anything and
// returns its type.
func skimEvent(r *reader) (string, bool) {
	typ, ok := msgjson.SkimType(&r.Reader, errNoType)
	return string(typ), ok
}

// skimEventNoAlloc is skimEvent for records a read does not return: it only
// checks that the event is an object with a string type.
func skimEventNoAlloc(r *msgjson.Reader) { msgjson.SkimType(r, errNoType) }

// readEvent decodes one event object.
func readEvent(r *reader) Event {
	if r.Peek() != '{' {
		r.FailShape(errNoType)
		return nil
	}
	start, depth := r.Pos, r.Depth
	r.BeginObject()
	// Writers put "type" first, so normally one pass suffices. If not, or
	// if anything went wrong but the syntax (a later "type" member may
	// differ), find the last type and read again.
	if key, ok := r.NextKey(true); ok && string(key) == "type" && r.Peek() == '"' {
		typ := knownType(r.StrBytes())
		ev, conflict := readTyped(r, typ, false, start)
		if r.Err == nil && !conflict || r.Err == msgjson.ErrSyntax {
			return ev
		}
		r.Err = nil // a shape error may be moot if a later "type" differs
	} else if r.Err != nil {
		return nil
	}
	r.Pos, r.Depth = start, depth
	typ, ok := msgjson.SkimType(&r.Reader, errNoType)
	if !ok {
		return nil
	}
	r.Pos, r.Depth = start, depth
	r.BeginObject()
	ev, _ := readTyped(r, knownType(typ), true, start)
	return ev
}

// eventTypes are the event types readTyped knows.
var eventTypes = [...]string{"user", "assistant", "tool_started", "tool_result", "file_snapshot",
	"artifact_verified", "permission_decision", "summary", "context_view"}

// knownType returns typ as a string, without allocating for known types.
func knownType(typ []byte) string {
	for _, k := range eventTypes {
		if string(typ) == k {
			return k
		}
	}
	return string(typ)
}

// readTyped reads the remaining members of an event object of type typ
// whose '{' (and, unless first, some members) were consumed; start is the
// offset of the '{'. conflict reports a later "type" member that differs.
func readTyped(r *reader, typ string, first bool, start int) (ev Event, conflict bool) {
	// next returns the next member's key, handling "type" members itself.
	next := func() ([]byte, bool) {
		for {
			key, ok := r.NextKey(first)
			first = false
			if !ok || string(key) != "type" {
				return key, ok
			}
			conflict = typeMember(r, typ) || conflict
		}
	}
	switch typ {
	case "user":
		var e UserEvent
		hasMsg := false
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "message":
				e.Message, hasMsg = readMessage(r), true
			case "origin":
				e.Origin = Origin(r.StrField("user event", "origin"))
			case "checkpoint":
				e.Checkpoint = nil
				if !r.IsNull() {
					v := r.BoolField("user event", "checkpoint")
					e.Checkpoint = &v
				}
			default:
				r.SkipUnknown()
			}
		}
		if !hasMsg {
			r.Fail(errNoMessage)
		}
		return e, conflict
	case "assistant":
		var e AssistantEvent
		hasMsg := false
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "message":
				e.Message, hasMsg = readMessage(r), true
			case "usage":
				r.SkipSpace()
				start := r.Pos
				e.Usage = readUsage(r)
				// A usage that would not be written back as read (another
				// member order, an omitted or zero count, spaces) keeps
				// the record as stored, as an unknown member does.
				if r.Err == nil && (e.Usage == (model.Usage{}) || !bytes.Equal(appendUsage(nil, e.Usage), r.Buf[start:r.Pos])) {
					r.Lossy = true
				}
			case "inputEstimate":
				n, ok := optCount(r)
				if ok && (n == 0 || n > maxInputEstimate) {
					// Held as 0 (written as none) or as the bound: the
					// record keeps the value as stored.
					n, r.Lossy = min(n, maxInputEstimate), true
				}
				e.InputEstimate = int(n)
			case "model":
				if r.Peek() != '"' {
					r.SkipUnknown() // of another shape: as an unknown member
					continue
				}
				if e.Model = r.StrField("assistant event", "model"); e.Model == "" {
					r.Lossy = true // written back as none
				}
			default:
				r.SkipUnknown()
			}
		}
		if !hasMsg {
			r.Fail(errNoMessage)
		}
		return e, conflict
	case "tool_started":
		var e ToolStartedEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "id":
				e.ID = r.StrField("tool_started event", "id")
			case "name":
				e.Name = r.StrField("tool_started event", "name")
			case "turn":
				e.Turn = int(r.IntField("tool_started event", "turn"))
			default:
				r.SkipUnknown()
			}
		}
		return e, conflict
	case "tool_result":
		var e ToolResultEvent
		hasResult := false
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "result":
				e.Result, hasResult = readBlock(r), true
			case "turn":
				e.Turn = int(r.IntField("tool_result event", "turn"))
			default:
				r.SkipUnknown()
			}
		}
		if !hasResult {
			r.Fail(errors.New("tool_result event has no result"))
		}
		return e, conflict
	case "file_snapshot":
		var e FileSnapshotEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "path":
				e.Path = r.StrField("file_snapshot event", "path")
			case "before":
				e.Before = nil
				if !r.IsNull() {
					v := r.StrField("file_snapshot event", "before")
					e.Before = &v
				}
			case "truncated":
				e.Truncated = r.BoolField("file_snapshot event", "truncated")
			case "encoding":
				e.Encoding = r.StrField("file_snapshot event", "encoding")
			case "after":
				e.After, e.Deleted = "", r.IsNull()
				if !e.Deleted {
					e.After = r.StrField("file_snapshot event", "after")
				}
			case "turn":
				e.Turn = int(r.IntField("file_snapshot event", "turn"))
			default:
				r.SkipUnknown()
			}
		}
		return e, conflict
	case "artifact_verified":
		var e ArtifactVerifiedEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "path":
				e.Path = r.StrField("artifact_verified event", "path")
			case "revision":
				// The log format leaves its type to the host: a number
				// reads as its JSON text, so that such a log stays
				// readable.
				if c := r.Peek(); c == '-' || '0' <= c && c <= '9' {
					e.Revision = string(r.Number())
				} else {
					e.Revision = r.StrField("artifact_verified event", "revision")
				}
			case "command":
				e.Command = r.StrField("artifact_verified event", "command")
			case "result":
				e.Result = r.Raw()
			case "turn":
				e.Turn = int(r.IntField("artifact_verified event", "turn"))
			default:
				r.SkipUnknown()
			}
		}
		return e, conflict
	case "permission_decision":
		var e PermissionDecisionEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "call":
				e.Call = readCall(r)
			case "decision":
				e.Decision = r.StrField("permission_decision event", "decision")
			case "ruleId":
				e.RuleID = r.StrField("permission_decision event", "ruleId")
			case "reason":
				e.Reason = r.StrField("permission_decision event", "reason")
			case "simulated":
				e.Simulated = r.BoolField("permission_decision event", "simulated")
			case "by":
				e.By = r.StrField("permission_decision event", "by")
			case "turn":
				e.Turn = int(r.IntField("permission_decision event", "turn"))
			default:
				r.SkipUnknown()
			}
		}
		return e, conflict
	case "summary":
		var e SummaryEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "messages":
				e.Messages = nil
				if r.IsNull() {
					break
				}
				if r.Peek() != '[' {
					r.FailShape(msgjson.FieldError{In: "summary event", Field: "messages", Want: "an array"})
					break
				}
				r.BeginArray()
				e.Messages = []model.Message{}
				for first := true; r.NextElem(first); first = false {
					e.Messages = append(e.Messages, readMessage(r))
				}
			case "throughSeq":
				e.ThroughSeq = r.IntField("summary event", "throughSeq")
			case "before":
				e.Before = int(r.IntField("summary event", "before"))
			case "after":
				e.After = int(r.IntField("summary event", "after"))
			default:
				r.SkipUnknown()
			}
		}
		return e, conflict
	case "context_view":
		var e ContextViewEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "throughSeq":
				e.ThroughSeq = r.IntField("context_view event", "throughSeq")
			case "view":
				e.View = r.Raw()
			default:
				r.SkipUnknown()
			}
		}
		return e, conflict
	}
	for _, ok := next(); ok; _, ok = next() {
		r.Skip()
	}
	if r.Err != nil {
		return nil, conflict
	}
	return RawEvent{Type: typ, JSON: append(json.RawMessage(nil), r.Buf[start:r.Pos]...)}, conflict
}

// readCall reads the "call" member of a permission decision.
func readCall(r *reader) PermissionCall {
	var c PermissionCall
	if r.IsNull() {
		return c
	}
	if r.Peek() != '{' {
		r.FailShape(msgjson.FieldError{In: "permission_decision event", Field: "call", Want: "an object"})
		return c
	}
	r.BeginObject()
	for first := true; ; first = false {
		key, ok := r.NextKey(first)
		if !ok {
			return c
		}
		switch string(key) {
		case "id":
			c.ID = r.StrField("permission_decision call", "id")
		case "name":
			c.Name = r.StrField("permission_decision call", "name")
		case "input":
			c.Input = r.Raw()
		default:
			r.SkipUnknown()
		}
	}
}

// readUsage reads the usage of an assistant event: the zero Usage when it
// is null or of another shape (not an object, a count that is not a
// non-negative integer), skipped as an unknown member is, so that a usage
// another writer gives another shape leaves the record readable.
func readUsage(r *reader) model.Usage {
	if r.Peek() != '{' {
		r.SkipUnknown()
		return model.Usage{}
	}
	var u model.Usage
	good := true
	r.BeginObject()
	for first := true; ; first = false {
		key, ok := r.NextKey(first)
		if !ok {
			break
		}
		var dst *int64
		switch string(key) {
		case "inputTokens":
			dst = &u.InputTokens
		case "outputTokens":
			dst = &u.OutputTokens
		case "cacheReadTokens":
			dst = &u.CacheReadTokens
		case "cacheCreationTokens":
			dst = &u.CacheCreationTokens
		default:
			r.SkipUnknown()
			continue
		}
		n, ok := optCount(r)
		*dst, good = n, good && ok
	}
	if !good {
		return model.Usage{}
	}
	return u
}

// optCount reads an optional count: a non-negative integer. Any other
// value is skipped as an unknown member is (ok false); a syntax error
// fails r.
func optCount(r *reader) (n int64, ok bool) {
	if c := r.Peek(); c < '0' || c > '9' {
		r.SkipUnknown()
		return 0, false
	}
	n, ok = r.Integer()
	if !ok {
		r.Lossy = true
	}
	return n, ok
}

// readMessage reads a model.Message by the rules of its UnmarshalJSON.
func readMessage(r *reader) model.Message {
	return msgjson.ReadMessage[model.Role, model.BlockType, model.Block, model.Message](&r.Reader)
}

// readBlock reads a model.Block by the rules of its UnmarshalJSON.
func readBlock(r *reader) model.Block {
	return msgjson.ReadBlock[model.BlockType, model.Block](&r.Reader)
}
