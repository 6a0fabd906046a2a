package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// given returns an optionalString set to s, as if the flag had been given.
func given(s string) optionalString { return optionalString{value: s, set: true} }

func TestStorageOptionsConvertsFlags(t *testing.T) {
	tests := []struct {
		name  string
		flags globalFlags
		want  storage.Options
	}{
		{"defaults", globalFlags{codec: codecNone}, storage.Options{}},
		{"namespace and home", globalFlags{namespace: given("acme"), home: given("/data/acme"), codec: codecNone}, storage.Options{Namespace: "acme", Home: "/data/acme"}},
		{"relative home is kept for resolution", globalFlags{home: given("data"), codec: codecNone}, storage.Options{Home: "data"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.flags.storageOptions()
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("storageOptions = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestStorageOptionsRejectsBadFlagsAsUsageErrors(t *testing.T) {
	tests := []struct {
		name  string
		flags globalFlags
	}{
		{"invalid namespace", globalFlags{namespace: given("a/b"), codec: codecNone}},
		{"backslash namespace", globalFlags{namespace: given(`a\b`), codec: codecNone}},
		{"whitespace home", globalFlags{home: given(" \t"), codec: codecNone}},
		{"unknown codec", globalFlags{codec: "GZIP"}},
		{"empty codec", globalFlags{codec: ""}},
		{"both key sources", globalFlags{codec: codecXChaCha, keyEnv: given("K"), keyFile: given("/k")}},
		{"aead without key", globalFlags{codec: codecXChaCha}},
		{"key without aead", globalFlags{codec: codecZstd, keyFile: given("/k")}},
		{"key variable with =", globalFlags{codec: codecAES256GCM, keyEnv: given("A=B")}},
		{"empty key file", globalFlags{codec: codecAES256GCM, keyFile: given("")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.flags.storageOptions()
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Errorf("storageOptions error = %v (%T), want a *usageError", err, err)
			}
		})
	}
}

func TestBuildCodec(t *testing.T) {
	t.Setenv("TEST_LITE_AGENT_CODEC_KEY", strings.Repeat("0f", keySize))
	t.Run("none is plaintext", func(t *testing.T) {
		c, err := buildCodec(codecNone, keySource{}, defaultKeyID)
		if c != nil || err != nil {
			t.Errorf("buildCodec(none) = %v, %v; want nil, nil", c, err)
		}
	})
	wantIDs := map[string]string{
		codecGzip:      "gzip-v1",
		codecZstd:      "zstd-v1",
		codecXChaCha:   "xchacha20poly1305.v1.k7",
		codecAES256GCM: "aes256gcm.v1.k7",
	}
	for name, wantID := range wantIDs {
		t.Run(name+" round-trips", func(t *testing.T) {
			var key keySource
			if isAEAD(name) {
				key = keySource{env: "TEST_LITE_AGENT_CODEC_KEY"}
			}
			c, err := buildCodec(name, key, "k7")
			if err != nil {
				t.Fatal(err)
			}
			if c.ID() != wantID {
				t.Errorf("ID() = %q, want %q", c.ID(), wantID)
			}
			enc := storage.Encoding{Codec: c}
			stored, err := enc.Encode(t.Context(), storage.KindTask, "l", "1", []byte(`{"id":"1"}`))
			if err != nil {
				t.Fatal(err)
			}
			got, err := enc.Decode(t.Context(), storage.KindTask, "l", "1", stored)
			if err != nil || string(got) != `{"id":"1"}` {
				t.Errorf("round trip = %q, %v", got, err)
			}
		})
	}
	t.Run("aead key is checked first", func(t *testing.T) {
		_, err := buildCodec(codecXChaCha, keySource{env: "TEST_LITE_AGENT_CODEC_UNSET"}, defaultKeyID)
		if err == nil || !strings.Contains(err.Error(), "is not set") {
			t.Errorf("buildCodec error = %v, want the missing key reported", err)
		}
	})
}

func TestKeyIDNeedsAnEncryptingCodec(t *testing.T) {
	g := &globalFlags{codec: codecGzip}
	g.keyID.Set("k2")
	var ue *usageError
	if _, err := g.storageOptions(); !errors.As(err, &ue) {
		t.Errorf("--key-id with gzip: %v, want a usage error", err)
	}
}
