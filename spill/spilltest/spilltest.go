// Package spilltest checks that a spill.Store keeps the contract, in the
// manner of testing/fstest and testing/slogtest. Every implementation (the
// memory and file stores of package spill, a database backend) runs it:
//
//	func TestMyStore(t *testing.T) {
//		spilltest.Run(t, func(t *testing.T) spill.Store {
//			return newMyStore(t)
//		})
//	}
//
// A store that encodes its bodies with a storage.Encoding also runs
// [RunEncoded], which writes under one codec configuration and reads under
// others.
package spilltest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/testcodec"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Run runs the conformance suite as subtests of t. newStore is called once
// per subtest and must return an empty store.
func Run(t *testing.T, newStore func(t *testing.T) spill.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, s spill.Store)
	}{
		{"PutReturnsTheRefOfContent", testPutRef},
		{"BodiesRoundTrip", testRoundTrip},
		{"SameContentSameRef", testDedup},
		{"InvalidUTF8IsReplaced", testInvalidUTF8},
		{"UnknownRefIsNotAnError", testUnknownRef},
		{"MalformedRefIsNotFound", testMalformedRef},
		{"CancelledContextStoresNothing", testCancelled},
		{"ConcurrentPuts", testConcurrentPuts},
		{"CollidingBodyIsRefused", testCollision},
		{"ConcurrentCollidingPuts", testConcurrentCollision},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fn(t, newStore(t))
		})
	}
}

// An Opener opens the store under test with enc. Every call of one Opener
// opens the same store, empty before the first Put; enc carries the codec,
// namespace and project id to encode with. It returns the constructor's
// error, if any.
type Opener func(enc storage.Encoding) (spill.Store, error)

// RunEncoded runs the encoding suite as subtests of t: bodies put with
// plaintext, gzip, zstd or authenticated encryption read back the same
// through a store opened with the same configuration, and a store opened
// with any other configuration (another codec, no codec, the same key id
// with another key) fails Get with a *storage.Error and loses nothing.
// newOpener is called once per subtest.
func RunEncoded(t *testing.T, newOpener func(t *testing.T) Opener) {
	t.Helper()
	testcodec.Run(t, newOpener, testEncodedRoundTrip, testEncodedMismatch)
}

func mustPut(t *testing.T, s spill.Store, content string) string {
	t.Helper()
	ref, err := s.Put(t.Context(), content)
	if err != nil {
		t.Fatalf("Put(%d bytes): %v", len(content), err)
	}
	return ref
}

// wantBody fails t unless ref reads as content.
func wantBody(t *testing.T, s spill.Store, ref, content string) {
	t.Helper()
	got, ok, err := s.Get(t.Context(), ref)
	if err != nil || !ok || got != content {
		t.Errorf("Get(%s) = %d bytes, ok %v, %v; want the %d bytes put", ref, len(got), ok, err, len(content))
	}
}

// samples returns bodies worth storing: empty, short, multi-byte, with
// line breaks and NULs, and large. A body that is itself a storage
// envelope is left out: a plaintext file store refuses to read it back,
// as the storage format requires (see storage.Encoding.Decode).
func samples() map[string]string {
	return map[string]string{
		"empty":     "",
		"short":     "hello world",
		"multibyte": "h\u00e9llo \u2028 w\U0001F600rld",
		"lines":     "a\nb\r\nc\x00d\n",
		"large":     strings.Repeat("0123456789abcdef\n", 1<<16) + "end", // ~1 MiB
	}
}

func testPutRef(t *testing.T, s spill.Store) {
	for name, content := range samples() {
		ref := mustPut(t, s, content)
		if ref != spill.Ref(content) || !spill.ValidRef(ref) {
			t.Errorf("%s: Put = %q, want spill.Ref = %q", name, ref, spill.Ref(content))
		}
	}
	if got := spill.Ref("hello world"); got != "2aae6c35c94fcfb4" {
		t.Errorf(`Ref("hello world") = %q, want 2aae6c35c94fcfb4`, got)
	}
}

