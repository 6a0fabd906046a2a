package codec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// newCheck returns a Check of c, which must be a storage.Checker.
func newCheck(t *testing.T, c storage.Codec) storage.Check {
	t.Helper()
	ch, ok := c.(storage.Checker)
	if !ok {
		t.Fatalf("%T is no storage.Checker", c)
	}
	k := ch.NewCheck()
	if k == nil {
		t.Fatal("NewCheck returned nil")
	}
	return k
}

// decodeBoth decodes encoded with the codec's AppendDecode and with the
// Check's, and fails unless both give the same bytes or both fail with
// ErrAuthentication. It returns the Check's result.
func decodeBoth(t *testing.T, c storage.Codec, k storage.Check, encoded []byte, sc storage.Context) ([]byte, error) {
	t.Helper()
	want, wantErr := c.(storage.AppendDecoder).AppendDecode(t.Context(), nil, encoded, sc)
	got, err := k.AppendDecode(t.Context(), nil, encoded, sc)
	if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) ||
		err != nil && (!errors.Is(err, codec.ErrAuthentication) || !errors.Is(wantErr, codec.ErrAuthentication)) {
		t.Fatalf("Check.AppendDecode = %q, %v; the codec's = %q, %v", got, err, want, wantErr)
	}
	return got, err
}

// TestCheckAgreesWithCodec holds an AEAD codec's Check to the codec: what
// either seals, the other opens, and every payload the Check opens right
// after sealing it, with whatever it kept, fails or succeeds as the
// codec's own AppendDecode does: the payload itself, with any byte
// changed, under another context, and as another record's payload.
func TestCheckAgreesWithCodec(t *testing.T) {
	sc := storage.Context{Namespace: "acme", ProjectID: "0123abcd", Kind: storage.KindCheckpoint, ScopeID: "s-1", RecordID: "7"}
	other := []storage.Context{
		{Namespace: "acme", ProjectID: "0123abcd", Kind: storage.KindCheckpoint, ScopeID: "s-1", RecordID: "8"},
		{Namespace: "acme", ProjectID: "0123abcd", Kind: storage.KindCheckpoint, ScopeID: "s-2", RecordID: "7"},
		{Namespace: "acme", ProjectID: "0123abcd", Kind: storage.KindTask, ScopeID: "s-1", RecordID: "7"},
		{Namespace: "acme", ProjectID: "0123abce", Kind: storage.KindCheckpoint, ScopeID: "s-1", RecordID: "7"},
		{Namespace: "acmf", ProjectID: "0123abcd", Kind: storage.KindCheckpoint, ScopeID: "s-1", RecordID: "7"},
	}
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			c := newTestAEAD(t, alg, "k1", testKey("k1"))
			k := newCheck(t, c)
			for _, n := range []int{0, 1, 100, 470, 5000} {
				plain := sessionEvent(n)
				if n < 200 {
					plain = bytes.Repeat([]byte("a"), n)
				}
				// The codec's output opens under the Check, and the other way.
				enc, err := c.Encode(t.Context(), plain, sc)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := decodeBoth(t, c, k, enc, sc); err != nil || !bytes.Equal(got, plain) {
					t.Fatalf("codec's payload: %v", err)
				}
				sealed, err := k.AppendEncode(t.Context(), nil, plain, sc)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := c.Decode(t.Context(), sealed, sc); err != nil || !bytes.Equal(got, plain) {
					t.Fatalf("Check's payload under the codec: %v", err)
				}
				// Right after sealing: the payload, each changed byte, each
				// other context, and another record's payload.
				reseal := func() []byte {
					t.Helper()
					s, err := k.AppendEncode(t.Context(), nil, plain, sc)
					if err != nil {
						t.Fatal(err)
					}
					return s
				}
				if got, err := decodeBoth(t, c, k, reseal(), sc); err != nil || !bytes.Equal(got, plain) {
					t.Fatalf("own payload: %v", err)
				}
				// Every seal of a codec with one fixed nonce gives the same
				// bytes, so resealing restores what the Check kept for them.
				fc, err := codec.NewAEADWithNonces(codec.AEADOptions{Algorithm: alg, KeyID: "k1", Key: keyring(map[string][]byte{"k1": testKey("k1")})}, fixedNonces{})
				if err != nil {
					t.Fatal(err)
				}
				fk := newCheck(t, fc)
				s, err := fk.AppendEncode(t.Context(), nil, plain, sc)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < len(s); i++ {
					for _, bit := range []byte{0x01, 0x80} {
						bad := bytes.Clone(s)
						bad[i] ^= bit
						if _, err := decodeBoth(t, fc, fk, bad, sc); err == nil {
							t.Fatalf("byte %d changed: decoded", i)
						}
						if again, err := fk.AppendEncode(t.Context(), nil, plain, sc); err != nil || !bytes.Equal(again, s) {
							t.Fatalf("fixed nonce: %v", err)
						}
					}
					if i > 64 && i < len(s)-64 {
						i += 37 // sample the middle of long payloads
					}
				}
				for _, o := range other {
					reseal()
					if _, err := decodeBoth(t, c, k, sealed, o); err == nil {
						t.Fatalf("decoded under %+v", o)
					}
				}
				first := reseal()
				reseal()
				if got, err := decodeBoth(t, c, k, first, sc); err != nil || !bytes.Equal(got, plain) {
					t.Fatalf("an earlier payload: %v", err)
				}
				if _, err := decodeBoth(t, c, k, first[:len(first)-1], sc); err == nil {
					t.Fatal("truncated payload decoded")
				}
			}
		})
	}
}

