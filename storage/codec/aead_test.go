package codec_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// secretRecord is a plaintext whose text must never show up in an error.
const secretRecord = `{"type":"tool_result","text":"password=hunter2-SECRET-MARKER"}`

func TestNewAEADRejectsInvalidOptions(t *testing.T) {
	key := keyring(map[string][]byte{"k1": testKey("k1")})
	tests := []struct {
		name string
		opts codec.AEADOptions
	}{
		{"missing key id", codec.AEADOptions{Key: key}},
		{"key id starting with a dot", codec.AEADOptions{KeyID: ".k1", Key: key}},
		{"key id starting with a dash", codec.AEADOptions{KeyID: "-k1", Key: key}},
		{"key id with a slash", codec.AEADOptions{KeyID: "k/1", Key: key}},
		{"key id with a space", codec.AEADOptions{KeyID: "k 1", Key: key}},
		{"key id with a quote", codec.AEADOptions{KeyID: `k"1`, Key: key}},
		{"key id with non-ASCII", codec.AEADOptions{KeyID: "kë", Key: key}},
		{"key id making the codec id too long", codec.AEADOptions{KeyID: strings.Repeat("k", 128-len("xchacha20poly1305.v1.")+1), Key: key}},
		{"nil key callback", codec.AEADOptions{KeyID: "k1"}},
		{"unknown algorithm", codec.AEADOptions{Algorithm: codec.AES256GCM + 1, KeyID: "k1", Key: key}},
		{"negative algorithm", codec.AEADOptions{Algorithm: -1, KeyID: "k1", Key: key}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := codec.NewAEAD(tt.opts)
			if err == nil {
				t.Fatalf("NewAEAD succeeded with id %q", c.ID())
			}
			if c != nil {
				t.Errorf("NewAEAD returned a non-nil codec (%#v) with its error", c)
			}
		})
	}
}

func TestNewAEADAcceptsTheLongestKeyIDThatFits(t *testing.T) {
	for _, alg := range algorithms() {
		id := strings.Repeat("k", 128-len(alg.String()+".v1."))
		c := newTestAEAD(t, alg, id, testKey("k"))
		if len(c.ID()) != 128 {
			t.Errorf("%v: len(ID()) = %d, want 128", alg, len(c.ID()))
		}
	}
}

