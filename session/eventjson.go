package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
	"github.com/lite-agent/lite-agent-go/model"
)

// This file holds the JSON codec of the event types: appenders that write
// each type's members in their documented order (strings escaped as
// JSON.stringify escapes them, nothing else), and readers built on reader.

var (
	errNoType    = errors.New("event must be an object with a string \"type\"")
	errNoMessage = errors.New("message event has no message")
)

// appendRaw appends raw JSON compacted (so it holds no line break), or def
// when raw is nil.
func appendRaw(b []byte, raw json.RawMessage, def, what string) ([]byte, error) {
	if raw == nil {
		return append(b, def...), nil
	}
	buf := bytes.NewBuffer(b)
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
	return append(b, '}'), nil
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
	if r.end() != nil || !ok {
		return nil, fmt.Errorf("session: raw event of type %q: %w", e.Type, errNoType)
	}
	if typ != e.Type {
		return nil, fmt.Errorf("session: raw event of type %q holds type %q", e.Type, typ)
	}
	return appendRaw(b, e.JSON, "", "raw event")
}

// fieldError reports a member with the wrong JSON type. It is a value so
// that passing one costs nothing until it is needed.
type fieldError struct{ in, field, want string }

func (e fieldError) Error() string {
	return fmt.Sprintf("%s %q must be %s", e.in, e.field, e.want)
}

// skipUnknown consumes the value of a member that the value being read
// does not hold, noting that the value read is not the whole input (see
// reader.lossy).
func (r *reader) skipUnknown() {
	r.lossy = true
	r.skip()
}

// failShape records a shape error for the value at the current position,
// after validating that value, so that a syntax error later in it still
// counts as a syntax error.
func (r *reader) failShape(err error) {
	r.skip()
	r.fail(err)
}

// strField reads a string member, or null as "".
func (r *reader) strField(in, field string) string {
	switch r.peek() {
	case '"':
		return r.str()
	case 'n':
		r.literal("null")
		return ""
	}
	r.failShape(fieldError{in, field, "a string"})
	return ""
}

func (r *reader) intField(in, field string) int64 {
	if r.isNull() {
		return 0
	}
	c := r.peek()
	if c != '-' && (c < '0' || c > '9') {
		r.failShape(fieldError{in, field, "an integer"})
		return 0
	}
	n, ok := r.integer()
	if !ok {
		r.fail(fieldError{in, field, "an integer"})
	}
	return n
}

func (r *reader) boolField(in, field string) bool {
	switch r.peek() {
	case 't':
		r.literal("true")
		return true
	case 'f':
		r.literal("false")
	case 'n':
		r.literal("null")
	default:
		r.failShape(fieldError{in, field, "a boolean"})
	}
	return false
}

// typeMember reads a "type" member and reports whether it differs from typ.
func (r *reader) typeMember(typ string) (differs bool) {
	if r.peek() != '"' {
		r.failShape(errNoType)
		return true
	}
	return string(r.strBytes()) != typ
}

// skimType reads an object, validating it, and returns the value of its
// last "type" member; every "type" member must be a string.
func skimType(r *reader, errType error) (typ []byte, ok bool) {
	if r.peek() != '{' {
		r.failShape(errType)
		return nil, false
	}
	r.beginObject()
	var start, end int
	for first := true; ; first = false {
		key, more := r.nextKey(first)
		if !more {
			break
		}
		if string(key) != "type" {
			r.skip()
			continue
		}
		if r.peek() != '"' {
			r.failShape(errType)
			return nil, false
		}
		r.ws()
		start = r.i
		r.scanString(false)
		end = r.i
		ok = true
	}
	if r.err != nil {
		return nil, false
	}
	if !ok {
		r.fail(errType)
		return nil, false
	}
	// Re-read the string body from the input (the scratch buffer may have
	// been reused by a later key).
	sub := reader{b: r.b[start:end]}
	return sub.strBytes(), true
}

// skimEvent validates one event object without keeping anything and
// returns its type.
func skimEvent(r *reader) (string, bool) {
	typ, ok := skimType(r, errNoType)
	return string(typ), ok
}

// skimEventNoAlloc is skimEvent for records a read does not return: it only
// reports whether the event is an object with a string type.
func skimEventNoAlloc(r *reader) bool {
	_, ok := skimType(r, errNoType)
	return ok
}

