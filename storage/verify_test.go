package storage_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// checkerCodec is an appendBoth that is a storage.Checker. Its Check
// counts its calls and decodes with lie, if set, instead of the codec.
type checkerCodec struct {
	appendBoth
	noCheck bool // NewCheck returns nil
	lie     func([]byte) []byte
	twisted bool // the Check encodes (and decodes) what the codec cannot read
	checks  int  // how many Checks NewCheck made
	encodes int  // the Checks' AppendEncode calls
	decodes int  // the Checks' AppendDecode calls
}

func (c *checkerCodec) NewCheck() storage.Check {
	if c.noCheck {
		return nil
	}
	c.checks++
	return &countingCheck{c}
}

type countingCheck struct{ c *checkerCodec }

func (k *countingCheck) AppendEncode(ctx context.Context, dst, p []byte, sc storage.Context) ([]byte, error) {
	k.c.encodes++
	out, err := k.c.AppendEncode(ctx, dst, p, sc)
	if err == nil && k.c.twisted {
		slices.Reverse(out[len(dst):])
	}
	return out, err
}

func (k *countingCheck) AppendDecode(ctx context.Context, dst, p []byte, sc storage.Context) ([]byte, error) {
	k.c.decodes++
	if k.c.twisted {
		p = slices.Clone(p)
		slices.Reverse(p)
	}
	out, err := k.c.AppendDecode(ctx, dst, p, sc)
	if err == nil && k.c.lie != nil {
		out = append(out[:len(dst)], k.c.lie(out[len(dst):])...)
	}
	return out, err
}

// uncomparable is a Checker of a type == cannot compare.
type uncomparable struct {
	*checkerCodec
	_ []int
}

// TestVerifierMatchesEncoding holds a Verifier to Encoding.AppendEncode and
// Encoding.AppendDecode for codecs with and without a Check: the same
// stored bytes, and for the stored form and every damaged copy of it
// (every byte changed, cut short, lengthened), a verdict that says
// whether AppendDecode yields the plaintext, and AppendDecode's error.
func TestVerifierMatchesEncoding(t *testing.T) {
	plain := []byte(`{"seq":3,"type":"user","text":"héllo"}`)
	codecs := map[string]func() storage.Codec{
		"plaintext": func() storage.Codec { return nil },
		"codec":     func() storage.Codec { return &testCodec{id: "xor-v1"} },
		"appender":  func() storage.Codec { return &appendBoth{appendCodec{testCodec: testCodec{id: "pad-v1"}, pad: 3}} },
		"checker": func() storage.Codec {
			return &checkerCodec{appendBoth: appendBoth{appendCodec{testCodec: testCodec{id: "chk-v1"}, pad: 3}}}
		},
		"frozen checker": func() storage.Codec {
			c, err := storage.FreezeCodec(&checkerCodec{appendBoth: appendBoth{appendCodec{testCodec: testCodec{id: "chk-v1"}}}})
			if err != nil {
				t.Fatal(err)
			}
			return c
		},
		"nil check": func() storage.Codec {
			return &checkerCodec{appendBoth: appendBoth{appendCodec{testCodec: testCodec{id: "chk-v1"}}}, noCheck: true}
		},
		"uncomparable": func() storage.Codec {
			return uncomparable{checkerCodec: &checkerCodec{appendBoth: appendBoth{appendCodec{testCodec: testCodec{id: "chk-v1"}}}}}
		},
	}
	for name, mk := range codecs {
		t.Run(name, func(t *testing.T) {
			enc := storage.Encoding{Codec: mk(), ProjectID: "p"}
			var v storage.Verifier
			for _, dst := range [][]byte{nil, []byte("prefix\n")} {
				got, err := v.AppendEncode(t.Context(), enc, bytes.Clone(dst), storage.KindCheckpoint, "s", "3", plain)
				if err != nil {
					t.Fatal(err)
				}
				want, err := enc.AppendEncode(t.Context(), bytes.Clone(dst), storage.KindCheckpoint, "s", "3", plain)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("Verifier.AppendEncode = %q, Encoding's %q, %v", got, want, err)
				}
			}
			stored, err := v.AppendEncode(t.Context(), enc, nil, storage.KindCheckpoint, "s", "3", plain)
			if err != nil {
				t.Fatal(err)
			}
			variants := [][]byte{stored, stored[:len(stored)-1], append(bytes.Clone(stored), ' '), []byte(" " + string(stored))}
			for i := range stored {
				for _, b := range []byte{'A', '=', '\n', '"', 0xff} {
					bad := bytes.Clone(stored)
					bad[i] = b
					variants = append(variants, bad)
				}
			}
			for _, stored := range variants {
				for _, rec := range []string{"3", "4"} {
					// Encoded just before, as a writer does.
					if _, err := v.AppendEncode(t.Context(), enc, nil, storage.KindCheckpoint, "s", "3", plain); err != nil {
						t.Fatal(err)
					}
					same, err := v.Verify(t.Context(), enc, storage.KindCheckpoint, "s", rec, stored, plain)
					back, wantErr := enc.AppendDecode(t.Context(), nil, storage.KindCheckpoint, "s", rec, stored)
					if wantSame := wantErr == nil && bytes.Equal(back, plain); same != wantSame || !sameError(err, wantErr) {
						t.Fatalf("Verify(%q) = %v, %v; AppendDecode = %q, %v", stored, same, err, back, wantErr)
					}
				}
			}
		})
	}
}

