package spill_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

func aead(t *testing.T, alg codec.Algorithm, keyID string, key []byte) storage.Codec {
	t.Helper()
	c, err := codec.NewAEAD(codec.AEADOptions{
		Algorithm: alg,
		KeyID:     keyID,
		Key: func(_ context.Context, id string) ([]byte, error) {
			if id != keyID {
				return nil, errors.New("unknown key " + id)
			}
			return key, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCodecMatrix(t *testing.T) {
	key := bytes.Repeat([]byte{7}, codec.KeySize)
	otherKey := bytes.Repeat([]byte{8}, codec.KeySize)
	tests := []struct {
		name      string
		codec     func(t *testing.T) storage.Codec
		wrongKey  func(t *testing.T) storage.Codec // nil: the codec has no key
		encrypted bool
	}{
		{"Gzip", func(*testing.T) storage.Codec { return codec.Gzip() }, nil, false},
		{"Zstd", func(*testing.T) storage.Codec { return codec.Zstd() }, nil, false},
		{"XChaCha20Poly1305",
			func(t *testing.T) storage.Codec { return aead(t, codec.XChaCha20Poly1305, "k1", key) },
			func(t *testing.T) storage.Codec { return aead(t, codec.XChaCha20Poly1305, "k1", otherKey) }, true},
		{"AES256GCM",
			func(t *testing.T) storage.Codec { return aead(t, codec.AES256GCM, "k1", key) },
			func(t *testing.T) storage.Codec { return aead(t, codec.AES256GCM, "k1", otherKey) }, true},
	}
	body := "needle-in-output " + strings.Repeat("tool output line\n", 2000)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "spill")
			enc := storage.Encoding{Codec: tt.codec(t), Namespace: "acme", ProjectID: "0123456789abcdef"}
			s := newStore(t, dir, enc)
			ref, err := s.Put(t.Context(), body)
			if err != nil {
				t.Fatal(err)
			}
			raw := readFile(t, spillPath(s, ref))
			if bytes.Contains(raw, []byte("needle")) {
				t.Fatal("encoded file holds plaintext")
			}
			// A second instance with an equal configuration reads it.
			got, ok, err := newStore(t, dir, storage.Encoding{Codec: tt.codec(t), Namespace: "acme", ProjectID: "0123456789abcdef"}).Get(t.Context(), ref)
			if err != nil || !ok || got != body {
				t.Fatalf("Get = %v, %v", ok, err)
			}
			// Without the codec the file is refused, never shown raw.
			if _, _, err := newStore(t, dir, storage.Encoding{}).Get(t.Context(), ref); !strings.Contains(storageError(t, err).Message, "requires its configured codec") {
				t.Fatalf("Get without codec = %v", err)
			}
			if tt.wrongKey != nil {
				_, _, err := newStore(t, dir, storage.Encoding{Codec: tt.wrongKey(t), Namespace: "acme", ProjectID: "0123456789abcdef"}).Get(t.Context(), ref)
				if se := storageError(t, err); se.Message != "Storage decode failed (spill)" {
					t.Fatalf("Get with wrong key = %v", err)
				}
				// The context is bound: the same file under another
				// project, or another ref, does not decode.
				moved := newStore(t, dir, storage.Encoding{Codec: tt.codec(t), Namespace: "acme", ProjectID: "fedcba9876543210"})
				if _, _, err := moved.Get(t.Context(), ref); err == nil {
					t.Fatal("record decoded under another project id")
				}
				other := spill.Ref("other")
				writeFile(t, spillPath(s, other), raw)
				if _, _, err := s.Get(t.Context(), other); err == nil {
					t.Fatal("record decoded under another ref")
				}
			}
			if !bytes.Equal(readFile(t, spillPath(s, ref)), raw) {
				t.Fatal("reads changed the file")
			}
		})
	}
}