// readEvent decodes one event object.
func readEvent(r *reader) Event {
	if r.peek() != '{' {
		r.failShape(errNoType)
		return nil
	}
	start, depth := r.i, r.depth
	r.beginObject()
	// Writers put "type" first, so normally one pass suffices. If not, or
	// if anything went wrong but the syntax (a later "type" member may
	// differ), find the last type and read again.
	if key, ok := r.nextKey(true); ok && string(key) == "type" && r.peek() == '"' {
		typ := knownType(r.strBytes())
		ev, conflict := readTyped(r, typ, false, start)
		if r.err == nil && !conflict || r.err == errSyntax {
			return ev
		}
		r.err = nil // a shape error may be moot if a later "type" differs
	} else if r.err != nil {
		return nil
	}
	r.i, r.depth = start, depth
	typ, ok := skimType(r, errNoType)
	if !ok {
		return nil
	}
	r.i, r.depth = start, depth
	r.beginObject()
	ev, _ := readTyped(r, knownType(typ), true, start)
	return ev
}

// knownRole returns role as a Role, without allocating for the usual ones.
func knownRole(role []byte) model.Role {
	switch model.Role(role) {
	case model.RoleUser:
		return model.RoleUser
	case model.RoleAssistant:
		return model.RoleAssistant
	case model.RoleSystem:
		return model.RoleSystem
	case model.RoleTool:
		return model.RoleTool
	}
	return model.Role(role)
}

// knownType returns typ as a string, without allocating for known types.
func knownType(typ []byte) string {
	switch string(typ) {
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	case "tool_started":
		return "tool_started"
	case "tool_result":
		return "tool_result"
	case "file_snapshot":
		return "file_snapshot"
	case "artifact_verified":
		return "artifact_verified"
	case "permission_decision":
		return "permission_decision"
	case "summary":
		return "summary"
	case "context_view":
		return "context_view"
	}
	return string(typ)
}

