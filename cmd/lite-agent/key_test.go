package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testKey returns 32 distinct bytes.
func testKey() []byte {
	key := make([]byte, keySize)
	for i := range key {
		key[i] = byte(0xa0 + i)
	}
	return key
}

func TestParseKeyAcceptsHexAndBase64(t *testing.T) {
	key := testKey()
	hexKey := hex.EncodeToString(key)
	b64Key := base64.StdEncoding.EncodeToString(key)
	tests := []struct {
		name, text string
	}{
		{"lowercase hex", hexKey},
		{"uppercase hex", strings.ToUpper(hexKey)},
		{"base64", b64Key},
		{"hex with trailing newline", hexKey + "\n"},
		{"hex with surrounding whitespace", " \t" + hexKey + "\r\n\n"},
		{"base64 with trailing newline", b64Key + "\n"},
		{"base64 with surrounding whitespace", "\n  " + b64Key + " \t\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseKey([]byte(tt.text))
			if err != nil {
				t.Fatalf("parseKey: %v", err)
			}
			if !bytes.Equal(got, key) {
				t.Errorf("parseKey = %x, want %x", got, key)
			}
		})
	}
}

func TestParseKeyRejectsAnythingButThirtyTwoBytes(t *testing.T) {
	key := testKey()
	hexKey := hex.EncodeToString(key)
	b64Key := base64.StdEncoding.EncodeToString(key)
	tests := []struct {
		name, text string
	}{
		{"empty", ""},
		{"only whitespace", " \n\t "},
		{"31 bytes of hex", hexKey[:62]},
		{"33 bytes of hex", hexKey + "ab"},
		{"odd hex length", hexKey[:63]},
		{"64 characters that are not hex", "g" + hexKey[1:]},
		{"31 bytes of base64", base64.StdEncoding.EncodeToString(key[:31])},
		{"33 bytes of base64", base64.StdEncoding.EncodeToString(append(key, 1))},
		{"unpadded base64", base64.RawStdEncoding.EncodeToString(key)},
		{"url-safe base64", base64.URLEncoding.EncodeToString(bytes.Repeat([]byte{0xfb}, keySize))},
		{"base64 with inner whitespace", b64Key[:20] + " " + b64Key[21:]},
		{"hex with inner whitespace", hexKey[:30] + " " + hexKey[31:]},
		{"raw 32 bytes", string(key)},
		{"48 bytes of base64 in 64 characters", base64.StdEncoding.EncodeToString(bytes.Repeat(key, 2)[:48])},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseKey([]byte(tt.text))
			if !errors.Is(err, errMalformedKey) {
				t.Errorf("parseKey = %x, %v; want errMalformedKey", got, err)
			}
		})
	}
}

func TestKeyErrorsNeverContainKeyMaterial(t *testing.T) {
	// Almost-keys that differ from a valid key by one character or one byte,
	// as a mistyped real key would.
	secrets := []string{
		"SECRETxx" + strings.Repeat("5eC7e7", 9) + "zz", // 64 characters, not hex
		strings.Repeat("c0ffee", 10) + "c0f",            // 63 hex characters
		strings.Repeat("c0ffee", 11),                    // 66 hex characters
		base64.StdEncoding.EncodeToString([]byte("a secret key that is too short")),
		"S3cr3t!K3y/w1th+a~b4d/char" + strings.Repeat("Q", 17) + "=",
	}
	for _, secret := range secrets {
		env := "TEST_LITE_AGENT_K"
		t.Setenv(env, secret)
		file := filepath.Join(t.TempDir(), "key")
		if err := os.WriteFile(file, []byte(secret+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, parseErr := parseKey([]byte(secret))
		_, envErr := keySource{env: env}.load()
		_, fileErr := keySource{file: file}.load()
		for _, err := range []error{parseErr, envErr, fileErr} {
			if err == nil {
				t.Fatalf("secret %q was accepted", secret)
			}
			if leaked := sharedRun(err.Error(), secret, 6); leaked != "" {
				t.Errorf("error %q shows key material %q", err, leaked)
			}
		}

		r := runCLI(t, "paths", "--workdir", "/srv/app", "--codec", "xchacha20poly1305", "--key-env", env)
		if r.code != exitFailure {
			t.Errorf("code = %d, want %d", r.code, exitFailure)
		}
		if leaked := sharedRun(r.stderr, secret, 6); leaked != "" {
			t.Errorf("stderr %q shows key material %q", r.stderr, leaked)
		}
	}
}

// sharedRun returns a substring of secret of n characters that occurs in
// text, or "" if there is none.
func sharedRun(text, secret string, n int) string {
	for i := 0; i+n <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+n]) {
			return secret[i : i+n]
		}
	}
	return ""
}

func TestKeySourceLoadsFromEnvironmentAndFile(t *testing.T) {
	key := testKey()
	t.Setenv("TEST_LITE_AGENT_HEX_KEY", hex.EncodeToString(key))
	t.Setenv("TEST_LITE_AGENT_EMPTY_KEY", "")
	dir := t.TempDir()
	b64File := filepath.Join(dir, "b64")
	if err := os.WriteFile(b64File, []byte(base64.StdEncoding.EncodeToString(key)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bigFile := filepath.Join(dir, "big")
	if err := os.WriteFile(bigFile, bytes.Repeat([]byte(" "), maxKeyFileSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		src     keySource
		wantErr string // "" means success
	}{
		{"hex from environment", keySource{env: "TEST_LITE_AGENT_HEX_KEY"}, ""},
		{"base64 from file", keySource{file: b64File}, ""},
		{"unset variable", keySource{env: "TEST_LITE_AGENT_UNSET_KEY"}, "key environment variable TEST_LITE_AGENT_UNSET_KEY is not set"},
		{"empty variable", keySource{env: "TEST_LITE_AGENT_EMPTY_KEY"}, "is not set"},
		{"missing file", keySource{file: filepath.Join(dir, "missing")}, "read key file"},
		{"file too large", keySource{file: bigFile}, "is larger than 4096 bytes"},
		{"no source", keySource{}, "no key source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.src.load()
			if tt.wantErr == "" {
				if err != nil || !bytes.Equal(got, key) {
					t.Errorf("load = %x, %v; want %x", got, err, key)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("load error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

// TestAKeyGivenAsItsOwnNameIsNotShown passes a real key where the name of
// its variable or the path of its file belongs, as a hurried user does:
// the error says so without repeating the key.
func TestAKeyGivenAsItsOwnNameIsNotShown(t *testing.T) {
	for _, key := range []string{strings.Repeat("9fc18264", 8), base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))} {
		for _, src := range []keySource{{env: key}, {file: key}} {
			_, err := src.load()
			if !errors.Is(err, errKeyAsName) {
				t.Errorf("%+v: error %v, want errKeyAsName", src, err)
			}
			if leaked := sharedRun(fmt.Sprint(err), key, 6); leaked != "" {
				t.Errorf("error %q shows key material %q", err, leaked)
			}
		}
	}
	// A name that is not a key is still named.
	if _, err := (keySource{env: "NO_SUCH_KEY_VARIABLE"}).load(); err == nil || !strings.Contains(err.Error(), "NO_SUCH_KEY_VARIABLE") {
		t.Errorf("error %v does not name the variable", err)
	}
}
