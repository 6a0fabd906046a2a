package audit

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"strconv"
)

// Version is the record format version, the v member of every record.
const Version = 1

// hashHexLen is the length of a hash in hex: SHA-256 and HMAC-SHA256
// both give 32 bytes.
const hashHexLen = 2 * sha256.Size

// A record is one decoded line of an audit log.
type record struct {
	ts        string
	sessionID string
	seq       int64
	prevHash  string // "" for the first record of a chain
	hash      string
	event     json.RawMessage
	// body is the line without its hash member: the bytes the hash
	// covers, after prevHash and a newline.
	body []byte
}

// sum returns the hash of a record whose body is body and whose previous
// record's hash is prevHash: SHA-256, or HMAC-SHA256 under key when key is
// not empty, over prevHash + "\n" + body, in lowercase hex.
func sum(key []byte, prevHash string, body []byte) string {
	var h hash.Hash
	if len(key) > 0 {
		h = hmac.New(sha256.New, key)
	} else {
		h = sha256.New()
	}
	io.WriteString(h, prevHash)
	h.Write([]byte{'\n'})
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// encodeRecord returns the line (with its newline) of the record after
// prev (hash prevHash, "" for none) whose event is the JSON value event,
// and the record's hash. The members come in the order v, ts, sessionId,
// seq, prevHash, hash, event; the hash covers the line without its hash
// member.
func encodeRecord(key []byte, ts, sessionID string, seq int64, prevHash string, event json.RawMessage) (line []byte, h string) {
	var head bytes.Buffer
	head.WriteString(`{"v":`)
	head.WriteString(strconv.Itoa(Version))
	head.WriteString(`,"ts":`)
	writeString(&head, ts)
	head.WriteString(`,"sessionId":`)
	writeString(&head, sessionID)
	head.WriteString(`,"seq":`)
	head.WriteString(strconv.FormatInt(seq, 10))
	head.WriteString(`,"prevHash":`)
	writeString(&head, prevHash)
	tail := make([]byte, 0, len(event)+11)
	tail = append(tail, `,"event":`...)
	tail = append(tail, event...)
	tail = append(tail, '}')

	body := make([]byte, 0, head.Len()+len(tail))
	body = append(append(body, head.Bytes()...), tail...)
	h = sum(key, prevHash, body)

	line = make([]byte, 0, len(body)+hashHexLen+12)
	line = append(line, head.Bytes()...)
	line = append(line, `,"hash":"`...)
	line = append(line, h...)
	line = append(line, '"')
	line = append(line, tail...)
	line = append(line, '\n')
	return line, h
}

// writeString writes s as a JSON string.
func writeString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s) // a string always marshals
	buf.Write(b)
}

// errMalformed is the cause of every decoding failure; the message says
// what is wrong.
var errMalformed = errors.New("malformed record")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errMalformed, fmt.Sprintf(format, args...))
}

// decodeRecord decodes one line of an audit log (without its newline). It
// accepts any order of the members and whitespace between tokens, as long
// as the hash member is not the first; v must be 1, ts a string, sessionId
// a string (or missing), seq a non-negative integer, prevHash a string, null
// or missing, hash 64 lowercase hex digits and event any JSON value. Every
// member but sessionId and prevHash is required, none may repeat, and no
// other member is allowed. The record's body is the line with the hash
// member (and the comma before it) cut out, which is what the hash covers.
func decodeRecord(line []byte) (*record, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, malformed("not JSON")
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, malformed("not a JSON object")
	}
	var (
		r          record
		seen             = map[string]bool{}
		cutFrom    int64 = -1 // the hash member: from the end of the value before it
		cutTo      int64 = -1 // to the end of its own value
		prevEnd          = dec.InputOffset()
		haveEvent  bool
		membersLen int
	)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, malformed("not JSON")
		}
		key, ok := tok.(string)
		if !ok {
			return nil, malformed("not JSON")
		}
		if seen[key] {
			return nil, malformed("member %q repeats", key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, malformed("not JSON")
		}
		switch key {
		case "v":
			if string(raw) != "1" {
				return nil, malformed("unknown version %s", clip(raw))
			}
		case "ts":
			if err := json.Unmarshal(raw, &r.ts); err != nil {
				return nil, malformed("ts is not a string")
			}
		case "sessionId":
			if err := json.Unmarshal(raw, &r.sessionID); err != nil || string(raw) == "null" {
				return nil, malformed("sessionId is not a string")
			}
		case "seq":
			n, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil || n < 0 {
				return nil, malformed("seq is not a non-negative integer")
			}
			r.seq = n
		case "prevHash":
			if string(raw) != "null" {
				if err := json.Unmarshal(raw, &r.prevHash); err != nil {
					return nil, malformed("prevHash is not a string")
				}
			}
		case "hash":
			if membersLen == 0 {
				return nil, malformed("hash is the first member")
			}
			if err := json.Unmarshal(raw, &r.hash); err != nil || !isHashHex(r.hash) {
				return nil, malformed("hash is not 64 lowercase hex digits")
			}
			cutFrom, cutTo = prevEnd, dec.InputOffset()
		case "event":
			r.event = raw
			haveEvent = true
		default:
			return nil, malformed("unknown member %q", key)
		}
		membersLen++
		prevEnd = dec.InputOffset()
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, malformed("not JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, malformed("data after the record")
	}
	for _, k := range []string{"v", "ts", "seq", "hash"} {
		if !seen[k] {
			return nil, malformed("no %s", k)
		}
	}
	if !haveEvent {
		return nil, malformed("no event")
	}
	body := make([]byte, 0, len(line)-int(cutTo-cutFrom))
	body = append(body, line[:cutFrom]...)
	r.body = append(body, line[cutTo:]...)
	return &r, nil
}

// isHashHex reports whether s is a hash as records write it.
func isHashHex(s string) bool {
	if len(s) != hashHexLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// clip returns b for a message, shortened to 32 bytes.
func clip(b []byte) string {
	if len(b) > 32 {
		return string(b[:32]) + "…"
	}
	return string(b)
}
