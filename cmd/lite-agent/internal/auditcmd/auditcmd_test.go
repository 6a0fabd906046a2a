package auditcmd

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseKey(t *testing.T) {
	key16 := []byte("0123456789abcdef")
	cases := []struct {
		name string
		text string
		want []byte
	}{
		{"hex", "30313233343536373839616263646566", key16},
		{"upper-case hex with whitespace", "  3031323334353637383961626364656A\n", []byte("0123456789abcdej")},
		{"base64", base64.StdEncoding.EncodeToString(key16), key16},
		{"too short", "303132", nil},
		{"not hex nor base64", "this is not a key at all, no", nil},
		{"empty", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseKey([]byte(tc.text))
			if tc.want == nil {
				if err == nil {
					t.Fatalf("ParseKey accepted %q", tc.text)
				}
				if tc.text != "" && strings.Contains(err.Error(), tc.text) {
					t.Fatalf("the error %q quotes the text", err)
				}
				return
			}
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Fatalf("ParseKey = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "key")
	os.WriteFile(good, []byte(strings.Repeat("ab", 16)+"\n"), 0o600)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, bytes.Repeat([]byte("a"), maxKeyFileSize+1), 0o600)
	t.Setenv("GOOD_KEY", strings.Repeat("cd", 16))
	t.Setenv("BAD_KEY", "nope")
	cases := []struct {
		name      string
		env, file string
		ok        bool
		msg       string
	}{
		{"none", "", "", true, ""},
		{"env", "GOOD_KEY", "", true, ""},
		{"file", "", good, true, ""},
		{"both", "GOOD_KEY", good, false, "not both"},
		{"unset env", "UNSET_KEY_VAR", "", false, "UNSET_KEY_VAR is not set"},
		{"bad env", "BAD_KEY", "", false, "BAD_KEY"},
		{"missing file", "", filepath.Join(dir, "missing"), false, "read audit key file"},
		{"big file", "", big, false, "larger than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key, err := LoadKey(tc.env, tc.file)
			if tc.ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.msg)) {
				t.Fatalf("LoadKey: %q, %v", key, err)
			}
			if tc.ok && (tc.env != "" || tc.file != "") && len(key) != 16 {
				t.Fatalf("key of %d bytes", len(key))
			}
		})
	}
}
