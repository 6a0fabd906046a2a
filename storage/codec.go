package storage

import (
	"context"
	"errors"
	"reflect"
	"unicode/utf8"
)

// Kind names the sort of record a codec is asked to encode.
type Kind string

// The record kinds of the built-in stores.
const (
	KindCheckpoint   Kind = "checkpoint"    // one session-log record; record id = seq
	KindTask         Kind = "task"          // one task record; record id = task id
	KindArchive      Kind = "archive"       // one archive note body; record id = ref
	KindArchiveIndex Kind = "archive-index" // one archive index line; record id = 0-based line
	KindSpill        Kind = "spill"         // one spilled output; record id = ref
)

// A Codec turns the UTF-8 bytes of one record into stored bytes and back,
// for example by compressing or encrypting them. It sees only bytes and the
// record's logical [Context], never an envelope or a file path.
//
// A Codec must be safe for concurrent use. Encode and Decode may block (to
// fetch a key, say); they should honor ctx, and they must eventually return:
// the built-in stores hold their file locks while a codec runs. The text of
// an error a codec returns is never shown by the SDK, so it may mention keys.
type Codec interface {
	// ID identifies the format and key version, such as "gzip-v1" or
	// "xchacha20poly1305.v1.k2". It must match
	// ^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$ and stay the same for as long as
	// records written with it must be read.
	ID() string
	// Encode returns the stored form of plaintext.
	Encode(ctx context.Context, plaintext []byte, sc Context) ([]byte, error)
	// Decode returns the plaintext of encoded.
	Decode(ctx context.Context, encoded []byte, sc Context) ([]byte, error)
}

// An AppendDecoder is a [Codec] that can append a record's plaintext to a
// buffer the caller provides, so that a reader decoding many records in a
// row reuses one buffer instead of allocating one per record.
// [Encoding.AppendDecode] uses it when the codec has it; the built-in AEAD
// codec does.
type AppendDecoder interface {
	Codec
	// AppendDecode appends the plaintext of encoded to dst and returns the
	// extended slice, with the same result and errors as Decode. dst has
	// at least len(encoded) bytes of spare capacity, which encoded does not
	// overlap. encoded is valid only during the call: the codec must not
	// keep it.
	AppendDecode(ctx context.Context, dst, encoded []byte, sc Context) ([]byte, error)
}

// An AppendEncoder is a [Codec] that can append a record's encoded form to
// a buffer the caller provides, so that a writer encoding many records in a
// row reuses one buffer instead of allocating one per record.
// [Encoding.AppendEncode] uses it when the codec has it; the built-in AEAD
// codec does.
type AppendEncoder interface {
	Codec
	// AppendEncode appends the encoded form of plaintext to dst and returns
	// the extended slice, with the same result and errors as Encode.
	// plaintext does not overlap dst's spare capacity and is valid only
	// during the call: the codec must not keep it.
	AppendEncode(ctx context.Context, dst, plaintext []byte, sc Context) ([]byte, error)
}

// validCodecID reports whether id matches ^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$.
// It is checked on every record, so it avoids a regexp.
func validCodecID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// ValidateCodec reports whether c can be used: it must be non-nil and its ID
// must match ^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$. The error is a *[Error].
func ValidateCodec(c Codec) error {
	_, err := checkedID(c)
	return err
}

// checkedID returns c's ID if c can be used, reading the ID once.
func checkedID(c Codec) (string, error) {
	if c == nil || isNilPointer(c) {
		return "", invalidCodec()
	}
	id, ok := codecIDOf(c)
	if !ok || !validCodecID(id) {
		return "", invalidCodec()
	}
	return id, nil
}

// codecIDOf returns c.ID(), or false when that panics, as the method of a
// codec struct that embeds a nil Codec does.
func codecIDOf(c Codec) (id string, ok bool) {
	defer func() {
		if recover() != nil {
			id, ok = "", false
		}
	}()
	return c.ID(), true
}

// errCodecPanicked stands for a host codec call that panicked. Callers map
// it, like any codec error, to a *Error that does not wrap it.
var errCodecPanicked = errors.New("storage: codec panicked")

// hostCall runs f, a call into a host codec's Encode or Decode, and
// returns errCodecPanicked when it panics, so that a half-built codec
// fails the record like a failing one instead of crashing the store. The
// panic value is dropped: it may hold payload or key bytes.
func hostCall(f func() ([]byte, error)) (out []byte, err error) {
	defer func() {
		if recover() != nil {
			out, err = nil, errCodecPanicked
		}
	}()
	return f()
}

func invalidCodec() error {
	return &Error{Op: "validate", Message: "Invalid storage codec: provide a stable id and encode/decode functions"}
}

// isNilPointer reports whether c holds a nil pointer, map, func or the like.
func isNilPointer(c Codec) bool {
	v := reflect.ValueOf(c)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Slice, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// Context is the logical, immutable description of one record handed to a
// [Codec]. It never contains a physical path, so moving the data home keeps
// the context of every record. Authenticated codecs bind its JSON form
// (see [Context.MarshalJSON]) as associated data.
type Context struct {
	// Namespace is the storage namespace ("lite-agent" by default).
	Namespace string
	// ProjectID is the project hash, or "standalone" for a store used
	// without one.
	ProjectID string
	// Kind is the record kind.
	Kind Kind
	// ScopeID is the session id, the task-list id, the archive's session
	// id, or "project" for spill records.
	ScopeID string
	// RecordID identifies the record in its scope: a seq, a task id, a ref
	// or an index line number.
	RecordID string
}

// MarshalJSON encodes c as
// {"namespace":…,"projectId":…,"kind":…,"scopeId":…,"recordId":…}, with the
// keys in that order and strings escaped exactly as JavaScript's
// JSON.stringify escapes them, so that the bytes (and thus any associated
// data derived from them) match other implementations.
func (c Context) MarshalJSON() ([]byte, error) {
	return c.AppendJSON(make([]byte, 0, 96+len(c.Namespace)+len(c.ProjectID)+len(c.ScopeID)+len(c.RecordID))), nil
}

// AppendJSON appends the bytes of [Context.MarshalJSON] to b.
func (c Context) AppendJSON(b []byte) []byte {
	b = append(b, `{"namespace":`...)
	b = appendJSString(b, c.Namespace)
	b = append(b, `,"projectId":`...)
	b = appendJSString(b, c.ProjectID)
	b = append(b, `,"kind":`...)
	b = appendJSString(b, string(c.Kind))
	b = append(b, `,"scopeId":`...)
	b = appendJSString(b, c.ScopeID)
	b = append(b, `,"recordId":`...)
	b = appendJSString(b, c.RecordID)
	return append(b, '}')
}

// appendJSString appends s as a JSON string the way JSON.stringify writes it:
// only '"', '\\' and control characters are escaped; invalid UTF-8 becomes
// U+FFFD, as it would on its way into a JavaScript string.
// internal/jsonstr.Append writes the same bytes, but storage imports
// nothing of this module (see ARCHITECTURE.md), so it keeps this copy; the
// tests of both hold them to JSON.stringify.
func appendJSString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	// Ids and hashes are plain ASCII: copy their bytes as they are.
	plain := 0
	for plain < len(s) && s[plain] >= 0x20 && s[plain] < utf8.RuneSelf && s[plain] != '"' && s[plain] != '\\' {
		plain++
	}
	b = append(b, s[:plain]...)
	for i := plain; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\b':
			b = append(b, '\\', 'b')
		case r == '\f':
			b = append(b, '\\', 'f')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}
