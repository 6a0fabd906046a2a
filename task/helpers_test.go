package task

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixedClock returns a clock that starts at a fixed instant and moves one
// millisecond per call, so timestamps are deterministic and distinct.
func fixedClock() func() time.Time {
	var n atomic.Int64
	base := time.UnixMilli(1_750_000_000_000)
	return func() time.Time { return base.Add(time.Duration(n.Add(1)-1) * time.Millisecond) }
}

// newFile returns a file store for list in tasksDir with a fixed clock.
func newFile(t testing.TB, tasksDir, list string, enc storage.Encoding) *FileStore {
	t.Helper()
	s, err := NewFileStore(tasksDir, list, enc)
	if err != nil {
		t.Fatalf("NewFileStore(%q, %q): %v", tasksDir, list, err)
	}
	s.now = fixedClock()
	return s
}

func mustCreate(t testing.TB, s Store, subject string) Task {
	t.Helper()
	tk, err := s.Create(context.Background(), CreateInput{Subject: subject, Description: "about " + subject})
	if err != nil {
		t.Fatalf("Create(%q): %v", subject, err)
	}
	return tk
}

func mustUpdate(t testing.TB, s Store, id string, in UpdateInput) Task {
	t.Helper()
	tk, err := s.Update(context.Background(), id, in)
	if err != nil {
		t.Fatalf("Update(%q): %v", id, err)
	}
	return tk
}

func mustGet(t testing.TB, s Store, id string) Task {
	t.Helper()
	tk, ok, err := s.Get(context.Background(), id)
	if err != nil || !ok {
		t.Fatalf("Get(%q) = %v, %v", id, ok, err)
	}
	return tk
}

func ptr[T any](v T) *T { return &v }

// snapshot returns every file and directory under root with its contents,
// for byte-identical comparisons.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = "symlink:" + target
		case d.IsDir():
			out[rel] = "dir"
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

func assertSameFiles(t testing.TB, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if w, ok := after[k]; !ok {
			t.Errorf("%s was removed", k)
		} else if w != v {
			t.Errorf("%s changed:\nbefore %q\nafter  %q", k, v, w)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s was created", k)
		}
	}
}

// asStorageError asserts that err is a *storage.Error whose message contains
// want and returns it.
func asStorageError(t testing.TB, err error, want string) *storage.Error {
	t.Helper()
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *storage.Error", err, err)
	}
	if !strings.Contains(se.Message, want) {
		t.Fatalf("error message %q does not contain %q", se.Message, want)
	}
	return se
}

// testKey returns a fixed 32-byte key derived from name.
func testKey(name string) []byte {
	k := sha256.Sum256([]byte("task test key " + name))
	return k[:]
}

func newAEAD(t testing.TB, alg codec.Algorithm, keyID string, key []byte) storage.Codec {
	t.Helper()
	c, err := codec.NewAEAD(codec.AEADOptions{
		Algorithm: alg,
		KeyID:     keyID,
		Key: func(_ context.Context, id string) ([]byte, error) {
			if id != keyID {
				return nil, fmt.Errorf("no key %q", id)
			}
			return slices.Clone(key), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// xorCodec is a trivial reversible codec for tests.
type xorCodec struct{ id string }

func (c xorCodec) ID() string { return c.id }
func (c xorCodec) Encode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return xor(p), nil
}
func (c xorCodec) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return xor(p), nil
}
func xor(p []byte) []byte {
	out := make([]byte, len(p))
	for i, b := range p {
		out[i] = b ^ 0x5a
	}
	return out
}

// failingCodec wraps a codec and fails Encode for the record ids in failOn
// once armed. Its error text carries a secret that must never surface.
type failingCodec struct {
	storage.Codec
	armed  atomic.Bool
	failOn []string
}

const codecSecret = "KEY-MATERIAL-0xDEADBEEF"

func (c *failingCodec) Encode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	if c.armed.Load() && slices.Contains(c.failOn, sc.RecordID) {
		return nil, errors.New("codec exploded with " + codecSecret)
	}
	return c.Codec.Encode(ctx, p, sc)
}

// blockingCodec wraps a codec; once armed, its next Encode or Decode
// announces itself on entered and waits for release.
type blockingCodec struct {
	storage.Codec
	mu       sync.Mutex
	armed    bool
	entered  chan storage.Context
	released chan struct{}
}

func newBlockingCodec(inner storage.Codec) *blockingCodec {
	return &blockingCodec{Codec: inner, entered: make(chan storage.Context, 1), released: make(chan struct{})}
}

func (c *blockingCodec) arm() {
	c.mu.Lock()
	c.armed = true
	c.mu.Unlock()
}

func (c *blockingCodec) wait(sc storage.Context) {
	c.mu.Lock()
	armed := c.armed
	c.armed = false
	c.mu.Unlock()
	if armed {
		c.entered <- sc
		<-c.released
	}
}

func (c *blockingCodec) Encode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	c.wait(sc)
	return c.Codec.Encode(ctx, p, sc)
}

func (c *blockingCodec) Decode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	c.wait(sc)
	return c.Codec.Decode(ctx, p, sc)
}

// golden compares got with testdata/<name>, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}