func TestAEADDefaultAlgorithmIsXChaCha20Poly1305(t *testing.T) {
	c, err := codec.NewAEAD(codec.AEADOptions{KeyID: "k1", Key: keyring(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.ID(), "xchacha20poly1305.v1.k1"; got != want {
		t.Errorf("ID() = %q, want %q", got, want)
	}
}

// TestAEADOutputFollowsTheDocumentedWireFormat decrypts the codec's output
// with the standard primitives and the associated data the package doc
// specifies, so that the doc stays the format's reference.
func TestAEADOutputFollowsTheDocumentedWireFormat(t *testing.T) {
	key := testKey("k1")
	sc := storage.Context{Namespace: "acme", ProjectID: "0123abcd", Kind: storage.KindCheckpoint, ScopeID: "s-1", RecordID: "7"}
	const contextJSON = `{"namespace":"acme","projectId":"0123abcd","kind":"checkpoint","scopeId":"s-1","recordId":"7"}`
	tests := []struct {
		alg       codec.Algorithm
		nonceSize int
		open      func(t *testing.T) cipher.AEAD
	}{
		{codec.XChaCha20Poly1305, 24, func(t *testing.T) cipher.AEAD {
			a, err := chacha20poly1305.NewX(key)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}},
		{codec.AES256GCM, 12, func(t *testing.T) cipher.AEAD {
			b, err := aes.NewCipher(key)
			if err != nil {
				t.Fatal(err)
			}
			a, err := cipher.NewGCM(b)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}},
	}
	for _, tt := range tests {
		t.Run(tt.alg.String(), func(t *testing.T) {
			c := newTestAEAD(t, tt.alg, "k1", key)
			out, err := c.Encode(t.Context(), []byte(secretRecord), sc)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.nonceSize + len(secretRecord) + 16; len(out) != want {
				t.Fatalf("len(output) = %d, want nonce %d + plaintext %d + tag 16 = %d", len(out), tt.nonceSize, len(secretRecord), want)
			}
			ad := []byte(tt.alg.String() + ".v1.k1" + "\x00" + contextJSON)
			got, err := tt.open(t).Open(nil, out[:tt.nonceSize], out[tt.nonceSize:], ad)
			if err != nil {
				t.Fatalf("standard %v cannot open the output with AD %q: %v", tt.alg, ad, err)
			}
			if string(got) != secretRecord {
				t.Errorf("opened %q, want %q", got, secretRecord)
			}
		})
	}
}

// Nonces are drawn ahead in batches (XChaCha20-Poly1305): many records
// from several goroutines at once, across batch boundaries, must still
// each get their own.
func TestAEADNoncesAreFreshForEveryRecord(t *testing.T) {
	const goroutines, perGoroutine = 4, 500
	for _, alg := range algorithms() {
		c := newTestAEAD(t, alg, "k1", testKey("k1"))
		size := chacha20poly1305.NonceSizeX
		if alg == codec.AES256GCM {
			size = 12
		}
		nonces := make([][]string, goroutines)
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for range perGoroutine {
					out, err := c.Encode(t.Context(), []byte("same"), storage.Context{})
					if err != nil {
						t.Error(err)
						return
					}
					nonces[g] = append(nonces[g], string(out[:size]))
				}
			})
		}
		wg.Wait()
		seen := map[string]bool{}
		for _, ns := range nonces {
			for _, nonce := range ns {
				if seen[nonce] {
					t.Fatalf("%v: nonce %x repeated", alg, nonce)
				}
				seen[nonce] = true
			}
		}
		if len(seen) != goroutines*perGoroutine {
			t.Fatalf("%v: %d nonces, want %d", alg, len(seen), goroutines*perGoroutine)
		}
	}
}

func TestAEADPayloadMovedToAnotherContextFailsToDecode(t *testing.T) {
	for _, alg := range algorithms() {
		c := newTestAEAD(t, alg, "k1", testKey("k1"))
		base := storage.Encoding{Codec: c, Namespace: "acme", ProjectID: "p1"}
		stored, err := base.Encode(t.Context(), storage.KindCheckpoint, "s1", "1", []byte(secretRecord))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := base.Decode(t.Context(), storage.KindCheckpoint, "s1", "1", stored); err != nil {
			t.Fatalf("%v: the record does not decode in its own context: %v", alg, err)
		}
		moves := []struct {
			name          string
			enc           storage.Encoding
			kind          storage.Kind
			scope, record string
		}{
			{"to another record", base, storage.KindCheckpoint, "s1", "2"},
			{"to another session", base, storage.KindCheckpoint, "s2", "1"},
			{"to another kind", base, storage.KindTask, "s1", "1"},
			{"to another namespace", storage.Encoding{Codec: c, Namespace: "other", ProjectID: "p1"}, storage.KindCheckpoint, "s1", "1"},
			{"to another project", storage.Encoding{Codec: c, Namespace: "acme", ProjectID: "p2"}, storage.KindCheckpoint, "s1", "1"},
			{"to the default namespace and project", storage.Encoding{Codec: c}, storage.KindCheckpoint, "s1", "1"},
			{"to a record id equal to the old scope", base, storage.KindCheckpoint, "1", "s1"},
		}
		for _, m := range moves {
			t.Run(alg.String()+"/"+m.name, func(t *testing.T) {
				got, err := m.enc.Decode(t.Context(), m.kind, m.scope, m.record, stored)
				se := asStorageError(t, err)
				if se.Op != "decode" || got != nil {
					t.Errorf("Decode = %q, %v (op %q); want no bytes and a decode error", got, err, se.Op)
				}
				// The codec itself says why.
				payload := payloadOf(t, stored)
				if _, err := c.Decode(t.Context(), payload, m.enc.Context(m.kind, m.scope, m.record)); !errors.Is(err, codec.ErrAuthentication) {
					t.Errorf("codec Decode: err = %v, want ErrAuthentication", err)
				}
			})
		}
	}
}

