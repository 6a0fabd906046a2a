package jsonstr_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

func TestAppend(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty string is two quotes", "", `""`},
		{"printable ASCII is kept", "hello, world", `"hello, world"`},
		{"quote and backslash are escaped", `a"b\c`, `"a\"b\\c"`},
		{"short forms for b f n r t", "\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"other control characters are lowercase u00XX", "\x00\x01\x1a\x1f", `"\u0000\u0001\u001a\u001f"`},
		{"DEL is kept", "\x7f", "\"\x7f\""},
		{"HTML characters are kept", "<a href='x'>&</a>", `"<a href='x'>&</a>"`},
		{"U+2028 and U+2029 are kept", "a\u2028b\u2029c", "\"a\u2028b\u2029c\""},
		{"multibyte UTF-8 is kept", "héllo, 世界 🙂", `"héllo, 世界 🙂"`},
		{"U+FFFD itself is kept", "\ufffd", "\"\ufffd\""},
		{"each invalid byte becomes U+FFFD", "a\xff\xfeb", "\"a\ufffd\ufffdb\""},
		{"truncated sequence bytes become U+FFFD each", "x\xe4\xb8", "\"x\ufffd\ufffd\""},
		{"surrogate encoding is invalid", "\xed\xa0\x80", "\"\ufffd\ufffd\ufffd\""},
		{"escape found after a long plain run", "0123456789abcdef\n0123456789", `"0123456789abcdef\n0123456789"`},
		{"escape in every lane of a word", "\"1234567\\abcdefg\x01ijklmno", `"\"1234567\\abcdefg\u0001ijklmno"`},
		{"non-ASCII after eight plain bytes", "abcdefghé", `"abcdefghé"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(jsonstr.Append(nil, tt.in)); got != tt.want {
				t.Errorf("Append(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestAppendKeepsDst(t *testing.T) {
	dst := []byte(`{"k":`)
	if got := string(jsonstr.Append(dst, "v\n")); got != `{"k":"v\n"` {
		t.Errorf("Append did not extend dst: %q", got)
	}
}

// TestAppendEveryByte checks each single byte against encoding/json.
func TestAppendEveryByte(t *testing.T) {
	for c := range 256 {
		checkAgainstEncodingJSON(t, string([]byte{byte(c)}))
		checkAgainstEncodingJSON(t, "01234567"+string([]byte{byte(c)})+"89")
	}
}

// FuzzAppend checks Append against encoding/json: decoding the output gives
// s with each invalid byte replaced by U+FFFD, and the output equals
// encoding/json's with its extra escapes (\u2028, \u2029, the \ufffd of
// invalid bytes) turned back into the characters.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c", "\b\f\n\r\t\x00\x1f", "\u2028\u2029<>&", "\xff\xed\xa0\x80", "héllo 世界 🙂\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAgainstEncodingJSON(t, s)
	})
}

func checkAgainstEncodingJSON(t *testing.T, s string) {
	t.Helper()
	got := jsonstr.Append(nil, s)
	if !utf8.Valid(got) {
		t.Fatalf("Append(%q) = %q is not valid UTF-8", s, got)
	}
	var back string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("Append(%q) = %q does not decode: %v", s, got, err)
	}
	if want := perByteValid(s); back != want {
		t.Fatalf("Append(%q) decodes to %q, want %q", s, back, want)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	want := jsonstr.AppendUnescaped(nil, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	if !bytes.Equal(got, want) {
		t.Fatalf("Append(%q) = %q, want %q", s, got, want)
	}
}

// perByteValid replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does when decoding.
func perByteValid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func TestEncodingJSONEscapesAreUndoneWhereJavaScriptHasNone(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"\u2028\u2029"`, "\"\u2028\u2029\""},
		{`"\\u2028"`, `"\\u2028"`},
		{`"\\\u2028"`, "\"\\\\\u2028\""},
		{`"\ufffd"`, "\"\uFFFD\""},
		{`"\u0001\n\""`, `"\u0001\n\""`},
		{`"\u202"`, `"\u202"`},
	}
	for _, tt := range tests {
		if got := string(jsonstr.AppendUnescaped(nil, []byte(tt.in))); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
	}
}

func BenchmarkAppend(b *testing.B) {
	for _, bc := range []struct{ name, s string }{
		{"ascii", strings.Repeat("The quick brown fox jumps over the lazy dog. ", 40)},
		{"escapes", strings.Repeat("line \"one\"\n\ttab\\ ", 40)},
		{"multibyte", strings.Repeat("héllo, 世界 🙂 ", 40)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			buf := make([]byte, 0, 4*len(bc.s))
			b.SetBytes(int64(len(bc.s)))
			for b.Loop() {
				buf = jsonstr.Append(buf[:0], bc.s)
			}
		})
	}
}

func ExampleAppend() {
	b := []byte(`{"text":`)
	b = jsonstr.Append(b, "say \"hi\"\n<tab>\t&")
	b = append(b, '}')
	fmt.Println(string(b))
	// Output: {"text":"say \"hi\"\n<tab>\t&"}
}
