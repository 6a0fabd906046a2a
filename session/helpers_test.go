package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// fixedTime is the clock of tests that pin bytes.
var fixedTime = time.Date(2026, 7, 22, 12, 0, 0, 0, time.UTC)

func newCP(t testing.TB, dir string, opts session.FileOptions) *session.FileCheckpointer {
	t.Helper()
	cp, err := session.NewFileCheckpointer(dir, opts)
	if err != nil {
		t.Fatalf("NewFileCheckpointer: %v", err)
	}
	return cp
}

func userText(s string) session.Event { return session.UserEvent{Message: model.UserText(s)} }

func textsOf(evs []session.StoredEvent) []string {
	var out []string
	for _, se := range evs {
		if ue, ok := se.Event.(session.UserEvent); ok {
			out = append(out, ue.Message.Text)
		} else {
			out = append(out, "<"+se.Event.EventType()+">")
		}
	}
	return out
}

// appendTexts appends one user event per text, one batch per call.
func appendTexts(t testing.TB, cp session.Checkpointer, id string, texts ...string) int64 {
	t.Helper()
	var evs []session.Event
	for _, s := range texts {
		evs = append(evs, userText(s))
	}
	h, err := cp.Append(context.Background(), id, evs, session.AnyHead)
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	return h
}

func readTexts(t testing.TB, cp session.Checkpointer, id string) []string {
	t.Helper()
	evs, err := cp.Read(context.Background(), id, 0)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return textsOf(evs)
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dirSnapshot returns every file name and content under dir. It opens
// regular files only: a named pipe (which would block the open) or
// another special file is recorded by its type.
func dirSnapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "symlink:" + target
		case d.IsDir():
			out[rel+"/"] = ""
		case !d.Type().IsRegular():
			out[rel] = "type:" + d.Type().String()
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameSnapshot(t testing.TB, what string, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("%s: files changed from %v to %v", what, keys(before), keys(after))
		return
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s: %s changed", what, k)
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// storageError asserts that err is a *storage.Error whose message contains
// msg and returns it.
func storageError(t testing.TB, err error, msg string) *storage.Error {
	t.Helper()
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T), want *storage.Error", err, err)
	}
	if !strings.Contains(se.Message, msg) {
		t.Errorf("message %q, want it to contain %q", se.Message, msg)
	}
	return se
}

// testKey is the AEAD key of the tests; other keys differ in one byte.
func testKey(b byte) func(context.Context, string) ([]byte, error) {
	// Built once, as a host caching its key would: the codec neither keeps
	// nor modifies the slice.
	k := bytes.Repeat([]byte{7}, codec.KeySize)
	k[0] = b
	return func(context.Context, string) ([]byte, error) { return k, nil }
}

func aead(t testing.TB, alg codec.Algorithm, keyID string, key byte) storage.Codec {
	t.Helper()
	c, err := codec.NewAEAD(codec.AEADOptions{Algorithm: alg, KeyID: keyID, Key: testKey(key)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// codecCase is one configuration of the codec matrix.
type codecCase struct {
	name  string
	codec storage.Codec // nil for plaintext
	// hides reports that stored bytes reveal no plaintext.
	hides bool
}

func codecMatrix(t testing.TB) []codecCase {
	return []codecCase{
		{name: "plaintext"},
		{name: "gzip", codec: codec.Gzip()},
		{name: "zstd", codec: codec.Zstd()},
		{name: "xchacha20poly1305", codec: aead(t, codec.XChaCha20Poly1305, "k1", 1), hides: true},
		{name: "aes256gcm", codec: aead(t, codec.AES256GCM, "k1", 1), hides: true},
	}
}

// failingCodec fails to encode the record whose id is failOn, and
// otherwise stores the plaintext reversed.
type failingCodec struct {
	failOn string
	// during, if set, runs inside every Encode call.
	during func()
}

func (failingCodec) ID() string { return "test-reverse-v1" }

func (c failingCodec) Encode(_ context.Context, p []byte, sc storage.Context) ([]byte, error) {
	if c.during != nil {
		c.during()
	}
	if sc.RecordID == c.failOn {
		return nil, fmt.Errorf("secret key material %x", p)
	}
	return reversed(p), nil
}

func (failingCodec) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return reversed(p), nil
}

func reversed(p []byte) []byte {
	out := make([]byte, len(p))
	for i, c := range p {
		out[len(p)-1-i] = c
	}
	return out
}

// entryNames returns the names in dir, in order, leaving out the parked lock
// directory (filelock.IdleName).
func entryNames(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.Name() != filelock.IdleName {
			out = append(out, e.Name())
		}
	}
	return out
}