func testRoundTrip(t *testing.T, s spill.Store) {
	refs := map[string]string{}
	for name, content := range samples() {
		refs[name] = mustPut(t, s, content)
	}
	for name, content := range samples() {
		wantBody(t, s, refs[name], content)
	}
}

func testDedup(t *testing.T, s spill.Store) {
	a := mustPut(t, s, "same body")
	b := mustPut(t, s, "same body")
	if a != b {
		t.Errorf("refs %q and %q for one body", a, b)
	}
	c := mustPut(t, s, "other body")
	if c == a {
		t.Errorf("two bodies share ref %q", c)
	}
	wantBody(t, s, a, "same body")
	wantBody(t, s, c, "other body")
}

func testInvalidUTF8(t *testing.T, s spill.Store) {
	in := "ok \xff\xfe and \xc3"
	want := strings.ToValidUTF8(in, "\uFFFD")
	ref := mustPut(t, s, in)
	if ref != spill.Ref(want) || ref != spill.Ref(in) {
		t.Errorf("ref %q, want %q (the ref of the repaired text)", ref, spill.Ref(want))
	}
	wantBody(t, s, ref, want)
}

func testUnknownRef(t *testing.T, s spill.Store) {
	mustPut(t, s, "something")
	got, ok, err := s.Get(t.Context(), spill.Ref("never stored"))
	if ok || err != nil || got != "" {
		t.Errorf("Get(unknown) = %q, %v, %v; want \"\", false, nil", got, ok, err)
	}
}

func testMalformedRef(t *testing.T, s spill.Store) {
	ref := mustPut(t, s, "body")
	for _, bad := range []string{"", strings.ToUpper(ref), ref + "0", ref[:15], "../" + ref, ref + ".txt", "/etc/passwd", "zzzzzzzzzzzzzzzz"} {
		got, ok, err := s.Get(t.Context(), bad)
		if ok || err != nil || got != "" {
			t.Errorf("Get(%q) = %q, %v, %v; want \"\", false, nil", bad, got, ok, err)
		}
	}
}

func testCancelled(t *testing.T, s spill.Store) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Put(ctx, "cancelled body"); !errors.Is(err, context.Canceled) {
		t.Errorf("Put: %v, want context.Canceled", err)
	}
	if _, _, err := s.Get(ctx, spill.Ref("cancelled body")); !errors.Is(err, context.Canceled) {
		t.Errorf("Get: %v, want context.Canceled", err)
	}
	if _, ok, err := s.Get(t.Context(), spill.Ref("cancelled body")); ok || err != nil {
		t.Errorf("after a cancelled Put: found %v, %v; want nothing stored", ok, err)
	}
}

