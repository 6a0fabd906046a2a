package codec

import (
	"bytes"
	"crypto/rand"
	mrand "math/rand/v2"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/lite-agent/lite-agent-go/storage"
)

// sealSplit seals plaintext as a Check does: ChaCha20-Poly1305 under the
// HChaCha20 subkey, with the inner nonce, after the 24-byte nonce.
func sealSplit(t testing.TB, key, nonce, plaintext, ad []byte) []byte {
	sub, err := xchachaSubkey(key, nonce)
	if err != nil {
		t.Fatal(err)
	}
	var inner [chacha20poly1305.NonceSize]byte
	xchachaInnerNonce(&inner, nonce)
	return sub.Seal(append([]byte(nil), nonce...), inner[:], plaintext, ad)
}

// openSplit opens nonce || ciphertext || tag as a Check does.
func openSplit(t testing.TB, key, sealed, ad []byte) ([]byte, error) {
	sub, err := xchachaSubkey(key, sealed)
	if err != nil {
		t.Fatal(err)
	}
	var inner [chacha20poly1305.NonceSize]byte
	xchachaInnerNonce(&inner, sealed)
	return sub.Open(nil, inner[:], sealed[chacha20poly1305.NonceSizeX:], ad)
}

// checkSplit holds the two-step construction to chacha20poly1305.NewX for
// one input: the same sealed bytes, and each opening the other's output.
func checkSplit(t *testing.T, key, nonce, plaintext, ad []byte) {
	t.Helper()
	x, err := chacha20poly1305.NewX(key)
	if err != nil {
		t.Fatal(err)
	}
	want := x.Seal(append([]byte(nil), nonce...), nonce, plaintext, ad)
	got := sealSplit(t, key, nonce, plaintext, ad)
	if !bytes.Equal(got, want) {
		t.Fatalf("len %d, ad %d: split seal differs from NewX", len(plaintext), len(ad))
	}
	back, err := openSplit(t, key, want, ad)
	if err != nil || !bytes.Equal(back, plaintext) {
		t.Fatalf("len %d: split open of NewX's output: %v", len(plaintext), err)
	}
	if len(want) > len(nonce) {
		// A flipped bit fails both the same way.
		bad := bytes.Clone(want)
		bad[len(nonce)+len(bad[len(nonce):])/2] ^= 0x10
		_, errSplit := openSplit(t, key, bad, ad)
		_, errX := x.Open(nil, bad[:len(nonce)], bad[len(nonce):], ad)
		if (errSplit == nil) != (errX == nil) || errSplit == nil {
			t.Fatalf("len %d: tampered: split %v, NewX %v", len(plaintext), errSplit, errX)
		}
	}
}

func TestXChaChaSplitMatchesNewX(t *testing.T) {
	r := mrand.New(mrand.NewPCG(1, 2))
	lengths := []int{0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 470, 1023, 1024, 4096, 65537}
	for n := range 300 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		key := make([]byte, KeySize)
		nonce := make([]byte, chacha20poly1305.NonceSizeX)
		rand.Read(key)
		rand.Read(nonce)
		plaintext := make([]byte, n)
		rand.Read(plaintext)
		ad := make([]byte, r.IntN(200))
		rand.Read(ad)
		checkSplit(t, key, nonce, plaintext, ad)
	}
}

// FuzzXChaChaSplit holds the Check's two-step XChaCha20-Poly1305 to
// chacha20poly1305.NewX on arbitrary keys, nonces, plaintexts and
// associated data.
//
//	go test -run '^$' -fuzz FuzzXChaChaSplit -fuzztime 60s ./storage/codec
func FuzzXChaChaSplit(f *testing.F) {
	f.Add(make([]byte, KeySize), make([]byte, chacha20poly1305.NonceSizeX), []byte("hello"), []byte("ad"))
	f.Add(bytes.Repeat([]byte{0xff}, KeySize), bytes.Repeat([]byte{0xa5}, chacha20poly1305.NonceSizeX), []byte{}, []byte{})
	f.Add([]byte("0123456789abcdef0123456789abcdef"), []byte("nonce nonce nonce nonce!"), bytes.Repeat([]byte("x"), 300), []byte(`xchacha20poly1305.v1.k1`+"\x00"+`{"namespace":"lite-agent"}`))
	f.Fuzz(func(t *testing.T, key, nonce, plaintext, ad []byte) {
		// Any input makes a key and a nonce: cut or padded with zeros.
		var k [KeySize]byte
		var n [chacha20poly1305.NonceSizeX]byte
		copy(k[:], key)
		copy(n[:], nonce)
		checkSplit(t, k[:], n[:], plaintext, ad)
	})
}

// TestADBufMatchesAppendAD holds adBuf, which keeps the bytes in front of
// the record id, to appendAD over sequences of contexts that change one
// field at a time, with ids that need escaping and ids that do not.
func TestADBufMatchesAppendAD(t *testing.T) {
	r := mrand.New(mrand.NewPCG(3, 4))
	values := []string{"", "7", "1842", "s-1", "0123abcd", "acme", `a"b`, `a\b`, "tab\there", "\x00", "\x1f", "\x7f", "é", "日本", "\xff", "a\u2028b", "lite-agent", "checkpoint"}
	kinds := []storage.Kind{storage.KindCheckpoint, storage.KindTask, storage.KindArchive, "x\"y"}
	for _, id := range []string{"xchacha20poly1305.v1.k1", "aes256gcm.v1.k-2"} {
		var a adBuf
		sc := storage.Context{Namespace: "lite-agent", ProjectID: "p", Kind: storage.KindCheckpoint, ScopeID: "s", RecordID: "1"}
		for i := range 5000 {
			pick := func() string { return values[r.IntN(len(values))] }
			switch r.IntN(8) {
			case 0:
				sc.Namespace = pick()
			case 1:
				sc.ProjectID = pick()
			case 2:
				sc.Kind = kinds[r.IntN(len(kinds))]
			case 3:
				sc.ScopeID = pick()
			case 4:
				// unchanged: the bytes of the record before
			default:
				sc.RecordID = pick()
				if r.IntN(2) == 0 {
					sc.RecordID = string(rune('0'+r.IntN(10))) + sc.RecordID
				}
			}
			got := a.set(id, sc)
			if want := appendAD(nil, id, sc); !bytes.Equal(got, want) {
				t.Fatalf("step %d, %+v:\n got %q\nwant %q", i, sc, got, want)
			}
		}
	}
}
