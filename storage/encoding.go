package storage

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	asmbase64 "github.com/segmentio/asm/base64"
)

// Envelope payloads are base64 encoded and decoded once per record, which
// with encoding/base64 costs about as much as the AEAD itself. These
// vectorized coders (AVX2 on amd64, NEON on arm64, encoding/base64
// elsewhere) give the same bytes and the same verdicts as the standard
// padded alphabet, strict on decoding (a test holds them to
// encoding/base64 on every input the envelope parser lets through). They
// are never modified.
var (
	fastBase64   = asmbase64.StdEncoding
	strictBase64 = asmbase64.StdEncoding.Strict()
)

// EnvelopeVersion is the value of the "liteAgentStorage" key of every
// encoded record.
const EnvelopeVersion = 1

// StandaloneProject is the project id of a store used without a project.
const StandaloneProject = "standalone"

// Encoding encodes and decodes the records of a built-in file store. It owns
// the envelope, its validation and the mapping of codec failures to *[Error];
// a [Codec] only ever sees record bytes. The zero value stores plaintext
// under the default namespace and the "standalone" project.
//
// With a codec, each record is stored as the one-line JSON envelope
//
//	{"liteAgentStorage":1,"codec":"<codec id>","payload":"<standard base64>"}
//
// Encoding is a small value that is safe for concurrent use if its Codec is.
type Encoding struct {
	// Codec encodes each record; nil stores plaintext.
	Codec Codec
	// Namespace is the namespace seen by the codec; "" means
	// [DefaultNamespace].
	Namespace string
	// ProjectID is the project id seen by the codec; "" means
	// [StandaloneProject].
	ProjectID string
}

// Context returns the codec context of one record.
func (e Encoding) Context(kind Kind, scopeID, recordID string) Context {
	pid := e.ProjectID
	if pid == "" {
		pid = StandaloneProject
	}
	return Context{
		Namespace: namespaceOrDefault(e.Namespace),
		ProjectID: pid,
		Kind:      kind,
		ScopeID:   scopeID,
		RecordID:  recordID,
	}
}

// Encoded reports whether records are encoded (a codec is set).
func (e Encoding) Encoded() bool { return e.Codec != nil }

// Encode returns the stored form of one record. Without a codec it returns
// plaintext unchanged. With one, it returns the envelope of the codec's
// output. A failing codec yields a *[Error] ("Storage encode failed") that
// does not include or wrap the codec's error; if ctx is done, ctx.Err() is
// returned instead.
//
// Encode checks e on every call, since an Encoding built by hand need not
// have passed [Encoding.Frozen], and never writes what [Encoding.Decode]
// with e would refuse. Each of these is a *[Error] and encodes nothing: a
// Namespace that [ValidateNamespace] refuses, a kind that is none of the
// Kind constants, a codec that [ValidateCodec] refuses (a nil pointer, an
// invalid ID, an ID method that panics), plaintext that is not UTF-8
// under a codec, and, without a codec, plaintext that is itself a JSON
// object with a "liteAgentStorage" key (Decode would take it for an
// encoded record); those last two wrap [ErrUnstorable]. A codec that
// panics fails like one that returns an error.
func (e Encoding) Encode(ctx context.Context, kind Kind, scopeID, recordID string, plaintext []byte) ([]byte, error) {
	if err := e.checkRecord("encode", kind, recordID); err != nil {
		return nil, err
	}
	if e.Codec == nil {
		if err := checkPlaintext(kind, recordID, plaintext); err != nil {
			return nil, err
		}
		return plaintext, nil
	}
	return e.appendEncode(ctx, nil, kind, scopeID, recordID, plaintext, nil)
}

// ErrUnstorable is the cause of the *[Error] with which [Encoding.Encode]
// refuses a record because [Encoding.Decode] with the same Encoding could
// not give it back: plaintext that has the form of an envelope, stored
// without a codec, or plaintext that is not UTF-8, under one. It depends
// on the content alone, so a caller that can keep such content some other
// way (in place, say, rather than archived) tests for it with errors.Is.
var ErrUnstorable = errors.New("storage: the record cannot be stored so that it reads back")

// checkRecord refuses, as a *Error of op, an Encoding whose namespace is
// invalid and a kind that is none of the Kind constants. The codec is
// checked where its ID is read.
func (e Encoding) checkRecord(op string, kind Kind, recordID string) error {
	if e.Namespace != "" && !validNamespace(e.Namespace) {
		return &Error{Op: op, Kind: kind, Record: recordID, Message: "storage.namespace must be 1-64 lowercase letters, digits, underscores or hyphens, starting with a letter"}
	}
	switch kind {
	case KindCheckpoint, KindTask, KindArchive, KindArchiveIndex, KindSpill:
		return nil
	}
	return &Error{Op: op, Kind: kind, Record: recordID, Message: "Unknown storage record kind"}
}

