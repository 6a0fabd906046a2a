package task

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

// member is one member of a JSON object, in document order.
type member struct {
	key string
	raw json.RawMessage
}

var errNotObjectJSON = errors.New("not a JSON object")

// members returns the members of the JSON object data, in order. Of
// duplicate keys, each occurrence is returned.
func members(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errNotObjectJSON
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errNotObjectJSON
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, member{key, raw})
	}
	return out, nil
}

func find(ms []member, key string) (json.RawMessage, bool) {
	for i := len(ms) - 1; i >= 0; i-- { // the last of duplicates wins, as in decoding
		if ms[i].key == key {
			return ms[i].raw, true
		}
	}
	return nil, false
}

// mergeRecord returns the record to write for an update of the record
// stored as orig, which this package read as task: updated (the Marshal of
// the updated task) with orig's member order, the members of orig that the
// Task type does not hold, and orig's own bytes for every value the update
// did not change (so that number formats, key order inside metadata and
// strings this package would decode lossily, such as lone UTF-16
// surrogates, survive). Known members the update added go after orig's, in
// Task field order; known members it dropped (an owner set to "") go. The
// result is indented as Marshal's is.
func mergeRecord(orig []byte, task Task, updated []byte) ([]byte, error) {
	base, err := Marshal(task)
	if err != nil {
		return nil, err
	}
	out, err := merge3(orig, base, updated)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, out, "", "  "); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// merge3 merges the objects orig (as stored), base (what this package
// understood of orig, in its own form) and updated (base with the update
// applied) into one compact object; see mergeRecord.
func merge3(orig, base, updated []byte) ([]byte, error) {
	om, err := members(orig)
	if err != nil {
		return nil, err
	}
	bm, err := members(base)
	if err != nil {
		return nil, err
	}
	um, err := members(updated)
	if err != nil {
		return nil, err
	}
	out := []byte{'{'}
	emit := func(key string, raw []byte) error {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = jsonstr.Append(out, key)
		out = append(out, ':')
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return err
		}
		out = append(out, buf.Bytes()...)
		return nil
	}
	done := map[string]bool{}
	for _, m := range om {
		if done[m.key] {
			continue
		}
		done[m.key] = true
		raw, _ := find(om, m.key) // the value decoding used
		b, known := find(bm, m.key)
		u, kept := find(um, m.key)
		switch {
		case !known && !kept:
			// Unknown to this package (or a null it reads as absent):
			// kept as it is.
			if err := emit(m.key, raw); err != nil {
				return nil, err
			}
		case !kept:
			// Removed by the update.
		case known && bytes.Equal(b, u):
			if err := emit(m.key, raw); err != nil {
				return nil, err
			}
		case known && isObject(raw) && isObject(b) && isObject(u):
			v, err := merge3(raw, b, u)
			if err != nil {
				return nil, err
			}
			if err := emit(m.key, v); err != nil {
				return nil, err
			}
		default:
			if err := emit(m.key, u); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range um {
		if !done[m.key] {
			done[m.key] = true
			if err := emit(m.key, m.raw); err != nil {
				return nil, err
			}
		}
	}
	return append(out, '}'), nil
}

func isObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}
