package storage_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// appendBoth is an AppendEncoder and an AppendDecoder.
type appendBoth struct{ appendCodec }

func (c *appendBoth) AppendDecode(ctx context.Context, dst, p []byte, sc storage.Context) ([]byte, error) {
	out, err := c.Decode(ctx, p, sc)
	return append(dst, out...), err
}

// decodeOnly is an AppendDecoder that is not an AppendEncoder.
type decodeOnly struct{ testCodec }

func (c *decodeOnly) AppendDecode(ctx context.Context, dst, p []byte, sc storage.Context) ([]byte, error) {
	out, err := c.Decode(ctx, p, sc)
	return append(dst, out...), err
}

// TestFreezeCodecKeepsTheFirstID changes what a codec's ID returns after it
// was frozen: records go on being written and read under the first id, so
// one log never holds two.
func TestFreezeCodecKeepsTheFirstID(t *testing.T) {
	host := &testCodec{id: "xor-v1"}
	frozen, err := storage.FreezeCodec(host)
	if err != nil {
		t.Fatal(err)
	}
	enc := storage.Encoding{Codec: frozen}
	first, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s", "1", []byte("one"))
	if err != nil {
		t.Fatal(err)
	}
	host.id = "xor-v2"
	second, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s", "2", []byte("two"))
	if err != nil {
		t.Fatal(err)
	}
	for _, stored := range [][]byte{first, second} {
		if !bytes.Contains(stored, []byte(`"codec":"xor-v1"`)) {
			t.Errorf("stored %s, want the id xor-v1", stored)
		}
		if _, err := enc.Decode(t.Context(), storage.KindCheckpoint, "s", "1", stored); err != nil {
			t.Errorf("decode: %v", err)
		}
	}
	if frozen.ID() != "xor-v1" {
		t.Errorf("ID() = %q", frozen.ID())
	}
	// The host's own codec now writes another id: reading the frozen
	// records with it is the mismatch a migration is needed for.
	if _, err := (storage.Encoding{Codec: host}).Decode(t.Context(), storage.KindCheckpoint, "s", "1", first); err == nil {
		t.Error("a record of xor-v1 decoded as xor-v2")
	}
}

// TestFreezeCodecKeepsAppendMethods checks that a frozen codec offers
// AppendEncode, AppendDecode or NewCheck exactly when the codec it wraps
// does, and
// that the frozen codec's output is the wrapped codec's.
func TestFreezeCodecKeepsAppendMethods(t *testing.T) {
	for _, tc := range []struct {
		name          string
		c             storage.Codec
		enc, dec, chk bool
	}{
		{"plain", &testCodec{id: "xor-v1"}, false, false, false},
		{"encoder", &appendCodec{testCodec: testCodec{id: "pad-v1"}, pad: 3}, true, false, false},
		{"decoder", &decodeOnly{testCodec{id: "xor-v1"}}, false, true, false},
		{"both", &appendBoth{appendCodec{testCodec: testCodec{id: "pad-v1"}, pad: 3}}, true, true, false},
		{"checker", &checkerCodec{appendBoth: appendBoth{appendCodec{testCodec: testCodec{id: "pad-v1"}, pad: 3}}}, true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := storage.FreezeCodec(tc.c)
			if err != nil {
				t.Fatal(err)
			}
			_, enc := f.(storage.AppendEncoder)
			_, dec := f.(storage.AppendDecoder)
			_, chk := f.(storage.Checker)
			if enc != tc.enc || dec != tc.dec || chk != tc.chk {
				t.Errorf("AppendEncoder %v, AppendDecoder %v, Checker %v; want %v, %v, %v", enc, dec, chk, tc.enc, tc.dec, tc.chk)
			}
			again, err := storage.FreezeCodec(f)
			if err != nil || again != f {
				t.Errorf("freezing again: %v, same %v", err, again == f)
			}
			plain := []byte(strings.Repeat("héllo ", 50))
			want, err := storage.Encoding{Codec: tc.c}.AppendEncode(t.Context(), []byte("x"), storage.KindTask, "l", "1", plain)
			if err != nil {
				t.Fatal(err)
			}
			got, err := storage.Encoding{Codec: f}.AppendEncode(t.Context(), []byte("x"), storage.KindTask, "l", "1", plain)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("frozen AppendEncode = %q, %v; want %q", got, err, want)
			}
			back, err := storage.Encoding{Codec: f}.AppendDecode(t.Context(), nil, storage.KindTask, "l", "1", got[1:])
			if err != nil || !bytes.Equal(back, plain) {
				t.Errorf("frozen AppendDecode = %q, %v", back, err)
			}
		})
	}
}

// TestEncodingFrozenRejectsBadSettings checks the one check every built-in
// store applies to its Encoding.
func TestEncodingFrozenRejectsBadSettings(t *testing.T) {
	for name, e := range map[string]storage.Encoding{
		"namespace":  {Namespace: "../Not A Namespace"},
		"upper case": {Namespace: "Acme"},
		"codec id":   {Codec: &testCodec{id: "a b"}},
		"nil codec":  {Codec: (*testCodec)(nil)},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.Frozen()
			asStorageError(t, err)
		})
	}
	got, err := storage.Encoding{Namespace: "acme", ProjectID: "p"}.Frozen()
	if err != nil || got != (storage.Encoding{Namespace: "acme", ProjectID: "p"}) {
		t.Errorf("Frozen() = %+v, %v", got, err)
	}
}