// fixedNonces reads as an endless run of one byte value.
type fixedNonces struct{}

func (fixedNonces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 0x5a
	}
	return len(p), nil
}

// TestCheckFetchesTheKeyAgain checks that a Check asks the key callback
// again to open what it sealed, and opens nothing under a key that changed
// in between: it reuses what the seal derived only under the same key.
func TestCheckFetchesTheKeyAgain(t *testing.T) {
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			var calls atomic.Int64
			var rotated atomic.Bool
			c, err := codec.NewAEAD(codec.AEADOptions{Algorithm: alg, KeyID: "k1", Key: func(context.Context, string) ([]byte, error) {
				calls.Add(1)
				if rotated.Load() {
					return testKey("k2"), nil
				}
				return testKey("k1"), nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			k := newCheck(t, c)
			sc := storage.Context{Kind: storage.KindCheckpoint, ScopeID: "s", RecordID: "1"}
			sealed, err := k.AppendEncode(t.Context(), nil, []byte("hello"), sc)
			if err != nil {
				t.Fatal(err)
			}
			rotated.Store(true)
			before := calls.Load()
			if _, err := k.AppendDecode(t.Context(), nil, sealed, sc); !errors.Is(err, codec.ErrAuthentication) {
				t.Fatalf("opened under another key: %v", err)
			}
			if calls.Load() != before+1 {
				t.Errorf("key fetched %d times to open, want 1", calls.Load()-before)
			}
			// A failing key callback fails the open, as it fails Decode.
			failing, err := codec.NewAEAD(codec.AEADOptions{Algorithm: alg, KeyID: "k1", Key: func(context.Context, string) ([]byte, error) {
				if rotated.Load() {
					return nil, fmt.Errorf("gone")
				}
				return testKey("k1"), nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			rotated.Store(false)
			k = newCheck(t, failing)
			sealed, err = k.AppendEncode(t.Context(), nil, []byte("hello"), sc)
			if err != nil {
				t.Fatal(err)
			}
			rotated.Store(true)
			if _, err := k.AppendDecode(t.Context(), nil, sealed, sc); err == nil {
				t.Fatal("opened without a key")
			}
		})
	}
}

// FuzzCheckDecode seals a record with a Check and opens a changed copy of
// the payload with the same Check, which still holds what the seal
// derived: it must succeed or fail exactly as the codec's AppendDecode
// does, under the record's context or another record id.
//
//	go test -run '^$' -fuzz FuzzCheckDecode -fuzztime 60s ./storage/codec
func FuzzCheckDecode(f *testing.F) {
	f.Add([]byte(`{"seq":1}`), uint16(0), byte(0), "1", false)
	f.Add([]byte(`{"seq":1}`), uint16(30), byte(1), "1", true)
	f.Add([]byte{}, uint16(3), byte(0x80), "2", false)
	f.Add(bytes.Repeat([]byte("é"), 300), uint16(500), byte(0xff), `"`, true)
	cs := map[bool]storage.Codec{}
	for aes, alg := range map[bool]codec.Algorithm{false: codec.XChaCha20Poly1305, true: codec.AES256GCM} {
		c, err := codec.NewAEADWithNonces(codec.AEADOptions{Algorithm: alg, KeyID: "k1", Key: keyring(map[string][]byte{"k1": testKey("k1")})}, fixedNonces{})
		if err != nil {
			f.Fatal(err)
		}
		cs[aes] = c
	}
	f.Fuzz(func(t *testing.T, plain []byte, pos uint16, x byte, rec string, aes bool) {
		c := cs[aes]
		k := c.(storage.Checker).NewCheck()
		sc := storage.Context{Namespace: "lite-agent", ProjectID: "p", Kind: storage.KindCheckpoint, ScopeID: "s", RecordID: "1"}
		sealed, err := k.AppendEncode(t.Context(), nil, plain, sc)
		if err != nil {
			t.Fatal(err)
		}
		bad := bytes.Clone(sealed)
		if int(pos) < len(bad) {
			bad[pos] ^= x
		} else {
			bad = bad[:int(pos)%len(bad)]
		}
		sc.RecordID = rec
		want, wantErr := c.(storage.AppendDecoder).AppendDecode(t.Context(), nil, bad, sc)
		got, err := k.AppendDecode(t.Context(), nil, bad, sc)
		if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) {
			t.Fatalf("Check.AppendDecode = %q, %v; the codec's = %q, %v", got, err, want, wantErr)
		}
	})
}
