package archive_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// open returns an archive in dir, failing the test on error.
func open(t testing.TB, dir string, opts archive.Options) *archive.FileArchive {
	t.Helper()
	a, err := archive.NewFileArchive(dir, opts)
	if err != nil {
		t.Fatalf("NewFileArchive(%s): %v", dir, err)
	}
	return a
}

// put stores content and fails the test on error.
func put(t testing.TB, a archive.Archive, content string, metadata map[string]any) archive.Entry {
	t.Helper()
	e, err := a.Put(context.Background(), content, metadata)
	if err != nil {
		t.Fatalf("Put: %v", err)
	}
	return e
}

// read reads a page and fails the test on error.
func read(t testing.TB, a archive.Archive, req archive.ReadRequest) string {
	t.Helper()
	out, err := a.Read(context.Background(), req)
	if err != nil {
		t.Fatalf("Read(%+v): %v", req, err)
	}
	return out
}

// search searches and fails the test on error.
func search(t testing.TB, a archive.Archive, q archive.Query) string {
	t.Helper()
	out, err := a.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	return out
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// snapshot returns every file, directory and symlink under root (root
// included, and its sibling lock directory if any) with its bytes, so that
// tests can assert that nothing changed.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
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
			files[rel] = "symlink -> " + target
		case d.IsDir():
			files[rel+"/"] = ""
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[rel] = string(b)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if _, err := os.Lstat(root + ".lock"); err == nil {
		files["../lock"] = "present"
	}
	return files
}

// sameSnapshot fails the test if two snapshots differ.
func sameSnapshot(t testing.TB, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if w, ok := after[k]; !ok {
			t.Errorf("%s disappeared", k)
		} else if w != v {
			t.Errorf("%s changed", k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s appeared", k)
		}
	}
}

// storageError asserts that err is a *storage.Error whose message contains
// want, and returns it.
func storageError(t testing.TB, err error, want string) *storage.Error {
	t.Helper()
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *storage.Error", err, err)
	}
	if !strings.Contains(se.Message, want) {
		t.Fatalf("error %q, want message containing %q", err, want)
	}
	return se
}

// testKey returns a fixed 32-byte key named name.
func testKey(name string) []byte {
	k := sha256.Sum256([]byte("archive test key " + name))
	return k[:]
}

// aead returns an AEAD codec whose key id is keyID and whose key is
// testKey(keyName).
func aead(t testing.TB, alg codec.Algorithm, keyID, keyName string) storage.Codec {
	t.Helper()
	c, err := codec.NewAEAD(codec.AEADOptions{
		Algorithm: alg,
		KeyID:     keyID,
		Key: func(context.Context, string) ([]byte, error) {
			return testKey(keyName), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// xorCodec is a small codec of our own: it XORs every byte and records the
// contexts it was called with. It can be told to fail for one kind.
type xorCodec struct {
	id       string
	failKind storage.Kind
	mu       sync.Mutex
	seen     []storage.Context
}

var errSecret = errors.New("codec failure carrying secret material 0xC0FFEE")

func (c *xorCodec) ID() string { return c.id }

func (c *xorCodec) Encode(_ context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.apply(p, sc)
}

func (c *xorCodec) Decode(_ context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.apply(p, sc)
}

func (c *xorCodec) apply(p []byte, sc storage.Context) ([]byte, error) {
	c.mu.Lock()
	c.seen = append(c.seen, sc)
	c.mu.Unlock()
	if sc.Kind == c.failKind {
		return nil, errSecret
	}
	out := bytes.Clone(p)
	for i := range out {
		out[i] ^= 0x5a
	}
	return out, nil
}

func (c *xorCodec) contexts() []storage.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]storage.Context(nil), c.seen...)
}

// blockingCodec is an identity codec whose calls wait until release is
// closed, after signalling entered once per call.
type blockingCodec struct {
	entered chan storage.Context
	release chan struct{}
}

func (c *blockingCodec) ID() string { return "blocking-v1" }

func (c *blockingCodec) Encode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.wait(ctx, p, sc)
}

func (c *blockingCodec) Decode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.wait(ctx, p, sc)
}

func (c *blockingCodec) wait(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	select {
	case c.entered <- sc:
	default:
	}
	select {
	case <-c.release:
		return bytes.Clone(p), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
