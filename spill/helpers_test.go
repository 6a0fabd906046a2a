package spill_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// xorCodec is a deterministic test codec that XORs every byte with 0x5a and
// records the contexts it was given. With fail set, both directions fail
// with an error whose text must never surface.
type xorCodec struct {
	id   string
	fail bool

	mu   sync.Mutex
	seen []storage.Context // guarded by mu
}

const secretText = "key=hunter2"

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
	if c.fail {
		return nil, errors.New(secretText)
	}
	out := make([]byte, len(p))
	for i, b := range p {
		out[i] = b ^ 0x5a
	}
	return out, nil
}

func (c *xorCodec) contexts() []storage.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]storage.Context(nil), c.seen...)
}

func newStore(t *testing.T, dir string, enc storage.Encoding) *spill.FileStore {
	t.Helper()
	s, err := spill.NewFileStore(dir, enc)
	if err != nil {
		t.Fatalf("NewFileStore(%s): %v", dir, err)
	}
	return s
}

// storageError asserts that err is a *storage.Error and returns it.
func storageError(t *testing.T, err error) *storage.Error {
	t.Helper()
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *storage.Error", err, err)
	}
	if strings.Contains(err.Error(), secretText) {
		t.Fatalf("error %q leaks the codec's error text", err)
	}
	return se
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// listDir returns the names in dir.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func spillPath(s *spill.FileStore, ref string) string {
	return filepath.Join(s.Dir(), ref+".txt")
}
