package codec

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/lite-agent/lite-agent-go/storage"
)

// KeySize is the length in bytes of the keys both AEAD algorithms take.
const KeySize = 32

// The sizes of AES-GCM's standard nonce and tag.
const (
	gcmNonceSize = 12
	gcmTagSize   = 16
)

// ErrAuthentication is returned by the Decode method of an AEAD codec when
// the stored bytes do not authenticate under the record's key, codec id and
// [storage.Context]: they were damaged, forged, moved from another record,
// or written with another key. It says nothing about which.
var ErrAuthentication = errors.New("codec: message authentication failed")

// An Algorithm selects the authenticated cipher of an AEAD codec.
type Algorithm int

const (
	// XChaCha20Poly1305 is XChaCha20-Poly1305 with a random 24-byte nonce.
	// Random nonces of that size never realistically collide, so one key can
	// encrypt any number of records. It is the zero value and the default.
	XChaCha20Poly1305 Algorithm = iota
	// AES256GCM is AES-256-GCM with a random 12-byte nonce. Random nonces of
	// that size limit one key to 2^32 encrypted records (NIST SP 800-38D);
	// past that, a nonce collision becomes likely enough to matter, and a
	// collision reveals the XOR of two plaintexts and lets an attacker forge
	// records. The codec does not count records, so choose this only when
	// AES is required (hardware or compliance) and rotate keys well before
	// that limit.
	AES256GCM
)

// String returns the algorithm's name as used in codec ids:
// "xchacha20poly1305" or "aes256gcm".
func (a Algorithm) String() string {
	switch a {
	case XChaCha20Poly1305:
		return "xchacha20poly1305"
	case AES256GCM:
		return "aes256gcm"
	}
	return "Algorithm(" + strconv.Itoa(int(a)) + ")"
}

// AEADOptions configures [NewAEAD]. KeyID and Key are required.
type AEADOptions struct {
	// Algorithm is the cipher; the zero value is [XChaCha20Poly1305].
	Algorithm Algorithm

	// KeyID names the key version, such as "k1" or "2025-06". It must match
	// ^[a-zA-Z0-9][a-zA-Z0-9._-]*$ and keep the whole codec id within 128
	// characters. It is stored in clear in every envelope (as part of the
	// codec id), so it must not itself be secret.
	KeyID string

	// Key returns the 32-byte key named keyID. It is called on every Encode
	// and Decode, with that call's context, and must be safe for concurrent
	// use; whatever it returns is used at once. The codec neither keeps nor
	// modifies the returned slice, but keeps the cipher made from the most
	// recent key (and a copy of that key, to know when the key changes), so
	// that consecutive records under one key expand it once. An error, or
	// a key of any other length, fails the call.
	Key func(ctx context.Context, keyID string) ([]byte, error)
}

// NewAEAD returns an authenticated-encryption codec with ID
// "<algorithm>.v1.<key id>", such as "xchacha20poly1305.v1.k1" or
// "aes256gcm.v1.k1".
//
// Encode fetches the key through [AEADOptions.Key], draws a fresh random
// nonce from crypto/rand and returns nonce || ciphertext || tag. The
// associated data binds the codec id and the record's [storage.Context]
// (see the package documentation for the exact bytes), so a payload moved to
// another record, scope, kind, namespace or project, or read under another
// codec id, fails to decode. Decode fails with [ErrAuthentication] for any
// such payload, including one shorter than a nonce and a tag, and fetches no
// key for a payload that short.
//
// NewAEAD returns an error if the algorithm is unknown, KeyID is invalid or
// Key is nil. The codec is safe for concurrent use if Key is.
func NewAEAD(opts AEADOptions) (storage.Codec, error) {
	c, err := newAEAD(opts, nil)
	if err != nil {
		return nil, err // not a nil *aeadCodec inside a non-nil interface
	}
	return c, nil
}

var (
	_ storage.AppendDecoder = (*aeadCodec)(nil)
	_ storage.AppendEncoder = (*aeadCodec)(nil)
)