// checkPlaintext refuses a plaintext record that plaintext decoding would
// take for an encoded one, and so could never read back.
func checkPlaintext(kind Kind, recordID string, plaintext []byte) error {
	if looksEnveloped(plaintext) {
		return (&Error{Op: "encode", Kind: kind, Record: recordID, Message: "Plaintext record has the form of encoded storage and could not be read back"}).WithCause(ErrUnstorable)
	}
	return nil
}

// AppendEncode is [Encoding.Encode] that appends the stored form to dst and
// returns the extended slice, for writers that encode record after record
// into one buffer. With an [AppendEncoder] codec it allocates nothing once
// dst has room for the record twice over. plaintext must not overlap dst's
// spare capacity. On error it returns nil.
func (e Encoding) AppendEncode(ctx context.Context, dst []byte, kind Kind, scopeID, recordID string, plaintext []byte) ([]byte, error) {
	if err := e.checkRecord("encode", kind, recordID); err != nil {
		return nil, err
	}
	if e.Codec == nil {
		if err := checkPlaintext(kind, recordID, plaintext); err != nil {
			return nil, err
		}
		return append(dst, plaintext...), nil
	}
	return e.appendEncode(ctx, dst, kind, scopeID, recordID, plaintext, nil)
}

// appendEncoder is the method of an AppendEncoder, which a Check has too.
type appendEncoder interface {
	AppendEncode(ctx context.Context, dst, plaintext []byte, sc Context) ([]byte, error)
}

// appendDecoder is the method of an AppendDecoder, which a Check has too.
type appendDecoder interface {
	AppendDecode(ctx context.Context, dst, encoded []byte, sc Context) ([]byte, error)
}

// appendEncode appends the envelope of plaintext encoded with e.Codec to
// dst; with, if not nil, stands in for the codec's AppendEncode (a Check).
func (e Encoding) appendEncode(ctx context.Context, dst []byte, kind Kind, scopeID, recordID string, plaintext []byte, with appendEncoder) ([]byte, error) {
	if err := e.checkRecord("encode", kind, recordID); err != nil {
		return nil, err
	}
	id, err := e.codecID()
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(plaintext) {
		// Decode refuses a record whose plaintext is not UTF-8.
		return nil, (&Error{Op: "encode", Kind: kind, Record: recordID, Message: "Storage encode requires UTF-8 plaintext (" + string(kind) + ")"}).WithCause(ErrUnstorable)
	}
	sc := e.Context(kind, scopeID, recordID)
	base := len(dst)
	var out []byte
	var ae appendEncoder = with
	if ae == nil {
		if c, ok := e.Codec.(AppendEncoder); ok {
			ae = c
		}
	}
	// Encode (dst nil) sizes its result exactly: its caller keeps it.
	inPlace := ae != nil && dst != nil
	if inPlace {
		// The codec appends its output past the room the envelope of an
		// output of the guessed length takes, so that encoding the output
		// into the envelope does not overwrite what is still to be read.
		guess := len(plaintext) + encodeSlack
		at := base + envelopeSize(id, guess)
		dst = slices.Grow(dst, at-base+guess)
		out, err = hostCall(func() ([]byte, error) { return ae.AppendEncode(ctx, dst[:at], plaintext, sc) })
		switch {
		case err != nil || out == nil:
		case len(out) < at:
			out = nil // not appended to dst: refused below
		default:
			aliased := unsafe.SliceData(out) == unsafe.SliceData(dst)
			out = out[at:]
			if aliased && base+envelopeSize(id, len(out)) > at {
				out = bytes.Clone(out) // longer than guessed
			}
		}
	} else {
		out, err = hostCall(func() ([]byte, error) { return e.Codec.Encode(ctx, plaintext, sc) })
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, &Error{Op: "encode", Kind: kind, Record: recordID, Message: "Storage encode failed (" + string(kind) + ")"}
	}
	if out == nil {
		return nil, &Error{Op: "encode", Kind: kind, Record: recordID, Message: "Storage encode must return bytes"}
	}
	return appendEnvelope(dst[:base], id, out), nil
}

// encodeSlack is how many bytes longer than the plaintext AppendEncode
// expects a codec's output to be: an AEAD adds a nonce and a tag, 40 bytes
// for XChaCha20-Poly1305.
const encodeSlack = 64

const (
	envelopeHead = `{"liteAgentStorage":1,"codec":"`
	envelopeMid  = `","payload":"`
	envelopeTail = `"}`
)

// envelopeSize is the length of the envelope of a payload of n bytes under
// the codec id.
func envelopeSize(id string, n int) int {
	return len(envelopeHead) + len(id) + len(envelopeMid) + base64.StdEncoding.EncodedLen(n) + len(envelopeTail)
}