func TestAEADWrongKeyFailsToDecode(t *testing.T) {
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			writer := newTestAEAD(t, alg, "k1", testKey("k1"))
			reader := newTestAEAD(t, alg, "k1", testKey("another"))
			sc := storage.Context{Kind: storage.KindArchive, ScopeID: "s", RecordID: "r"}
			out, err := writer.Encode(t.Context(), []byte(secretRecord), sc)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := reader.Decode(t.Context(), out, sc); !errors.Is(err, codec.ErrAuthentication) || got != nil {
				t.Errorf("Decode with the wrong key = %q, %v; want ErrAuthentication", got, err)
			}
			stored, err := storage.Encoding{Codec: writer}.Encode(t.Context(), storage.KindArchive, "s", "r", []byte(secretRecord))
			if err != nil {
				t.Fatal(err)
			}
			got, err := storage.Encoding{Codec: reader}.Decode(t.Context(), storage.KindArchive, "s", "r", stored)
			asStorageError(t, err)
			if got != nil {
				t.Errorf("Encoding.Decode with the wrong key returned %q", got)
			}
		})
	}
}

func TestAEADChangedKeyIDFailsToDecode(t *testing.T) {
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			key := testKey("shared")
			k1 := newTestAEAD(t, alg, "k1", key)
			k2 := newTestAEAD(t, alg, "k2", key) // same key bytes, other id
			sc := storage.Context{Kind: storage.KindTask, ScopeID: "list", RecordID: "t1"}

			// The codec binds its id: same key bytes, other id, no plaintext.
			out, err := k1.Encode(t.Context(), []byte(secretRecord), sc)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := k2.Decode(t.Context(), out, sc); !errors.Is(err, codec.ErrAuthentication) || got != nil {
				t.Errorf("k2.Decode(k1 output) = %q, %v; want ErrAuthentication", got, err)
			}

			// Through Encoding: refused as written, and refused when the
			// envelope is edited to name the other key id.
			stored, err := storage.Encoding{Codec: k1}.Encode(t.Context(), storage.KindTask, "list", "t1", []byte(secretRecord))
			if err != nil {
				t.Fatal(err)
			}
			relabelled := bytes.Replace(stored, []byte(k1.ID()), []byte(k2.ID()), 1)
			for name, in := range map[string][]byte{"as written": stored, "relabelled": relabelled} {
				got, err := storage.Encoding{Codec: k2}.Decode(t.Context(), storage.KindTask, "list", "t1", in)
				asStorageError(t, err)
				if got != nil {
					t.Errorf("%s: Decode returned %q", name, got)
				}
			}
		})
	}
}

func TestAEADEverySingleBitFlipOfCodecOutputFails(t *testing.T) {
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			c := newTestAEAD(t, alg, "k1", testKey("k1"))
			sc := storage.Context{Namespace: "n", ProjectID: "p", Kind: storage.KindCheckpoint, ScopeID: "s", RecordID: "3"}
			out, err := c.Encode(t.Context(), []byte(secretRecord), sc)
			if err != nil {
				t.Fatal(err)
			}
			for bit := range len(out) * 8 {
				mutated := bytes.Clone(out)
				mutated[bit/8] ^= 1 << (bit % 8)
				if got, err := c.Decode(t.Context(), mutated, sc); !errors.Is(err, codec.ErrAuthentication) || got != nil {
					t.Fatalf("flipping bit %d: Decode = %q, %v; want ErrAuthentication", bit, got, err)
				}
			}
		})
	}
}

