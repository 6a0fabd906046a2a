// Package testcodec supplies the codecs the conformance suites
// (task/tasktest, archive/archivetest, spill/spilltest) write records with:
// built-in codecs with fixed test keys, so that a suite can write under one
// configuration and read under another.
package testcodec

import (
	"context"
	"crypto/sha256"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// Namespace and ProjectID are the logical context every suite encodes
// under.
const (
	Namespace = "conformance"
	ProjectID = "0123456789abcdef"
)

// Key returns a fixed 32-byte test key derived from name.
func Key(name string) []byte {
	k := sha256.Sum256([]byte("lite-agent conformance key " + name))
	return k[:]
}

// AEAD returns an XChaCha20-Poly1305 codec with key id keyID whose key is
// Key(keyName). Two codecs with one keyID and different keyNames have the
// same id and different keys.
func AEAD(keyID, keyName string) storage.Codec {
	c, err := codec.NewAEAD(codec.AEADOptions{
		KeyID: keyID,
		Key: func(context.Context, string) ([]byte, error) {
			return Key(keyName), nil
		},
	})
	if err != nil {
		panic("testcodec: " + err.Error()) // fixed, valid options
	}
	return c
}

// Encoding returns the encoding of c under Namespace and ProjectID; a nil
// c stores plaintext.
func Encoding(c storage.Codec) storage.Encoding {
	return storage.Encoding{Codec: c, Namespace: Namespace, ProjectID: ProjectID}
}

// A Config names one encoding configuration a suite writes or reads
// with.
type Config struct {
	// Name describes the configuration in test names and messages.
	Name string
	// Encoding is the configuration.
	Encoding storage.Encoding
}

// Configs returns the configurations the suites try: plaintext, gzip,
// zstd, and AEAD under key id k1 with key "a".
func Configs() []Config {
	return []Config{
		{"plaintext", Encoding(nil)},
		{"gzip", Encoding(codec.Gzip())},
		{"zstd", Encoding(codec.Zstd())},
		{"aead-k1", Encoding(AEAD("k1", "a"))},
	}
}

// Mismatches returns, for a configuration written by Configs()[i], the
// configurations that must refuse to read it: every other configuration
// of Configs, plus, for the AEAD one, the same key id with another key.
func Mismatches(written Config) []Config {
	var out []Config
	for _, c := range Configs() {
		if c.Name != written.Name {
			out = append(out, c)
		}
	}
	if written.Name == "aead-k1" {
		out = append(out, Config{"aead-k1-wrong-key", Encoding(AEAD("k1", "b"))})
	}
	return out
}

// Run runs a suite's encoding tests as subtests of t: for each of
// Configs a subtest named after it that runs roundTrip ("RoundTrip") and,
// for each of its Mismatches, mismatch ("ReadAs-" and the other's name),
// each with a fresh opener from newOpener.
func Run[O any](t *testing.T, newOpener func(t *testing.T) O, roundTrip func(t *testing.T, o O, cfg Config),
	mismatch func(t *testing.T, o O, written, other Config)) {
	t.Helper()
	for _, cfg := range Configs() {
		t.Run(cfg.Name, func(t *testing.T) {
			t.Run("RoundTrip", func(t *testing.T) { roundTrip(t, newOpener(t), cfg) })
			for _, other := range Mismatches(cfg) {
				t.Run("ReadAs-"+other.Name, func(t *testing.T) { mismatch(t, newOpener(t), cfg, other) })
			}
		})
	}
}