// aeadCodec implements [NewAEAD].
type aeadCodec struct {
	id    string
	alg   Algorithm
	keyID string
	key   func(ctx context.Context, keyID string) ([]byte, error)

	// nonces supplies nonces explicitly; nil means crypto/rand (through
	// cipher.NewGCMWithRandomNonce for AES-GCM, which FIPS 140-only mode
	// requires). Only tests set it, to make envelopes reproducible.
	nonces io.Reader

	// last caches the cipher of the last key the callback returned, per
	// nonce mode, so that reading record after record under one key
	// expands the key once. The callback is still asked on every call.
	last [2]atomic.Pointer[keyedAEAD]

	// ads holds buffers for records' associated data (*[]byte): handed to
	// the AEAD, a buffer on the stack would escape, one allocation per
	// record.
	ads sync.Pool

	// random holds randomness drawn from crypto/rand ahead of use, for
	// XChaCha20-Poly1305's nonces (*randomBytes).
	random sync.Pool
}

// randomBatch is how many bytes of randomness the codec draws from
// crypto/rand at a time for nonces: 170 XChaCha20-Poly1305 nonces. Drawing
// 24 bytes for every record cost a tenth of sealing it.
const randomBatch = 170 * chacha20poly1305.NonceSizeX

// randomBytes is a batch of randomness; off is where the unused part starts.
type randomBytes struct {
	b   [randomBatch]byte
	off int
}

// randomNonce fills nonce with bytes from crypto/rand that no other nonce
// is given: each batch is taken from the pool by one caller at a time and
// every byte is handed out once.
func (c *aeadCodec) randomNonce(nonce []byte) {
	r, _ := c.random.Get().(*randomBytes)
	if r == nil {
		r = &randomBytes{off: randomBatch}
	}
	if randomBatch-r.off < len(nonce) {
		rand.Read(r.b[:]) // never returns an error (Go 1.24+)
		r.off = 0
	}
	r.off += copy(nonce, r.b[r.off:])
	c.random.Put(r)
}

// withAD calls f with the associated data of a record (see appendAD) in
// a pooled buffer, valid only during the call.
func (c *aeadCodec) withAD(sc storage.Context, f func(ad []byte) ([]byte, error)) ([]byte, error) {
	bp, _ := c.ads.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	ad := c.appendAD((*bp)[:0], sc)
	out, err := f(ad)
	if cap(ad) <= 4<<10 {
		*bp = ad
		c.ads.Put(bp)
	}
	return out, err
}

// keyedAEAD is a cipher with the key it was made from.
type keyedAEAD struct {
	key  [KeySize]byte
	aead cipher.AEAD
}

func newAEAD(opts AEADOptions, nonces io.Reader) (*aeadCodec, error) {
	if opts.Algorithm != XChaCha20Poly1305 && opts.Algorithm != AES256GCM {
		return nil, fmt.Errorf("codec: unknown AEAD algorithm %v", opts.Algorithm)
	}
	if !validKeyID(opts.KeyID) {
		return nil, fmt.Errorf("codec: AEAD key id %q must match ^[a-zA-Z0-9][a-zA-Z0-9._-]*$", opts.KeyID)
	}
	if opts.Key == nil {
		return nil, errors.New("codec: AEAD key callback is nil")
	}
	c := &aeadCodec{
		id:     opts.Algorithm.String() + ".v1." + opts.KeyID,
		alg:    opts.Algorithm,
		keyID:  opts.KeyID,
		key:    opts.Key,
		nonces: nonces,
	}
	if err := storage.ValidateCodec(c); err != nil {
		return nil, fmt.Errorf("codec: AEAD id %q is longer than 128 characters: %w", c.id, err)
	}
	return c, nil
}

// validKeyID reports whether id matches ^[a-zA-Z0-9][a-zA-Z0-9._-]*$.
func validKeyID(id string) bool {
	for i := 0; i < len(id); i++ {
		b := id[i]
		switch {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		case i > 0 && (b == '.' || b == '_' || b == '-'):
		default:
			return false
		}
	}
	return id != ""
}

func (c *aeadCodec) ID() string { return c.id }

// appendAD appends the associated data of a record to b:
// ID() || 0x00 || sc.MarshalJSON(). The zero byte cannot occur in an id and
// the JSON always starts with '{', so the split is unambiguous.
func (c *aeadCodec) appendAD(b []byte, sc storage.Context) []byte {
	return sc.AppendJSON(append(append(b, c.id...), 0))
}

