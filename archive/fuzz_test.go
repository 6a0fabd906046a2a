package archive

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/storage"
)

// identityCodec stores records unchanged inside the envelope.
type identityCodec struct{}

func (identityCodec) ID() string { return "identity-v1" }
func (identityCodec) Encode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return bytes.Clone(p), nil
}
func (identityCodec) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return bytes.Clone(p), nil
}

// FuzzDecodeIndex checks that decoding any index.jsonl never panics, that
// a failure is a *storage.Error naming the file and a line and nothing
// else, and that what decodes is entries that write back to an index that
// decodes to the same entries, with or without a codec.
func FuzzDecodeIndex(f *testing.F) {
	const ref = "f49fb7f0f8159e16fbaa7c2b678923a097a8056057e972dbd270c7149c2af98f"
	f.Add([]byte(`{"ref":"` + ref + `","preview":"hello, archive"}` + "\n"))
	f.Add([]byte(`{"ref":"` + ref + `","preview":"a","metadata":{"kind":"file"}}` + "\n" + `{"ref":"` + ref + `","preview":"b"}` + "\n"))
	f.Add([]byte(`{"ref":"` + ref + `","preview":"x"}`))
	f.Add([]byte(`{"ref":"` + ref + `","preview":"x"}` + "\n{"))
	f.Add([]byte("\n"))
	f.Add([]byte(`{"liteAgentStorage":1,"codec":"identity-v1","payload":"e30="}` + "\n"))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		const file = "/archive/index.jsonl"
		lines := bytes.Count(data, []byte("\n"))
		for _, cs := range []codecScope{{scope: "s"}, {enc: storage.Encoding{Codec: identityCodec{}}, scope: "s"}} {
			entries, err := decodeIndex(ctx, cs, file, data)
			// A torn tail, the bytes after the last newline, is no line:
			// the index decodes as its complete lines do.
			complete := data[:bytes.LastIndexByte(data, '\n')+1]
			same, cerr := decodeIndex(ctx, cs, file, complete)
			if (err == nil) != (cerr == nil) || err != nil && err.Error() != cerr.Error() || len(same) != len(entries) {
				t.Fatalf("index decodes to %d entries, %v; without its torn tail to %d, %v", len(entries), err, len(same), cerr)
			}
			if err != nil {
				var se *storage.Error
				if !errors.As(err, &se) {
					t.Fatalf("error %v is not a *storage.Error", err)
				}
				n, aerr := strconv.Atoi(se.Record)
				if se.File != file || aerr != nil || n < 0 || n >= lines {
					t.Fatalf("error names file %q record %q", se.File, se.Record)
				}
				if want := se.Message + ": " + file + " record " + se.Record; err.Error() != want {
					t.Fatalf("error text %q carries more than message, file and record", err)
				}
				continue
			}
			if len(entries) != lines {
				t.Fatalf("%d entries from %d lines", len(entries), lines)
			}
			var again []byte
			for i, e := range entries {
				if !validRef(e.ref) || !utf8.ValidString(e.preview) || e.metadata != nil && !utf8.Valid(e.metadata) {
					t.Fatalf("entry %d is not valid: %+v", i, e)
				}
				line := appendEntryJSON(nil, e)
				enc, err := cs.enc.Encode(ctx, storage.KindArchiveIndex, cs.scope, strconv.Itoa(i), line)
				if err != nil {
					t.Fatal(err)
				}
				again = append(append(again, enc...), '\n')
			}
			back, err := decodeIndex(ctx, cs, file, again)
			if err != nil {
				t.Fatalf("written-back index does not decode: %v", err)
			}
			for i := range entries {
				if back[i].ref != entries[i].ref || back[i].preview != entries[i].preview || !bytes.Equal(back[i].metadata, entries[i].metadata) {
					t.Fatalf("entry %d changed on write-back: %+v -> %+v", i, entries[i], back[i])
				}
			}
		}
	})
}
