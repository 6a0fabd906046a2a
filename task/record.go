package task

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// recordExt is the extension of a task record file.
const recordExt = ".json"

// fileStem returns the file name stem of task id as the TypeScript SDK
// forms it: every character outside [A-Za-z0-9_-] becomes
// "_", counted in UTF-16 code units (a character outside the Basic
// Multilingual Plane becomes "__"), and every byte of invalid UTF-8 becomes
// "_". The stem of "../secret" is "___secret": with every separator and dot
// replaced, no id can name a file outside the list directory.
func fileStem(id string) string { return stem(id, false) }

// legacyStem returns the stem earlier versions of this package used, which
// kept "." (so "../secret" was ".._secret"). Records written under such a
// name are still found, and move to the fileStem name when rewritten.
func legacyStem(id string) string { return stem(id, true) }

func stem(id string, keepDot bool) string {
	var b strings.Builder
	b.Grow(len(id))
	for i := 0; i < len(id); {
		r, n := utf8.DecodeRuneInString(id[i:])
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', keepDot && r == '.':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("__")
		default:
			b.WriteByte('_')
		}
		i += n
	}
	return b.String()
}

// stemOf reports whether a record holding id may be stored under the file
// name stem: its own stem, or the stem earlier versions gave it.
func stemOf(id, stem string) bool {
	return id == stem || fileStem(id) == stem || legacyStem(id) == stem
}

// Marshal returns the plaintext record of t, byte for byte what
// JavaScript's JSON.stringify(task, null, 2) produces for it: keys in the order of the [Task] fields, two-space indentation, no
// trailing newline, no escaping of <, > and & or of U+2028 and U+2029.
// Nested metadata objects have their keys sorted. A nil BlockedBy or Blocks
// is written as []. It fails only when Metadata holds a value that has no
// JSON form, such as a NaN or a channel.
func Marshal(t Task) ([]byte, error) {
	if t.BlockedBy == nil {
		t.BlockedBy = []string{}
	}
	if t.Blocks == nil {
		t.Blocks = []string{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return unescapeLineSeparators(out), nil
}

// unescapeLineSeparators replaces the \u2028 and \u2029 escapes that
// encoding/json always writes with the raw characters, as JSON.stringify
// leaves them. Escapes are recognised from the start of each backslash
// sequence, so an escaped backslash followed by "u2028" stays as it is.
func unescapeLineSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "2028":
				out = utf8.AppendRune(out, '\u2028')
				i += 5
				continue
			case "2029":
				out = utf8.AppendRune(out, '\u2029')
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}

// A corruption is the reason a record failed validation. Its text is fixed
// and never includes any part of the record.
type corruption string

func (c corruption) Error() string { return string(c) }

const (
	errNotObject     corruption = "not a JSON object"
	errIDMismatch    corruption = "id does not match the file name"
	errBadID         corruption = "id is missing or not a string"
	errBadSubject    corruption = "subject is missing or not a string"
	errBadStatus     corruption = "status is missing or unknown"
	errBadEdges      corruption = "blockedBy or blocks is missing or not an array of strings"
	errBadText       corruption = "description, activeForm or owner is not a string"
	errBadMetadata   corruption = "metadata is not an object"
	errBadExecution  corruption = "execution is not a valid execution record"
	errBadTimestamp  corruption = "createdAt or updatedAt is not an integer"
	maxSafeTimestamp            = 1 << 53
)

// decodeRecord parses and validates the plaintext record of the file with
// the given stem. Keys match exactly (case-sensitively), unknown keys are
// ignored (a rewrite keeps them, see mergeRecord), and null counts as
// absent. The record must be an object whose id belongs under stem (see
// stemOf), with a string subject, a known status and string arrays
// blockedBy and blocks; the other fields must have their types when
// present. The error is a corruption.
func decodeRecord(stem string, data []byte) (Task, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return Task{}, errNotObject
	}
	var t Task
	var ok bool
	var err error
	if t.ID, ok, err = stringField(m, "id"); err != nil || !ok {
		return Task{}, errBadID
	}
	if !stemOf(t.ID, stem) {
		return Task{}, errIDMismatch
	}
	if t.Subject, ok, err = stringField(m, "subject"); err != nil || !ok {
		return Task{}, errBadSubject
	}
	status, ok, err := stringField(m, "status")
	if err != nil || !ok || !Status(status).Valid() {
		return Task{}, errBadStatus
	}
	t.Status = Status(status)
	if t.BlockedBy, ok, err = stringsField(m, "blockedBy"); err != nil || !ok {
		return Task{}, errBadEdges
	}
	if t.Blocks, ok, err = stringsField(m, "blocks"); err != nil || !ok {
		return Task{}, errBadEdges
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"description", &t.Description}, {"activeForm", &t.ActiveForm}, {"owner", &t.Owner}} {
		if *f.dst, _, err = stringField(m, f.key); err != nil {
			return Task{}, errBadText
		}
	}
	if raw, ok := present(m, "metadata"); ok {
		if raw[0] != '{' || json.Unmarshal(raw, &t.Metadata) != nil {
			return Task{}, errBadMetadata
		}
	}
	if raw, ok := present(m, "execution"); ok {
		x, err := decodeExecution(raw)
		if err != nil {
			return Task{}, err
		}
		t.Execution = x
	}
	if t.CreatedAt, err = timestampField(m, "createdAt"); err != nil {
		return Task{}, err
	}
	if t.UpdatedAt, err = timestampField(m, "updatedAt"); err != nil {
		return Task{}, err
	}
	return t, nil
}

