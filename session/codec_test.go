package session_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/session/sessiontest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

func TestConformanceUnderEveryCodec(t *testing.T) {
	for _, cc := range codecMatrix(t) {
		if cc.codec == nil {
			continue // TestFileCheckpointer
		}
		t.Run(cc.name, func(t *testing.T) {
			sessiontest.Run(t, func(t *testing.T) session.Checkpointer {
				return newCP(t, t.TempDir(), session.FileOptions{Encoding: storage.Encoding{Codec: cc.codec, Namespace: "acme", ProjectID: "0123456789abcdef"}})
			})
		})
	}
}

func TestEncodedLogsAreOneEnvelopePerRecord(t *testing.T) {
	for _, cc := range codecMatrix(t) {
		t.Run(cc.name, func(t *testing.T) {
			dir := t.TempDir()
			enc := storage.Encoding{Codec: cc.codec, ProjectID: "p1"}
			cp := newCP(t, dir, session.FileOptions{Encoding: enc})
			appendTexts(t, cp, "enc", secret+"-1", secret+"-2")
			appendTexts(t, cp, "enc", secret+"-3")
			raw := readFile(t, filepath.Join(dir, "enc.jsonl"))
			lines := bytes.Split(bytes.TrimSuffix(raw, []byte("\n")), []byte("\n"))
			if len(lines) != 3 {
				t.Fatalf("%d lines", len(lines))
			}
			if cc.codec == nil {
				return
			}
			for i, line := range lines {
				if !bytes.HasPrefix(line, []byte(`{"liteAgentStorage":1,"codec":"`+cc.codec.ID()+`","payload":"`)) {
					t.Errorf("line %d is not an envelope: %.60s", i+1, line)
				}
				// Each envelope decodes as record seq of the session, and
				// (under an AEAD) only as that.
				rec := string(rune('1' + i))
				plain, err := enc.Decode(t.Context(), storage.KindCheckpoint, "enc", rec, line)
				if err != nil || !bytes.Contains(plain, []byte(`"seq":`+rec)) {
					t.Errorf("line %d: decode as record %s: %v", i+1, rec, err)
				}
				if cc.hides {
					other := string(rune('1' + (i+1)%3))
					for _, wrong := range []struct {
						enc       storage.Encoding
						scope, id string
					}{
						{enc, "enc", other},
						{enc, "other", rec},
						{storage.Encoding{Codec: cc.codec, ProjectID: "p2"}, "enc", rec},
						{storage.Encoding{Codec: cc.codec, ProjectID: "p1", Namespace: "acme"}, "enc", rec},
					} {
						if _, err := wrong.enc.Decode(t.Context(), storage.KindCheckpoint, wrong.scope, wrong.id, line); err == nil {
							t.Errorf("line %d decodes in the wrong context %+v", i+1, wrong)
						}
					}
				}
			}
			if cc.hides {
				for _, leak := range []string{secret, `"seq"`, `"sessionId"`, "user"} {
					if bytes.Contains(raw, []byte(leak)) {
						t.Errorf("the encrypted log contains %q", leak)
					}
				}
			}
		})
	}
}

func TestChangingTheCodecFailsAndChangesNothing(t *testing.T) {
	k1 := aead(t, codec.XChaCha20Poly1305, "k1", 1)
	const (
		mismatch   = "Storage format or codec id mismatch; explicit migration is required"
		needsCodec = "Encoded storage requires its configured codec"
		decode     = "Storage decode failed (checkpoint)"
	)
	for _, tt := range []struct {
		name     string
		from, to storage.Codec
		msg      string
	}{
		{"enable gzip over plaintext", nil, codec.Gzip(), mismatch},
		{"enable encryption over plaintext", nil, k1, mismatch},
		{"remove gzip", codec.Gzip(), nil, needsCodec},
		{"remove encryption", k1, nil, needsCodec},
		{"gzip to zstd", codec.Gzip(), codec.Zstd(), mismatch},
		{"new key id", k1, aead(t, codec.XChaCha20Poly1305, "k2", 1), mismatch},
		{"other algorithm", k1, aead(t, codec.AES256GCM, "k1", 1), mismatch},
		{"wrong key under the same id", k1, aead(t, codec.XChaCha20Poly1305, "k1", 9), decode},
	} {
		for _, repair := range []bool{false, true} {
			name := tt.name
			if repair {
				name += "/RepairTail"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				appendTexts(t, newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: tt.from}}), "s", secret+"-1", secret+"-2")
				path := filepath.Join(dir, "s.jsonl")
				before := dirSnapshot(t, dir)
				cp := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: tt.to}, RepairTail: repair})
				ctx := t.Context()
				check := func(op string, err error) {
					t.Helper()
					se := storageError(t, err, tt.msg)
					if se.File != path || se.Record != "1" {
						t.Errorf("%s: error names %q record %q", op, se.File, se.Record)
					}
					if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "authentication") {
						t.Errorf("%s: error %q leaks", op, err)
					}
				}
				_, err := cp.Read(ctx, "s", 0)
				check("Read", err)
				_, err = cp.Read(ctx, "s", 1)
				check("Read(since 1)", err)
				_, err = cp.Head(ctx, "s")
				check("Head", err)
				_, err = cp.Append(ctx, "s", []session.Event{userText("new")}, session.AnyHead)
				check("Append", err)
				check("Truncate", cp.Truncate(ctx, "s", 0, session.AnyHead))
				for _, err := range cp.Scan(ctx, "s", 0) {
					check("Scan", err)
				}
				problems, err := cp.Verify(ctx, "s")
				if err != nil || len(problems) != 2 || problems[0].Kind != storage.ProblemDecode || problems[1].Kind != storage.ProblemDecode {
					t.Errorf("Verify = %+v, %v; want two decode problems", problems, err)
				}
				sameSnapshot(t, "every operation under the changed codec", before, dirSnapshot(t, dir))
			})
		}
	}
}

// cancelCodec cancels its context's operation by returning ctx.Err() once
// the test cancels.
type cancelCodec struct {
	cancel context.CancelFunc
}

func (cancelCodec) ID() string { return "cancel-v1" }

func (c cancelCodec) Encode(ctx context.Context, p []byte, _ storage.Context) ([]byte, error) {
	c.cancel()
	return nil, ctx.Err()
}

func (c cancelCodec) Decode(ctx context.Context, p []byte, _ storage.Context) ([]byte, error) {
	c.cancel()
	return nil, ctx.Err()
}

func TestCancellationDuringEncodeIsReportedAsItself(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	cp := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: cancelCodec{cancel}}})
	_, err := cp.Append(ctx, "c", []session.Event{userText("x")}, session.AnyHead)
	if err != context.Canceled {
		t.Errorf("Append = %v, want context.Canceled", err)
	}
	if entries := dirSnapshot(t, dir); len(entries) != 1 { // the directory itself
		t.Errorf("left %v", keys(entries))
	}
}