func testConcurrentPuts(t *testing.T, s spill.Store) {
	const writers = 8
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, writers*2)
	for w := range writers {
		wg.Go(func() {
			<-start
			for _, body := range []string{"shared body", fmt.Sprintf("body %d", w)} {
				ref, err := s.Put(t.Context(), body)
				if err == nil && ref != spill.Ref(body) {
					err = fmt.Errorf("Put(%q) = %q, want %q", body, ref, spill.Ref(body))
				}
				if err != nil {
					errs <- err
					return
				}
				if got, ok, err := s.Get(t.Context(), ref); err != nil || !ok || got != body {
					errs <- fmt.Errorf("Get(%s) right after Put = %q, %v, %v", ref, got, ok, err)
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	wantBody(t, s, spill.Ref("shared body"), "shared body")
	for w := range writers {
		body := fmt.Sprintf("body %d", w)
		wantBody(t, s, spill.Ref(body), body)
	}
}

// CollidingBodies returns two different bodies with the same ref: the first
// 64 bits of their SHA-1 agree. They were found by a collision search
// (Pollard's rho with distinguished points over the ref of
// "lite-agent spill ref collision <16 hex digits>"), which took about
// 2^32 hashes; a store must not let either replace the other.
func CollidingBodies() (a, b string) { return collisionA, collisionB }

const (
	collisionA = "lite-agent spill ref collision ad982fe458191164"
	collisionB = "lite-agent spill ref collision 1c793a9a6a09ec2e"
)

func colliding(t *testing.T) (a, b, ref string) {
	t.Helper()
	a, b = CollidingBodies()
	if a == b || spill.Ref(a) != spill.Ref(b) {
		t.Fatalf("CollidingBodies: %q and %q, refs %s and %s: not a collision", a, b, spill.Ref(a), spill.Ref(b))
	}
	return a, b, spill.Ref(a)
}

func testCollision(t *testing.T, s spill.Store) {
	a, b, ref := colliding(t)
	mustPut(t, s, a)
	got, err := s.Put(t.Context(), b)
	var se *storage.Error
	if !errors.Is(err, spill.ErrRefCollision) || !errors.As(err, &se) {
		t.Errorf("Put of a body colliding with a stored one = %q, %v; want a *storage.Error wrapping spill.ErrRefCollision", got, err)
	}
	wantBody(t, s, ref, a)
	if got := mustPut(t, s, a); got != ref {
		t.Errorf("Put of the stored body after the collision = %q, want %q", got, ref)
	}
	wantBody(t, s, ref, a)
}

// testConcurrentCollision puts two colliding bodies at once: one is
// stored, the other refused, and the ref names the one stored.
func testConcurrentCollision(t *testing.T, s spill.Store) {
	a, b, ref := colliding(t)
	bodies := []string{a, b}
	errs := make([]error, len(bodies))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, body := range bodies {
		wg.Go(func() {
			<-start
			_, errs[i] = s.Put(t.Context(), body)
		})
	}
	close(start)
	wg.Wait()
	stored := -1
	for i, err := range errs {
		switch {
		case err == nil && stored >= 0:
			t.Fatalf("both colliding Puts succeeded: the ref %s names one body for two callers", ref)
		case err == nil:
			stored = i
		case !errors.Is(err, spill.ErrRefCollision):
			t.Errorf("Put %d: %v, want nil or spill.ErrRefCollision", i, err)
		}
	}
	if stored < 0 {
		t.Fatalf("neither colliding Put succeeded: %v", errs)
	}
	wantBody(t, s, ref, bodies[stored])
}

func open(t *testing.T, o Opener, cfg testcodec.Config) spill.Store {
	t.Helper()
	s, err := o(cfg.Encoding)
	if err != nil {
		t.Fatalf("open with %s: %v", cfg.Name, err)
	}
	return s
}

func testEncodedRoundTrip(t *testing.T, o Opener, cfg testcodec.Config) {
	s := open(t, o, cfg)
	refs := map[string]string{}
	for name, content := range samples() {
		refs[name] = mustPut(t, s, content)
	}
	s = open(t, o, cfg)
	for name, content := range samples() {
		wantBody(t, s, refs[name], content)
		// Putting it again through the reopened store keeps it.
		if ref := mustPut(t, s, content); ref != refs[name] {
			t.Errorf("%s: ref %q on the second put, want %q", name, ref, refs[name])
		}
		wantBody(t, s, refs[name], content)
	}
}

func testEncodedMismatch(t *testing.T, o Opener, written, other testcodec.Config) {
	body := "spilled under " + written.Name
	ref := mustPut(t, open(t, o, written), body)
	s, err := o(other.Encoding)
	var se *storage.Error
	switch {
	case err != nil && !errors.As(err, &se):
		t.Fatalf("open with %s: %v, want success or a *storage.Error", other.Name, err)
	case err == nil:
		if got, ok, err := s.Get(t.Context(), ref); !errors.As(err, &se) {
			t.Errorf("Get under %s = %d bytes, %v, %v; want a *storage.Error", other.Name, len(got), ok, err)
		}
		// A Put of the same body must not replace the record with one
		// the writer cannot read: it either fails or leaves it alone.
		if _, err := s.Put(t.Context(), body); err != nil && !errors.As(err, &se) {
			t.Errorf("Put under %s: %v, want nil or a *storage.Error", other.Name, err)
		}
	}
	wantBody(t, open(t, o, written), ref, body)
}
