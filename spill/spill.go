package spill

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Scope is the scope id of every spill record: spilled bodies belong to the
// project, not to one session.
const Scope = "project"

// RefLen is the length of a ref in hex characters.
const RefLen = 16

// A Store keeps spilled bodies by content reference.
type Store interface {
	// Put stores content and returns its ref. Storing the same content again
	// returns the same ref and stores nothing new.
	Put(ctx context.Context, content string) (ref string, err error)
	// Get returns the content stored under ref. A ref that was never stored,
	// or that is not a well-formed ref, yields ok == false and a nil error.
	Get(ctx context.Context, ref string) (content string, ok bool, err error)
}

// Ref returns the ref of content: the first 16 lowercase hex characters of
// the SHA-1 of its UTF-8 form (see [FileStore.Put] for how invalid UTF-8 is treated).
func Ref(content string) string {
	sum := sha1.Sum([]byte(strings.ToValidUTF8(content, "\uFFFD")))
	return hex.EncodeToString(sum[:])[:RefLen]
}

// ValidRef reports whether ref is well formed: 16 lowercase hex characters.
func ValidRef(ref string) bool {
	if len(ref) != RefLen {
		return false
	}
	for i := range len(ref) {
		if c := ref[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// FileStore is the [Store] that keeps one file per body in a spill
// directory; the package documentation describes the format. It is safe for
// concurrent use by goroutines and processes. Make one with [NewFileStore]:
// every operation of the zero FileStore fails with a *[storage.Error].
type FileStore struct {
	dir *safefs.Dir
	enc storage.Encoding

	afterTouch func() // tests only: see export_test.go
}

var _ Store = (*FileStore)(nil)

// NewFileStore returns a FileStore over spillDir, creating it (mode 0700) if
// needed. It refuses a symlinked spillDir and an invalid namespace or codec
// in enc (see [storage.Encoding.Frozen]); the error is a *[storage.Error].
// The zero enc stores plaintext.
func NewFileStore(spillDir string, enc storage.Encoding) (*FileStore, error) {
	enc, err := enc.Frozen()
	if err != nil {
		return nil, err
	}
	dir, err := safefs.Anchor(spillDir)
	if err != nil {
		return nil, spillError(err, "", "")
	}
	return &FileStore{dir: dir, enc: enc}, nil
}

// Dir returns the absolute path of the spill directory, or "" for a
// FileStore not made by NewFileStore.
func (s *FileStore) Dir() string {
	if s.dir == nil {
		return ""
	}
	return s.dir.Path()
}

// opened fails with a *storage.Error for the zero FileStore, which has no
// directory.
func (s *FileStore) opened() error {
	if s.dir == nil {
		return &storage.Error{Op: "open", Kind: storage.KindSpill, Message: "spill store was not opened with NewFileStore"}
	}
	return nil
}

// Put stores content and returns its ref. Content is stored as UTF-8:
// invalid byte sequences are replaced with U+FFFD before hashing and storing,
// which is also what a model would see.
//
// If the ref's file already exists and decodes to content, Put writes
// nothing but its modification time (now, where the store allows it), so
// that the sweep by age counts the body as in use; if a sweep holds the
// body's lock meanwhile, Put waits for it and writes the body again if the
// sweep removed it after all (its last look at the time came just before
// the refresh). If it exists but does not decode under the store's
// encoding (for example plaintext written before a codec was enabled), Put returns that
// *[storage.Error] and leaves the file as it is: converting data is an
// explicit migration. If it holds a different body whose ref is the same (a
// collision of the refs' 64 bits), Put returns a *[storage.Error] wrapping
// [ErrRefCollision] and leaves the stored body as it is: its ref may be in
// use. Otherwise the encoded body is written atomically with mode 0600,
// under the body's lock and after a second look, so that two Puts of
// colliding bodies cannot replace each other's. Errors are *[storage.Error]
// naming the file and the ref, or ctx.Err().
func (s *FileStore) Put(ctx context.Context, content string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := s.opened(); err != nil {
		return "", err
	}
	content = strings.ToValidUTF8(content, "\uFFFD")
	ref := Ref(content)
	got, ok, err := s.Get(ctx, ref)
	switch {
	case err != nil && !isMismatch(err):
		return "", err
	case err != nil:
		// The file holds something else than the body named by its ref
		// (damaged or replaced); rewriting it restores the only value the
		// name can have.
	case ok && got != content:
		return "", s.collision(ref)
	case ok:
		// The ref is handed out again: the sweep by age must count the
		// body as young, as it would a rewritten one. That is a help, not
		// a condition: a store that cannot be touched (mounted read-only,
		// say) still holds the body. Only a body removed since the read
		// (by a sweep) is written again.
		err := s.dir.Touch(fileName(ref), time.Now())
		if s.afterTouch != nil {
			s.afterTouch()
		}
		if !errors.Is(err, fs.ErrNotExist) && s.outlivesSweep(ctx, ref) {
			return ref, nil
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
	}
	if err := s.write(ctx, ref, content); err != nil {
		return "", err
	}
	return ref, nil
}

// write stores content as the body of ref, which had no body, or a
// damaged one, when Put looked. It takes the body's lock (as a sweep does)
// and looks again, so that of two Puts writing at once, the second sees
// the first's body: the same content is then kept as it is, and a
// different one is a collision that replaces nothing.
func (s *FileStore) write(ctx context.Context, ref, content string) error {
	l, err := s.dir.Lock(ctx, fileName(ref), filelock.Options{})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return s.fileError(err, ref)
	}
	defer l.Release()
	got, ok, err := s.Get(ctx, ref)
	switch {
	case err != nil && !isMismatch(err):
		return err
	case err == nil && ok && got != content:
		return s.collision(ref)
	case err == nil && ok:
		return nil
	}
	stored, err := s.enc.Encode(ctx, storage.KindSpill, Scope, ref, []byte(content))
	if err != nil {
		return s.fileError(err, ref)
	}
	if err := s.dir.WriteFile(fileName(ref), stored); err != nil {
		return s.fileError(err, ref)
	}
	return nil
}

// ErrRefCollision is the cause of the *[storage.Error] that a Put returns
// when the store already holds a different body under the ref of the body
// it was given: errors.Is(err, spill.ErrRefCollision). A ref is 64 bits of
// a SHA-1, so this takes billions of bodies in one project, or a body made
// to collide; the stored body is kept, and the new one is not stored.
var ErrRefCollision = errors.New("a different body has the same ref")

// collisionMessage reports a body whose ref another stored body has.
const collisionMessage = "Spilled content has the ref of a different stored body"

// CollisionError returns the error of a Put that found a different body
// stored under ref at file (a path, or a store's locator): a
// *[storage.Error] wrapping [ErrRefCollision].
func CollisionError(file, ref string) error {
	return (&storage.Error{Op: "write", Kind: storage.KindSpill, File: file, Record: ref, Message: collisionMessage}).WithCause(ErrRefCollision)
}

func (s *FileStore) collision(ref string) error {
	return CollisionError(filepath.Join(s.dir.Path(), fileName(ref)), ref)
}

// outlivesSweep reports whether the body of ref, whose modification time
// Put has just refreshed, is still there once no sweep that decided to
// remove it before the refresh can remove it any more. A sweep removes a
// body under the body's lock (<ref>.txt.lock), which it takes before its
// last look at the body's time and releases after the unlink: a refresh
// that falls between that look and the unlink does not save the body. So
// if the lock is there, Put waits for it as a store would (taking it, or
// taking it over if stale, and releasing it at once); then, or if it was
// not there (no sweep, or one that has released it already), the body is
// looked at once more. Without a lock in the way this costs two lstats.
func (s *FileStore) outlivesSweep(ctx context.Context, ref string) bool {
	name := fileName(ref)
	if _, err := s.dir.Lstat(name + filelock.Suffix); err == nil {
		// A read-only store cannot take the lock, and no sweep removes
		// anything from it: only ctx stops the look below.
		if l, err := s.dir.Lock(ctx, name, filelock.Options{}); err == nil {
			_ = l.Release()
		} else if ctx.Err() != nil {
			return false
		}
	}
	st, err := s.dir.Lstat(name)
	return err == nil && st.Mode().IsRegular()
}

// Get returns the content stored under ref. A malformed ref or a missing
// file yields ("", false, nil). A file that cannot be read, is a symlink,
// does not decode under the store's encoding, or whose body does not hash to
// ref is an error: a *[storage.Error] naming the file and the ref, or
// ctx.Err(). Get never changes a file.
func (s *FileStore) Get(ctx context.Context, ref string) (string, bool, error) {
	if err := ctx.Err(); err != nil {
		return "", false, err
	}
	if err := s.opened(); err != nil {
		return "", false, err
	}
	if !ValidRef(ref) {
		return "", false, nil
	}
	// Check the directory first so that a removed spill directory is an
	// error rather than a missing file.
	if err := s.dir.Check(); err != nil {
		return "", false, s.fileError(err, ref)
	}
	stored, err := s.dir.ReadFile(fileName(ref))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, s.fileError(err, ref)
	}
	plain, err := s.enc.Decode(ctx, storage.KindSpill, Scope, ref, stored)
	if err != nil {
		return "", false, s.fileError(err, ref)
	}
	content := string(plain)
	if Ref(content) != ref {
		return "", false, s.fileError(&storage.Error{Op: "read", Message: mismatchMessage}, ref)
	}
	return content, true, nil
}

// mismatchMessage reports a body that does not hash to its file's ref.
const mismatchMessage = "Spilled content does not match its ref"

func isMismatch(err error) bool {
	var se *storage.Error
	return errors.As(err, &se) && se.Message == mismatchMessage
}

func fileName(ref string) string { return ref + FileSuffix }

// fileError names the spill file and ref in err when err is a
// *storage.Error; other errors (ctx.Err()) pass unchanged.
func (s *FileStore) fileError(err error, ref string) error {
	return spillError(err, filepath.Join(s.dir.Path(), fileName(ref)), ref)
}

// spillError returns a copy of the *storage.Error in err marked with the
// spill kind and, where given, the file and ref.
func spillError(err error, file, ref string) error {
	var se *storage.Error
	if !errors.As(err, &se) {
		return err
	}
	c := *se
	c.Kind = storage.KindSpill
	if c.File == "" {
		c.File = file
	}
	if ref != "" {
		c.Record = ref
	}
	return &c
}

// MemoryStore is a [Store] that keeps bodies in memory, for tests and for
// agents that must not write spill files. It is safe for concurrent use.
// The zero value is an empty store, ready to use, as is the one
// [NewMemoryStore] returns.
type MemoryStore struct {
	mu     sync.Mutex
	bodies map[string]string // guarded by mu
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{bodies: make(map[string]string)}
}

// Put stores content and returns its ref, as [FileStore.Put] does.
func (m *MemoryStore) Put(ctx context.Context, content string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	content = strings.ToValidUTF8(content, "\uFFFD")
	ref := Ref(content)
	m.mu.Lock()
	defer m.mu.Unlock()
	if got, ok := m.bodies[ref]; ok && got != content {
		return "", CollisionError("", ref)
	}
	if m.bodies == nil { // the zero MemoryStore
		m.bodies = make(map[string]string)
	}
	m.bodies[ref] = content
	return ref, nil
}

// Get returns the content stored under ref, as [FileStore.Get] does.
func (m *MemoryStore) Get(ctx context.Context, ref string) (string, bool, error) {
	if err := ctx.Err(); err != nil {
		return "", false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.bodies[ref]
	return c, ok, nil
}