// sameError reports whether a and b are both nil or both *storage.Error
// with the same text.
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var sa, sb *storage.Error
	return errors.As(a, &sa) && errors.As(b, &sb) && a.Error() == b.Error()
}

// TestVerifierDecodesThroughTheCheck checks that a Verifier encodes and
// decodes through one Check of a Checker codec, made once per codec, and
// that what the Check decodes is what it compares: a Check that decodes
// to other bytes fails the verification.
func TestVerifierDecodesThroughTheCheck(t *testing.T) {
	c := &checkerCodec{appendBoth: appendBoth{appendCodec{testCodec: testCodec{id: "chk-v1"}}}}
	frozen, err := storage.FreezeCodec(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := frozen.(storage.Checker); !ok {
		t.Fatal("a frozen Checker is no Checker")
	}
	enc := storage.Encoding{Codec: frozen}
	var v storage.Verifier
	plain := []byte(`{"a":1}`)
	for i := range 3 {
		if same, err := roundTrip(t, &v, enc, plain); !same || err != nil {
			t.Fatalf("round %d: %v, %v", i, same, err)
		}
	}
	if c.checks != 1 || c.encodes != 3 || c.decodes != 3 {
		t.Errorf("%d checks, %d encodes, %d decodes; want 1, 3, 3", c.checks, c.encodes, c.decodes)
	}
	// Another codec gets its own Check.
	other := &checkerCodec{appendBoth: appendBoth{appendCodec{testCodec: testCodec{id: "chk-v2"}}}}
	stored, err := v.AppendEncode(t.Context(), storage.Encoding{Codec: other}, nil, storage.KindTask, "l", "1", plain)
	if err != nil || other.checks != 1 || other.encodes != 1 || !strings.Contains(string(stored), "chk-v2") {
		t.Fatalf("other codec: %d checks, %d encodes, %q, %v", other.checks, other.encodes, stored, err)
	}
	c.lie = func(p []byte) []byte { return append(p, ' ') }
	stored, err = v.AppendEncode(t.Context(), enc, nil, storage.KindTask, "l", "1", plain)
	if err != nil {
		t.Fatal(err)
	}
	if same, err := v.Verify(t.Context(), enc, storage.KindTask, "l", "1", stored, plain); same || err != nil {
		t.Fatalf("a lying Check verified: %v, %v", same, err)
	}
	if c.checks != 2 {
		t.Errorf("%d checks, want 2: the Verifier keeps the Check of one codec at a time", c.checks)
	}
}

func TestVerifierReportsACancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	enc := storage.Encoding{Codec: ctxCodec{}}
	var v storage.Verifier
	stored, err := (storage.Encoding{Codec: identity{}}).Encode(t.Context(), storage.KindTask, "l", "1", []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	stored = bytes.Replace(stored, []byte("identity-v1"), []byte("ctx-v1"), 1)
	cancel()
	if same, err := v.Verify(ctx, enc, storage.KindTask, "l", "1", stored, []byte("{}")); same || !errors.Is(err, context.Canceled) {
		t.Fatalf("Verify = %v, %v; want context.Canceled", same, err)
	}
}

// TestVerifierCrossChecksTheCodec gives a Verifier a Check that agrees
// with itself but not with its codec (as a derivation shared by a seal and
// the open that verifies it would, gone wrong): the first record, and
// every 64th after it, is decoded from scratch too, and the Verifier
// refuses it.
func TestVerifierCrossChecksTheCodec(t *testing.T) {
	c := &checkerCodec{appendBoth: appendBoth{appendCodec{testCodec: testCodec{id: "chk-v1"}}}, twisted: true}
	enc := storage.Encoding{Codec: c}
	var v storage.Verifier
	plain := []byte(`{"a":"abcdefgh"}`)
	var refused []int
	for i := range 130 {
		if same, err := roundTrip(t, &v, enc, plain); !same || err != nil {
			refused = append(refused, i)
		}
	}
	if want := []int{0, 64, 128}; !slices.Equal(refused, want) {
		t.Errorf("refused records %v, want %v", refused, want)
	}
	// An honest Check passes the cross-check.
	c.twisted = false
	var w storage.Verifier
	for i := range 70 {
		if same, err := roundTrip(t, &w, enc, plain); !same || err != nil {
			t.Fatalf("record %d: %v, %v", i, same, err)
		}
	}
}

// roundTrip encodes plain as task record 1 of list l through v and
// returns what v's Verify of the stored form says.
func roundTrip(t *testing.T, v *storage.Verifier, enc storage.Encoding, plain []byte) (bool, error) {
	t.Helper()
	stored, err := v.AppendEncode(t.Context(), enc, nil, storage.KindTask, "l", "1", plain)
	if err != nil {
		t.Fatal(err)
	}
	return v.Verify(t.Context(), enc, storage.KindTask, "l", "1", stored, plain)
}