// readTyped reads the remaining members of an event object of type typ
// whose '{' (and, unless first, some members) were consumed; start is the
// offset of the '{'. conflict reports a later "type" member that differs.
func readTyped(r *reader, typ string, first bool, start int) (ev Event, conflict bool) {
	next := func() ([]byte, bool) {
		key, ok := r.nextKey(first)
		first = false
		return key, ok
	}
	switch typ {
	case "user":
		var e UserEvent
		hasMsg := false
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "type":
				conflict = r.typeMember(typ) || conflict
			case "message":
				e.Message, hasMsg = readMessage(r), true
			case "origin":
				e.Origin = Origin(r.strField("user event", "origin"))
			case "checkpoint":
				e.Checkpoint = nil
				if !r.isNull() {
					v := r.boolField("user event", "checkpoint")
					e.Checkpoint = &v
				}
			default:
				r.skipUnknown()
			}
		}
		if !hasMsg {
			r.fail(errNoMessage)
		}
		return e, conflict
	case "assistant":
		var e AssistantEvent
		hasMsg := false
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "type":
				conflict = r.typeMember(typ) || conflict
			case "message":
				e.Message, hasMsg = readMessage(r), true
			default:
				r.skipUnknown()
			}
		}
		if !hasMsg {
			r.fail(errNoMessage)
		}
		return e, conflict
	case "tool_started":
		var e ToolStartedEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "type":
				conflict = r.typeMember(typ) || conflict
			case "id":
				e.ID = r.strField("tool_started event", "id")
			case "name":
				e.Name = r.strField("tool_started event", "name")
			case "turn":
				e.Turn = int(r.intField("tool_started event", "turn"))
			default:
				r.skipUnknown()
			}
		}
		return e, conflict
	case "tool_result":
		var e ToolResultEvent
		hasResult := false
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "type":
				conflict = r.typeMember(typ) || conflict
			case "result":
				e.Result, hasResult = readBlock(r), true
			case "turn":
				e.Turn = int(r.intField("tool_result event", "turn"))
			default:
				r.skipUnknown()
			}
		}
		if !hasResult {
			r.fail(errors.New("tool_result event has no result"))
		}
		return e, conflict
	case "file_snapshot":
		var e FileSnapshotEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "type":
				conflict = r.typeMember(typ) || conflict
			case "path":
				e.Path = r.strField("file_snapshot event", "path")
			case "before":
				e.Before = nil
				if !r.isNull() {
					v := r.strField("file_snapshot event", "before")
					e.Before = &v
				}
			case "truncated":
				e.Truncated = r.boolField("file_snapshot event", "truncated")
			case "encoding":
				e.Encoding = r.strField("file_snapshot event", "encoding")
			case "after":
				e.After, e.Deleted = "", r.isNull()
				if !e.Deleted {
					e.After = r.strField("file_snapshot event", "after")
				}
			case "turn":
				e.Turn = int(r.intField("file_snapshot event", "turn"))
			default:
				r.skipUnknown()
			}
		}
		return e, conflict
	case "artifact_verified":
		var e ArtifactVerifiedEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "type":
				conflict = r.typeMember(typ) || conflict
			case "path":
				e.Path = r.strField("artifact_verified event", "path")
			case "revision":
				// The log format leaves its type to the host: a number
				// reads as its JSON text, so that such a log stays
				// readable.
				if c := r.peek(); c == '-' || '0' <= c && c <= '9' {
					e.Revision = string(r.number())
				} else {
					e.Revision = r.strField("artifact_verified event", "revision")
				}
			case "command":
				e.Command = r.strField("artifact_verified event", "command")
			case "result":
				e.Result = r.raw()
			case "turn":
				e.Turn = int(r.intField("artifact_verified event", "turn"))
			default:
				r.skipUnknown()
			}
		}
		return e, conflict
	case "permission_decision":
		var e PermissionDecisionEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "type":
				conflict = r.typeMember(typ) || conflict
			case "call":
				e.Call = readCall(r)
			case "decision":
				e.Decision = r.strField("permission_decision event", "decision")
			case "ruleId":
				e.RuleID = r.strField("permission_decision event", "ruleId")
			case "reason":
				e.Reason = r.strField("permission_decision event", "reason")
			case "simulated":
				e.Simulated = r.boolField("permission_decision event", "simulated")
			case "by":
				e.By = r.strField("permission_decision event", "by")
			case "turn":
				e.Turn = int(r.intField("permission_decision event", "turn"))
			default:
				r.skipUnknown()
			}
		}
		return e, conflict
	case "summary":
		var e SummaryEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "type":
				conflict = r.typeMember(typ) || conflict
			case "messages":
				e.Messages = nil
				if r.isNull() {
					break
				}
				if r.peek() != '[' {
					r.failShape(fieldError{"summary event", "messages", "an array"})
					break
				}
				r.beginArray()
				e.Messages = []model.Message{}
				for first := true; r.nextElem(first); first = false {
					e.Messages = append(e.Messages, readMessage(r))
				}
			case "throughSeq":
				e.ThroughSeq = r.intField("summary event", "throughSeq")
			case "before":
				e.Before = int(r.intField("summary event", "before"))
			case "after":
				e.After = int(r.intField("summary event", "after"))
			default:
				r.skipUnknown()
			}
		}
		return e, conflict
	case "context_view":
		var e ContextViewEvent
		for key, ok := next(); ok; key, ok = next() {
			switch string(key) {
			case "type":
				conflict = r.typeMember(typ) || conflict
			case "throughSeq":
				e.ThroughSeq = r.intField("context_view event", "throughSeq")
			case "view":
				e.View = r.raw()
			default:
				r.skipUnknown()
			}
		}
		return e, conflict
	}
	for key, ok := next(); ok; key, ok = next() {
		if string(key) == "type" {
			conflict = r.typeMember(typ) || conflict
		} else {
			r.skip()
		}
	}
	if r.err != nil {
		return nil, conflict
	}
	return RawEvent{Type: typ, JSON: append(json.RawMessage(nil), r.b[start:r.i]...)}, conflict
}

// readCall reads the "call" member of a permission decision.
func readCall(r *reader) PermissionCall {
	var c PermissionCall
	if r.isNull() {
		return c
	}
	if r.peek() != '{' {
		r.failShape(fieldError{"permission_decision event", "call", "an object"})
		return c
	}
	r.beginObject()
	for first := true; ; first = false {
		key, ok := r.nextKey(first)
		if !ok {
			return c
		}
		switch string(key) {
		case "id":
			c.ID = r.strField("permission_decision call", "id")
		case "name":
			c.Name = r.strField("permission_decision call", "name")
		case "input":
			c.Input = r.raw()
		default:
			r.skipUnknown()
		}
	}
}

var (
	errMessage     = errors.New("message must be a JSON object")
	errRole        = errors.New("message role must be a string")
	errContent     = errors.New("message content must be a string or an array")
	errBlockType   = errors.New("block type must be a string")
	errBlockObject = errors.New("block must be a JSON object")
)

// readMessage reads a model.Message with the rules of its UnmarshalJSON.
func readMessage(r *reader) model.Message {
	var m model.Message
	if r.peek() != '{' {
		r.failShape(errMessage)
		return m
	}
	r.beginObject()
	hasRole, hasContent := false, false
	for first := true; ; first = false {
		key, ok := r.nextKey(first)
		if !ok {
			break
		}
		switch string(key) {
		case "role":
			if r.peek() != '"' {
				r.failShape(errRole)
				return m
			}
			m.Role, hasRole = knownRole(r.strBytes()), true
		case "content":
			m.Text, m.Blocks, hasContent = "", nil, true
			switch r.peek() {
			case '"':
				m.Text = r.str()
			case '[':
				r.beginArray()
				m.Blocks = []model.Block{}
				for first := true; r.nextElem(first); first = false {
					m.Blocks = append(m.Blocks, readBlock(r))
				}
			default:
				r.failShape(errContent)
			}
		default:
			r.skipUnknown()
		}
	}
	if r.err == nil && !hasRole {
		r.fail(errRole)
	}
	if r.err == nil && !hasContent {
		r.fail(errContent)
	}
	return m
}