// appendEnvelope appends the envelope of payload to b, growing b once.
// payload may lie in b's spare capacity past the envelope's end.
func appendEnvelope(b []byte, id string, payload []byte) []byte {
	b = slices.Grow(b, envelopeSize(id, len(payload)))
	b = append(b, envelopeHead...)
	b = append(b, id...) // the id pattern needs no escaping
	b = append(b, envelopeMid...)
	n := base64.StdEncoding.EncodedLen(len(payload))
	fastBase64.Encode(b[len(b):len(b)+n], payload)
	b = b[:len(b)+n]
	return append(b, envelopeTail...)
}

// Decode returns the plaintext of one stored record.
//
// Without a codec, stored text that parses as a JSON object with a
// "liteAgentStorage" key is refused ("Encoded storage requires its configured
// codec"); anything else is returned unchanged. With a codec, stored must be
// exactly the envelope Encode writes for this codec, with a strictly
// canonical base64 payload; anything else, plaintext included, is refused
// with a message saying that explicit migration is required. The decoded
// bytes must be valid UTF-8. Every refusal is a *[Error] that carries neither
// payload nor the codec's error; nothing is ever retried as plaintext. Like
// [Encoding.Encode], Decode first refuses an invalid Namespace, an unknown
// kind and an invalid codec, and a codec that panics fails like one that
// returns an error.
func (e Encoding) Decode(ctx context.Context, kind Kind, scopeID, recordID string, stored []byte) ([]byte, error) {
	if err := e.checkRecord("decode", kind, recordID); err != nil {
		return nil, err
	}
	if e.Codec == nil {
		if looksEnveloped(stored) {
			return nil, &Error{Op: "decode", Kind: kind, Record: recordID, Message: "Encoded storage requires its configured codec", Found: StoredCodec(stored)}
		}
		return stored, nil
	}
	return e.decode(ctx, nil, false, kind, scopeID, recordID, stored, nil)
}

// AppendDecode is [Encoding.Decode] that appends the plaintext to dst and
// returns the extended slice, for readers that decode record after record
// into one reused buffer. With an [AppendDecoder] codec it allocates
// nothing once dst has grown to twice the size of a record. dst must not
// overlap stored. On error it returns nil.
func (e Encoding) AppendDecode(ctx context.Context, dst []byte, kind Kind, scopeID, recordID string, stored []byte) ([]byte, error) {
	if e.Codec == nil {
		out, err := e.Decode(ctx, kind, scopeID, recordID, stored)
		if err != nil {
			return nil, err
		}
		return append(dst, out...), nil
	}
	return e.decode(ctx, dst, true, kind, scopeID, recordID, stored, nil)
}

// decode decodes an envelope with e.Codec; with appendTo, the plaintext is
// appended to dst. with, if not nil, stands in for the codec's
// AppendDecode (a Check); it is used only with appendTo.
func (e Encoding) decode(ctx context.Context, dst []byte, appendTo bool, kind Kind, scopeID, recordID string, stored []byte, with appendDecoder) ([]byte, error) {
	if err := e.checkRecord("decode", kind, recordID); err != nil {
		return nil, err
	}
	id, err := e.codecID()
	if err != nil {
		return nil, err
	}
	b64, ok := envelopePayload(stored, id)
	if !ok {
		e := &Error{Op: "decode", Kind: kind, Record: recordID, Message: "Storage format or codec id mismatch; explicit migration is required"}
		if found := StoredCodec(stored); found != id {
			e.Found = found // "" when the envelope is damaged rather than foreign
		}
		return nil, e
	}
	n := base64.StdEncoding.DecodedLen(len(b64))
	// inPlace: the payload and the plaintext both go into dst's capacity.
	var ad appendDecoder = with
	if ad == nil {
		if c, ok := e.Codec.(AppendDecoder); ok {
			ad = c
		}
	}
	inPlace := ad != nil && appendTo
	var payload []byte
	if inPlace {
		// Decode the payload into the end of dst's spare capacity, past
		// the room the plaintext may take: at least n bytes, which an
		// encrypted plaintext never exceeds, and all the rest, which a
		// decompressed one may need.
		if dst == nil {
			dst = make([]byte, 0, 2*n) // non-nil even for an empty payload
		}
		dst = slices.Grow(dst, 2*n)
		payload = dst[cap(dst)-n : cap(dst)]
	} else {
		payload = make([]byte, n)
	}
	m, err := strictBase64.Decode(payload, b64)
	if err != nil {
		return nil, &Error{Op: "decode", Kind: kind, Record: recordID, Message: "Storage format or codec id mismatch; explicit migration is required"}
	}
	payload = payload[:m]
	sc := e.Context(kind, scopeID, recordID)
	var out []byte
	start := len(dst)
	if inPlace {
		// The codec sees the spare capacity up to where the payload
		// begins; the full buffer goes back to the caller.
		out, err = hostCall(func() ([]byte, error) { return ad.AppendDecode(ctx, dst[:start:cap(dst)-n], payload, sc) })
		if err == nil && out != nil && unsafe.SliceData(out) == unsafe.SliceData(dst) {
			out = dst[:len(out)]
		}
	} else {
		out, err = hostCall(func() ([]byte, error) { return e.Codec.Decode(ctx, payload, sc) })
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, &Error{Op: "decode", Kind: kind, Record: recordID, Message: "Storage decode failed (" + string(kind) + ")"}
	}
	if out == nil {
		return nil, &Error{Op: "decode", Kind: kind, Record: recordID, Message: "Storage decode must return bytes"}
	}
	plain := out
	if inPlace {
		if len(out) < start {
			return nil, &Error{Op: "decode", Kind: kind, Record: recordID, Message: "Storage decode must return bytes"}
		}
		plain = out[start:]
	}
	if !utf8.Valid(plain) {
		return nil, &Error{Op: "decode", Kind: kind, Record: recordID, Message: "Storage decode returned invalid UTF-8"}
	}
	if appendTo && !inPlace {
		return append(dst, out...), nil
	}
	return out, nil
}