func TestAEADTruncatedOrExtendedOutputFails(t *testing.T) {
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			var calls atomic.Int64
			key := testKey("k1")
			c, err := codec.NewAEAD(codec.AEADOptions{Algorithm: alg, KeyID: "k1", Key: func(context.Context, string) ([]byte, error) {
				calls.Add(1)
				return key, nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			sc := storage.Context{Kind: storage.KindSpill, ScopeID: "project", RecordID: "ref"}
			out, err := c.Encode(t.Context(), []byte("{}"), sc)
			if err != nil {
				t.Fatal(err)
			}
			for n := range len(out) {
				if got, err := c.Decode(t.Context(), out[:n], sc); !errors.Is(err, codec.ErrAuthentication) || got != nil {
					t.Fatalf("first %d of %d bytes: Decode = %q, %v; want ErrAuthentication", n, len(out), got, err)
				}
			}
			if got, err := c.Decode(t.Context(), append(bytes.Clone(out), 0), sc); !errors.Is(err, codec.ErrAuthentication) || got != nil {
				t.Fatalf("one extra byte: Decode = %q, %v; want ErrAuthentication", got, err)
			}
			// A payload shorter than nonce and tag is refused without a key:
			// out is that minimum plus the 2 bytes of "{}", so the key is
			// fetched by Encode, by the 2 truncations at or above the
			// minimum and by the extended payload.
			if got := calls.Load(); got != 4 {
				t.Errorf("key callback called %d times, want 4", got)
			}
		})
	}
}

func TestAEADEverySingleBitFlipOfTheEnvelopeFailsThroughEncoding(t *testing.T) {
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			enc := storage.Encoding{Codec: newTestAEAD(t, alg, "k1", testKey("k1")), Namespace: "acme", ProjectID: "p"}
			stored, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s", "9", []byte(secretRecord))
			if err != nil {
				t.Fatal(err)
			}
			for bit := range len(stored) * 8 {
				mutated := bytes.Clone(stored)
				mutated[bit/8] ^= 1 << (bit % 8)
				got, err := enc.Decode(t.Context(), storage.KindCheckpoint, "s", "9", mutated)
				if got != nil {
					t.Fatalf("flipping bit %d of the envelope: Decode returned %q", bit, got)
				}
				asStorageError(t, err)
			}
		})
	}
}

func TestAEADErrorsRevealNeitherKeyNorPlaintext(t *testing.T) {
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			key := testKey("k1")
			c := newTestAEAD(t, alg, "k1", key)
			wrongKey := newTestAEAD(t, alg, "k1", testKey("wrong"))
			shortKey := newTestAEAD(t, alg, "k1", key[:16])
			sc := storage.Context{Kind: storage.KindCheckpoint, ScopeID: "s", RecordID: "1"}
			enc := storage.Encoding{Codec: c}
			out, err := c.Encode(t.Context(), []byte(secretRecord), sc)
			if err != nil {
				t.Fatal(err)
			}
			stored, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s", "1", []byte(secretRecord))
			if err != nil {
				t.Fatal(err)
			}
			flipped := bytes.Clone(out)
			flipped[len(flipped)/2] ^= 0x10

			var errs []error
			collect := func(_ []byte, err error) {
				if err == nil {
					t.Fatal("a decode that must fail succeeded")
				}
				errs = append(errs, err)
			}
			collect(c.Decode(t.Context(), flipped, sc))
			collect(c.Decode(t.Context(), out[:20], sc))
			collect(c.Decode(t.Context(), out, storage.Context{Kind: storage.KindCheckpoint, ScopeID: "s", RecordID: "2"}))
			collect(wrongKey.Decode(t.Context(), out, sc))
			collect(shortKey.Decode(t.Context(), out, sc))
			collect(shortKey.Encode(t.Context(), []byte(secretRecord), sc))
			collect(enc.Decode(t.Context(), storage.KindCheckpoint, "s", "2", stored))
			collect(storage.Encoding{Codec: wrongKey}.Decode(t.Context(), storage.KindCheckpoint, "s", "1", stored))

			forbidden := []string{
				string(key),
				hex.EncodeToString(key),
				strings.ToUpper(hex.EncodeToString(key)),
				base64.StdEncoding.EncodeToString(key),
				base64.RawStdEncoding.EncodeToString(key),
				base64.URLEncoding.EncodeToString(key),
				base64.RawURLEncoding.EncodeToString(key),
				string(key[:8]),
				hex.EncodeToString(key[:8]),
				secretRecord,
				"hunter2",
				"SECRET-MARKER",
			}
			for _, err := range errs {
				for _, f := range forbidden {
					if strings.Contains(err.Error(), f) {
						t.Errorf("error %q contains key or plaintext material %q", err, f)
					}
				}
			}
		})
	}
}