// readBlock reads a model.Block with the rules of its UnmarshalJSON.
func readBlock(r *reader) model.Block {
	if r.peek() != '{' {
		r.failShape(errBlockObject)
		return model.Block{}
	}
	start, depth := r.i, r.depth
	r.beginObject()
	if key, ok := r.nextKey(true); ok && string(key) == "type" && r.peek() == '"' {
		typ := blockType(r.strBytes())
		b, conflict := readBlockTyped(r, typ, false, start)
		if r.err == nil && !conflict || r.err == errSyntax {
			return b
		}
		r.err = nil // a shape error may be moot if a later "type" differs
	} else if r.err != nil {
		return model.Block{}
	}
	r.i, r.depth = start, depth
	typ, ok := skimType(r, errBlockType)
	if !ok {
		return model.Block{}
	}
	r.i, r.depth = start, depth
	r.beginObject()
	b, _ := readBlockTyped(r, blockType(typ), true, start)
	return b
}

// blockIn names a block type in error messages.
func blockIn(typ model.BlockType) string {
	switch typ {
	case model.BlockText:
		return "text block"
	case model.BlockToolCall:
		return "tool_call block"
	case model.BlockToolResult:
		return "tool_result block"
	case model.BlockNative:
		return "native block"
	case model.BlockCompaction:
		return "compaction block"
	}
	return "block"
}

func blockType(typ []byte) model.BlockType {
	switch model.BlockType(typ) {
	case model.BlockText:
		return model.BlockText
	case model.BlockToolCall:
		return model.BlockToolCall
	case model.BlockToolResult:
		return model.BlockToolResult
	case model.BlockNative:
		return model.BlockNative
	case model.BlockCompaction:
		return model.BlockCompaction
	}
	return model.BlockType(typ)
}

func readBlockTyped(r *reader, typ model.BlockType, first bool, start int) (b model.Block, conflict bool) {
	b.Type = typ
	b.NullContent = typ == model.BlockCompaction
	in := blockIn(typ)
	lossy := r.lossy // a block of an unknown type keeps its members in Raw
	for {
		key, ok := r.nextKey(first)
		first = false
		if !ok {
			break
		}
		switch string(key) {
		case "type":
			if r.peek() != '"' {
				r.failShape(errBlockType)
				return b, true
			}
			conflict = string(r.strBytes()) != string(typ) || conflict
		case "text":
			if typ != model.BlockText {
				r.skipUnknown()
				break
			}
			b.Text = r.strField(in, "text")
		case "id":
			if typ != model.BlockToolCall && typ != model.BlockToolResult {
				r.skipUnknown()
				break
			}
			b.ID = r.strField(in, "id")
		case "name":
			if typ != model.BlockToolCall {
				r.skipUnknown()
				break
			}
			b.Name = r.strField(in, "name")
		case "input":
			if typ != model.BlockToolCall {
				r.skipUnknown()
				break
			}
			b.Input = r.raw()
		case "isError":
			if typ != model.BlockToolResult {
				r.skipUnknown()
				break
			}
			b.IsError = r.boolField(in, "isError")
		case "provider":
			if typ != model.BlockNative {
				r.skipUnknown()
				break
			}
			b.Provider = r.strField(in, "provider")
		case "data":
			if typ != model.BlockNative {
				r.skipUnknown()
				break
			}
			b.Data = r.raw()
		case "content":
			switch typ {
			case model.BlockToolResult:
				b.Content = r.strField(in, "content")
			case model.BlockCompaction:
				b.Content, b.NullContent = "", r.isNull()
				if !b.NullContent {
					b.Content = r.strField(in, "content")
				}
			default:
				r.skipUnknown()
			}
		default:
			r.skipUnknown()
		}
	}
	switch typ {
	case model.BlockText, model.BlockToolCall, model.BlockToolResult, model.BlockNative, model.BlockCompaction:
	default:
		if r.err == nil {
			b = model.Block{Type: typ, Raw: append(json.RawMessage(nil), r.b[start:r.i]...)}
			r.lossy = lossy
		}
	}
	return b, conflict
}