// looksEnveloped reports whether stored is a JSON object with a
// "liteAgentStorage" key. Plaintext records are JSON objects too, so the full
// parse runs only when the key could be there: spelled out, or with one of
// its letters hidden behind a \u escape.
func looksEnveloped(stored []byte) bool {
	trimmed := bytes.TrimLeft(stored, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	if !bytes.Contains(stored, []byte("liteAgentStorage")) && !escapesKeyLetter(stored) {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(stored, &m) != nil {
		return false
	}
	_, ok := m["liteAgentStorage"]
	return ok
}

// escapesKeyLetter reports whether b holds a \u escape of a letter of
// "liteAgentStorage" (\u0041 to \u007a, hex digits in either case): a
// key that decodes to it without spelling it out needs one. JSON escapes
// letters rarely, unlike <, > and & (Go's encoding/json writes \u003c), so
// this spares most plaintext records with escapes the full parse.
func escapesKeyLetter(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '\\')
		if i < 0 || len(b)-i < 6 {
			return false
		}
		e := b[i : i+6]
		if e[1] == 'u' && e[2] == '0' && e[3] == '0' && e[4] >= '4' && e[4] <= '7' {
			if lo := unhex(e[5]); lo >= 0 && strings.IndexByte("liteAgentStorage", byte(int(e[4]-'0')<<4|lo)) >= 0 {
				return true
			}
		}
		b = b[i+2:] // past the escaped character too: \\u0041 is no escape
	}
}

// unhex returns the value of the hex digit c, or -1.
func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// StoredCodec names the configuration a stored record was written under:
// the codec id of a well-formed envelope, [FoundPlaintext] for a record that
// is no envelope at all, or "" for an envelope whose codec id cannot be read
// (damage, not a mismatch).
func StoredCodec(stored []byte) string {
	if !looksEnveloped(stored) {
		if bytes.Contains(stored, []byte(`"liteAgentStorage"`)) {
			return "" // a damaged envelope
		}
		return FoundPlaintext
	}
	var env struct {
		Codec string `json:"codec"`
	}
	if json.Unmarshal(stored, &env) != nil || !validCodecID(env.Codec) {
		return ""
	}
	return env.Codec
}

// envelopePayload checks that stored is exactly the canonical envelope for
// codec id, apart from the payload's base64, and returns that base64.
// Accepting only the canonical bytes (fixed key order, no whitespace, no
// extra keys, strictly canonical padded base64, checked by the caller's
// strict decoder) means that no change to an envelope, however harmless it
// looks to a JSON parser, can still decode.
func envelopePayload(stored []byte, id string) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(stored, []byte(envelopeHead))
	if !ok {
		return nil, false
	}
	rest, ok = bytes.CutPrefix(rest, []byte(id))
	if !ok {
		return nil, false
	}
	rest, ok = bytes.CutPrefix(rest, []byte(envelopeMid))
	if !ok {
		return nil, false
	}
	b64, ok := bytes.CutSuffix(rest, []byte(envelopeTail))
	if !ok || len(b64)%4 != 0 {
		return nil, false
	}
	// The strict decoder refuses every byte outside the standard alphabet
	// except CR and LF, which it skips: refuse those here. Two IndexByte
	// scans are vectorized; IndexAny with a set is several times slower.
	if bytes.IndexByte(b64, '\r') >= 0 || bytes.IndexByte(b64, '\n') >= 0 {
		return nil, false
	}
	return b64, true
}