func TestAEADKeyCallbackErrorFailsEncodeAndIsHiddenByEncoding(t *testing.T) {
	cbErr := errors.New("vault unreachable: token s3cr3t-t0ken")
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			c, err := codec.NewAEAD(codec.AEADOptions{Algorithm: alg, KeyID: "k1", Key: func(context.Context, string) ([]byte, error) {
				return nil, cbErr
			}})
			if err != nil {
				t.Fatal(err)
			}
			sc := storage.Context{Kind: storage.KindCheckpoint, ScopeID: "s", RecordID: "1"}
			if _, err := c.Encode(t.Context(), []byte("{}"), sc); !errors.Is(err, cbErr) {
				t.Errorf("codec Encode: err = %v, want it to wrap the callback's error", err)
			}
			payload := make([]byte, 64) // long enough to need a key
			if _, err := c.Decode(t.Context(), payload, sc); !errors.Is(err, cbErr) {
				t.Errorf("codec Decode: err = %v, want it to wrap the callback's error", err)
			}

			enc := storage.Encoding{Codec: c}
			got, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s", "1", []byte(secretRecord))
			se := asStorageError(t, err)
			if got != nil || se.Op != "encode" {
				t.Errorf("Encoding.Encode = %q, %v (op %q); want no bytes and an encode error", got, err, se.Op)
			}
			if errors.Is(err, cbErr) || strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "vault") {
				t.Errorf("Encoding.Encode error %q exposes the callback's error", err)
			}
		})
	}
}

func TestAEADKeyOfWrongLengthFails(t *testing.T) {
	for _, alg := range algorithms() {
		for _, n := range []int{0, 16, 24, 31, 33, 64} {
			key := bytes.Repeat([]byte{0x42}, n)
			c := newTestAEAD(t, alg, "k1", key)
			sc := storage.Context{Kind: storage.KindCheckpoint}
			if out, err := c.Encode(t.Context(), []byte("{}"), sc); err == nil {
				t.Errorf("%v: Encode with a %d-byte key succeeded (%d bytes)", alg, n, len(out))
			}
			if out, err := c.Decode(t.Context(), make([]byte, 64), sc); err == nil {
				t.Errorf("%v: Decode with a %d-byte key succeeded (%q)", alg, n, out)
			}
		}
	}
}

func TestAEADFetchesTheKeyOnEveryCallAndLeavesItUntouched(t *testing.T) {
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			key := testKey("k1")
			orig := bytes.Clone(key)
			var calls atomic.Int64
			var ids []string
			c, err := codec.NewAEAD(codec.AEADOptions{Algorithm: alg, KeyID: "2025-06_a.b", Key: func(_ context.Context, id string) ([]byte, error) {
				calls.Add(1)
				ids = append(ids, id)
				return key, nil // the host's own slice
			}})
			if err != nil {
				t.Fatal(err)
			}
			sc := storage.Context{Kind: storage.KindCheckpoint}
			for range 3 {
				out, err := c.Encode(t.Context(), []byte("{}"), sc)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.Decode(t.Context(), out, sc); err != nil {
					t.Fatal(err)
				}
			}
			if got := calls.Load(); got != 6 {
				t.Errorf("key callback called %d times for 3 encodes and 3 decodes, want 6", got)
			}
			for _, id := range ids {
				if id != "2025-06_a.b" {
					t.Errorf("key callback asked for %q, want the configured key id", id)
				}
			}
			if !bytes.Equal(key, orig) {
				t.Error("the codec modified the slice the key callback returned")
			}
		})
	}
}