func decodeExecution(raw json.RawMessage) (*Execution, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, errBadExecution
	}
	var x Execution
	agent, ok, err := stringField(m, "agentId")
	if err != nil || !ok {
		return nil, errBadExecution
	}
	status, ok, err := stringField(m, "status")
	if err != nil || !ok || !ExecutionStatus(status).Valid() {
		return nil, errBadExecution
	}
	if x.Result, _, err = stringField(m, "result"); err != nil {
		return nil, errBadExecution
	}
	x.AgentID, x.Status = agent, ExecutionStatus(status)
	return &x, nil
}

// present returns the raw value of key unless it is missing or null.
func present(m map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	raw, ok := m[key]
	if !ok || len(raw) == 0 || string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

var errWrongType = errors.New("wrong type")

func stringField(m map[string]json.RawMessage, key string) (string, bool, error) {
	raw, ok := present(m, key)
	if !ok {
		return "", false, nil
	}
	if raw[0] != '"' {
		return "", true, errWrongType
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", true, errWrongType
	}
	return s, true, nil
}

func stringsField(m map[string]json.RawMessage, key string) ([]string, bool, error) {
	raw, ok := present(m, key)
	if !ok {
		return nil, false, nil
	}
	var items []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return nil, true, errWrongType
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		if len(it) == 0 || it[0] != '"' {
			return nil, true, errWrongType
		}
		var s string
		if json.Unmarshal(it, &s) != nil {
			return nil, true, errWrongType
		}
		out = append(out, s)
	}
	return out, true, nil
}

// timestampField reads an epoch-milliseconds field: an integral number
// within ±2^53 (a JavaScript safe integer); a missing field reads as 0.
func timestampField(m map[string]json.RawMessage, key string) (int64, error) {
	raw, ok := present(m, key)
	if !ok {
		return 0, nil
	}
	var f float64
	if c := raw[0]; c != '-' && (c < '0' || c > '9') || json.Unmarshal(raw, &f) != nil {
		return 0, errBadTimestamp
	}
	if f != math.Trunc(f) || math.Abs(f) > maxSafeTimestamp {
		return 0, errBadTimestamp
	}
	return int64(f), nil
}

// cloneTask returns a deep copy of t with non-nil edge slices.
func cloneTask(t Task) Task {
	t.BlockedBy = append([]string{}, t.BlockedBy...)
	t.Blocks = append([]string{}, t.Blocks...)
	if t.Metadata != nil {
		t.Metadata = cloneJSON(t.Metadata).(map[string]any)
	}
	if t.Execution != nil {
		x := *t.Execution
		t.Execution = &x
	}
	return t
}

// cloneJSON deep-copies a plain JSON value.
func cloneJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = cloneJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = cloneJSON(e)
		}
		return out
	}
	return v
}

// normalizeMetadata returns a deep copy of m made of plain JSON values
// (float64 numbers and so on), as a later read would return it, or an error
// if m has no JSON form. nil stays nil.
func normalizeMetadata(m map[string]any) (map[string]any, error) {
	if m == nil {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// compareIDs orders ids numerically, the way the TypeScript SDK sorts its list;
// ids that are not decimal numbers come after the numeric ones, in byte
// order.
func compareIDs(a, b string) int {
	na, aok := numericID(a)
	nb, bok := numericID(b)
	switch {
	case aok && bok:
		if c := compareUint(na, nb); c != 0 {
			return c
		}
	case aok:
		return -1
	case bok:
		return 1
	}
	return strings.Compare(a, b)
}

func compareUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// numericID parses a task id made only of decimal digits.
func numericID(id string) (uint64, bool) {
	if id == "" || len(id) > 19 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

func sortTasks(ts []Task) {
	slices.SortFunc(ts, func(a, b Task) int { return compareIDs(a.ID, b.ID) })
}