// cipher fetches the key and returns the AEAD for one call. With
// explicitNonce, AES-GCM takes its nonce from the caller; otherwise it
// generates and prepends the nonce itself (NonceSize 0). XChaCha20-Poly1305
// always takes an explicit nonce. Either way the output is
// nonce || ciphertext || tag.
func (c *aeadCodec) cipher(ctx context.Context, explicitNonce bool) (cipher.AEAD, error) {
	key, err := c.key(ctx, c.keyID)
	if err != nil {
		return nil, fmt.Errorf("codec: fetch key %q: %w", c.keyID, err)
	}
	if len(key) != KeySize {
		return nil, fmt.Errorf("codec: key %q is %d bytes, want %d", c.keyID, len(key), KeySize)
	}
	mode := 0
	if explicitNonce {
		mode = 1
	}
	if k := c.last[mode].Load(); k != nil && subtle.ConstantTimeCompare(k.key[:], key) == 1 {
		return k.aead, nil
	}
	aead, err := c.newCipher(key, explicitNonce)
	if err != nil {
		return nil, err
	}
	k := &keyedAEAD{aead: aead}
	copy(k.key[:], key)
	c.last[mode].Store(k)
	return aead, nil
}

// newCipher returns the AEAD of the algorithm for key.
func (c *aeadCodec) newCipher(key []byte, explicitNonce bool) (cipher.AEAD, error) {
	// Both constructors copy or expand the key; the caller's slice is
	// neither kept nor modified.
	switch c.alg {
	case AES256GCM:
		block, err := aes.NewCipher(key)
		if err != nil {
			return nil, fmt.Errorf("codec: aes: %w", err)
		}
		var aead cipher.AEAD
		if explicitNonce {
			aead, err = cipher.NewGCM(block)
		} else {
			aead, err = cipher.NewGCMWithRandomNonce(block)
		}
		if err != nil {
			return nil, fmt.Errorf("codec: gcm: %w", err)
		}
		return aead, nil
	default:
		aead, err := chacha20poly1305.NewX(key)
		if err != nil {
			return nil, fmt.Errorf("codec: xchacha20poly1305: %w", err)
		}
		return aead, nil
	}
}

func (c *aeadCodec) Encode(ctx context.Context, plaintext []byte, sc storage.Context) ([]byte, error) {
	return c.AppendEncode(ctx, nil, plaintext, sc)
}

// AppendEncode implements [storage.AppendEncoder]: Encode, appending the
// nonce, ciphertext and tag to dst.
func (c *aeadCodec) AppendEncode(ctx context.Context, dst, plaintext []byte, sc storage.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	aead, err := c.cipher(ctx, c.nonces != nil)
	if err != nil {
		return nil, err
	}
	ns := aead.NonceSize() // 0 when the AEAD generates the nonce itself
	base := len(dst)
	dst = slices.Grow(dst, ns+len(plaintext)+aead.Overhead())[:base+ns]
	nonce := dst[base:]
	if ns > 0 {
		if c.nonces != nil {
			if _, err := io.ReadFull(c.nonces, nonce); err != nil {
				return nil, fmt.Errorf("codec: read nonce: %w", err)
			}
		} else {
			c.randomNonce(nonce)
		}
	}
	return c.withAD(sc, func(ad []byte) ([]byte, error) {
		return aead.Seal(dst, nonce, plaintext, ad), nil
	})
}

func (c *aeadCodec) Decode(ctx context.Context, encoded []byte, sc storage.Context) ([]byte, error) {
	return c.AppendDecode(ctx, nil, encoded, sc)
}

// AppendDecode implements [storage.AppendDecoder]: Decode, appending the
// plaintext to dst.
func (c *aeadCodec) AppendDecode(ctx context.Context, dst, encoded []byte, sc storage.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Both forms carry the nonce in front and the 16-byte tag at the end.
	minLen := chacha20poly1305.NonceSizeX + chacha20poly1305.Overhead
	if c.alg == AES256GCM {
		minLen = gcmNonceSize + gcmTagSize
	}
	if len(encoded) < minLen {
		return nil, ErrAuthentication
	}
	aead, err := c.cipher(ctx, false)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		dst = make([]byte, 0, len(encoded)-minLen)
	}
	ns := aead.NonceSize()
	return c.withAD(sc, func(ad []byte) ([]byte, error) {
		out, err := aead.Open(dst, encoded[:ns], encoded[ns:], ad)
		if err != nil {
			return nil, ErrAuthentication
		}
		return out, nil
	})
}
