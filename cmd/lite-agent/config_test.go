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
		c, err := buildCodec(codecNone, keySource{})
		if c != nil || err != nil {
			t.Errorf("buildCodec(none) = %v, %v; want nil, nil", c, err)
		}
	})
	for _, name := range []string{codecGzip, codecZstd, codecXChaCha, codecAES256GCM} {
		t.Run(name+" is not available yet", func(t *testing.T) {
			var key keySource
			if isAEAD(name) {
				key = keySource{env: "TEST_LITE_AGENT_CODEC_KEY"}
			}
			c, err := buildCodec(name, key)
			var se *storage.Error
			if c != nil || !errors.As(err, &se) {
				t.Fatalf("buildCodec(%s) = %v, %v; want a *storage.Error", name, c, err)
			}
			if want := "codec " + name + " is not available yet"; se.Message != want {
				t.Errorf("message = %q, want %q", se.Message, want)
			}
		})
	}
	t.Run("aead key is checked first", func(t *testing.T) {
		_, err := buildCodec(codecXChaCha, keySource{env: "TEST_LITE_AGENT_CODEC_UNSET"})
		if err == nil || !strings.Contains(err.Error(), "is not set") {
			t.Errorf("buildCodec error = %v, want the missing key reported", err)
		}
	})
}