func TestAEADOldKeyIDStillDecodesAfterRotation(t *testing.T) {
	keys := keyring(map[string][]byte{"k1": testKey("k1"), "k2": testKey("k2")})
	old, err := codec.NewAEAD(codec.AEADOptions{KeyID: "k1", Key: keys})
	if err != nil {
		t.Fatal(err)
	}
	cur, err := codec.NewAEAD(codec.AEADOptions{KeyID: "k2", Key: keys})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := storage.Encoding{Codec: old}.Encode(t.Context(), storage.KindTask, "l", "t", []byte(secretRecord))
	if err != nil {
		t.Fatal(err)
	}
	// The new codec refuses the old record: migration is explicit…
	if _, err := (storage.Encoding{Codec: cur}).Decode(t.Context(), storage.KindTask, "l", "t", stored); err == nil {
		t.Fatal("a k2 codec decoded a k1 record")
	}
	// …and reads it with the old codec, whose key the host still serves.
	got, err := storage.Encoding{Codec: old}.Decode(t.Context(), storage.KindTask, "l", "t", stored)
	if err != nil || string(got) != secretRecord {
		t.Fatalf("k1 codec Decode = %q, %v", got, err)
	}
}

// payloadOf returns the decoded payload of a canonical envelope.
func payloadOf(t *testing.T, stored []byte) []byte {
	t.Helper()
	const marker = `"payload":"`
	i := bytes.Index(stored, []byte(marker))
	if i < 0 || !bytes.HasSuffix(stored, []byte(`"}`)) {
		t.Fatalf("not an envelope: %.80s", stored)
	}
	p, err := base64.StdEncoding.DecodeString(string(stored[i+len(marker) : len(stored)-2]))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAEADUsesTheKeyTheCallbackReturnsNow checks that the codec's cache of
// the last key's cipher never outlives the key: when the callback starts
// returning another key (or the host changes the bytes of the slice it
// returns), the very next call uses it.
func TestAEADUsesTheKeyTheCallbackReturnsNow(t *testing.T) {
	for _, alg := range algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			var current atomic.Pointer[[]byte]
			a, b := testKey("a"), testKey("b")
			current.Store(&a)
			c, err := codec.NewAEAD(codec.AEADOptions{Algorithm: alg, KeyID: "k1", Key: func(context.Context, string) ([]byte, error) {
				return *current.Load(), nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			sc := storage.Context{Kind: storage.KindCheckpoint}
			underA, err := c.Encode(t.Context(), []byte("{}"), sc)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Decode(t.Context(), underA, sc); err != nil {
				t.Fatal(err)
			}
			current.Store(&b)
			if _, err := c.Decode(t.Context(), underA, sc); !errors.Is(err, codec.ErrAuthentication) {
				t.Fatalf("decode under another key = %v, want ErrAuthentication", err)
			}
			underB, err := c.Encode(t.Context(), []byte("{}"), sc)
			if err != nil {
				t.Fatal(err)
			}
			// The host rewrites its slice in place: the new bytes count.
			same := bytes.Clone(a)
			current.Store(&same)
			if _, err := c.Decode(t.Context(), underB, sc); !errors.Is(err, codec.ErrAuthentication) {
				t.Fatalf("decode of a key-b record under key a = %v", err)
			}
			copy(same, b)
			if _, err := c.Decode(t.Context(), underB, sc); err != nil {
				t.Fatalf("decode after the host rewrote its key slice = %v", err)
			}
		})
	}
}
