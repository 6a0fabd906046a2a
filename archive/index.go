package archive

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
	"github.com/lite-agent/lite-agent-go/storage"
)

// PreviewBytes is the largest UTF-8 size of an entry's preview.
const PreviewBytes = 512

// indexEntry is one decoded line of index.jsonl.
type indexEntry struct {
	ref     string
	preview string
	// metadata is the compact JSON of the metadata value, or nil when the
	// line has none. It is kept as written so that search shows the keys in
	// the order the writer chose.
	metadata json.RawMessage
}

// refOf returns the ref of content: the lowercase hex SHA-256 of its bytes.
func refOf(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:])
}

// validRef reports whether ref has the form of a ref: 64 lowercase hex
// digits. It says nothing about whether an archive holds it.
func validRef(ref string) bool {
	if len(ref) != sha256.Size*2 {
		return false
	}
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// previewOf returns the longest prefix of content whose UTF-8 size is at
// most PreviewBytes, never splitting a character.
func previewOf(content string) string {
	if len(content) <= PreviewBytes {
		return content
	}
	end := 0
	for i, r := range content {
		n := utf8.RuneLen(r)
		if n < 0 { // invalid byte; content is sanitized before, but stay safe
			n = 1
		}
		if i+n > PreviewBytes {
			break
		}
		end = i + n
	}
	return content[:end]
}

// marshalIndexLine returns the plaintext JSON of one index line,
// {"ref","preview","metadata"?} in that order, byte for byte as JavaScript's
// JSON.stringify writes it. Metadata keys are written in sorted order (a Go
// map has no other), and nil metadata is omitted.
func marshalIndexLine(ref, preview string, metadata map[string]any) ([]byte, error) {
	b := make([]byte, 0, len(preview)+len(ref)+64)
	b = append(b, `{"ref":`...)
	b = jsonstr.Append(b, ref)
	b = append(b, `,"preview":`...)
	b = jsonstr.Append(b, preview)
	if metadata != nil {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(metadata); err != nil {
			return nil, err
		}
		b = append(b, `,"metadata":`...)
		b = jsonstr.AppendUnescaped(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	return append(b, '}'), nil
}

// appendEntryJSON appends the JSON of a decoded entry as search shows it.
func appendEntryJSON(b []byte, e indexEntry) []byte {
	b = append(b, `{"ref":`...)
	b = jsonstr.Append(b, e.ref)
	b = append(b, `,"preview":`...)
	b = jsonstr.Append(b, e.preview)
	if e.metadata != nil {
		b = append(b, `,"metadata":`...)
		b = append(b, e.metadata...)
	}
	return append(b, '}')
}

// parseIndexLine parses the plaintext of one index line. It accepts an
// object with a string "ref" of 64 lowercase hex digits, a string "preview"
// and an optional "metadata" of any JSON type; other keys are ignored. Key
// names are matched exactly and, as in JavaScript, a repeated key's last
// value wins.
func parseIndexLine(line []byte) (indexEntry, bool) {
	if !utf8.Valid(line) {
		return indexEntry{}, false
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil || fields == nil {
		return indexEntry{}, false
	}
	var e indexEntry
	if !unmarshalString(fields["ref"], &e.ref) || !validRef(e.ref) {
		return indexEntry{}, false
	}
	if !unmarshalString(fields["preview"], &e.preview) {
		return indexEntry{}, false
	}
	if raw, ok := fields["metadata"]; ok {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return indexEntry{}, false
		}
		e.metadata = buf.Bytes()
	}
	return e, true
}

// unmarshalString decodes raw into *s if raw is a JSON string.
func unmarshalString(raw json.RawMessage, s *string) bool {
	if len(raw) == 0 || raw[0] != '"' {
		return false
	}
	return json.Unmarshal(raw, s) == nil
}

// codecScope says how index lines and notes are encoded: the encoding and
// the scope id of their codec context.
type codecScope struct {
	enc   storage.Encoding
	scope string
}

// decodeIndex decodes the stored bytes of index.jsonl, named file in
// errors. Bytes after the last newline are a torn tail (see cutTorn), not
// a line, and are ignored. Every line must decode to a valid entry; the
// first that does not fails the whole index with a *storage.Error naming
// file and line ("Corrupt archive index" for an empty line or one that
// decodes but is not an entry, the codec's error otherwise). A missing or
// empty index is empty.
func decodeIndex(ctx context.Context, cs codecScope, file string, data []byte) ([]indexEntry, error) {
	return decodeIndexRecords(ctx, cs, file, splitIndex(data))
}

// cutTorn splits the stored bytes of index.jsonl into its complete lines,
// each with its newline, and the torn tail after the last newline: the
// remains of an append that never completed (the process killed, the
// machine down), which was therefore never acknowledged. The torn tail is
// not a line: readers ignore it and Put sets it aside before appending.
func cutTorn(data []byte) (complete, torn []byte) {
	i := bytes.LastIndexByte(data, '\n')
	return data[:i+1], data[i+1:]
}

// splitIndex splits the stored bytes of index.jsonl into its records, the
// complete lines without their newlines, leaving out a torn tail. An empty
// line is an empty record, which decodes as corrupt.
func splitIndex(data []byte) [][]byte {
	data, _ = cutTorn(data)
	recs := make([][]byte, 0, bytes.Count(data, []byte{'\n'}))
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		recs = append(recs, data[:i])
		data = data[i+1:]
	}
	return recs
}

// decodeIndexRecords decodes stored index records, the n-th with record id
// n, named file in errors. An empty record is corrupt.
func decodeIndexRecords(ctx context.Context, cs codecScope, file string, recs [][]byte) ([]indexEntry, error) {
	entries := make([]indexEntry, 0, len(recs))
	for n, rec := range recs {
		record := strconv.Itoa(n)
		if len(rec) == 0 {
			return nil, corruptIndex(file, record)
		}
		plain, err := cs.enc.Decode(ctx, storage.KindArchiveIndex, cs.scope, record, rec)
		if err != nil {
			return nil, atFile(err, file, record)
		}
		e, ok := parseIndexLine(plain)
		if !ok {
			return nil, corruptIndex(file, record)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

func corruptIndex(file, record string) error {
	return &storage.Error{Op: "read", Kind: storage.KindArchiveIndex, File: file, Record: record, Message: "Corrupt archive index"}
}

// atFile names file and record in err if it is a *storage.Error that does
// not name them yet; other errors (a cancelled context) pass unchanged.
func atFile(err error, file, record string) error {
	var se *storage.Error
	if !errors.As(err, &se) {
		return err
	}
	if se.File != "" {
		file = ""
	}
	if se.Record != "" {
		record = ""
	}
	return se.At(file, record)
}
