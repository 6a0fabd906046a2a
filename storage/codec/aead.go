package codec

import (
	"bytes"
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

	"golang.org/x/crypto/chacha20"
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
	_ storage.Checker       = (*aeadCodec)(nil)
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

	// ads holds buffers for records' associated data (*adBuf): handed to
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

// getAD returns a pooled buffer for a record's associated data.
func (c *aeadCodec) getAD() *adBuf {
	a, _ := c.ads.Get().(*adBuf)
	if a == nil {
		a = new(adBuf)
	}
	return a
}

// putAD returns a to the pool, unless it grew large for a long context.
func (c *aeadCodec) putAD(a *adBuf) {
	if cap(a.b) <= 4<<10 {
		c.ads.Put(a)
	}
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
	if err := ValidateKeyID(opts.KeyID); err != nil {
		return nil, err
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

// ValidateKeyID reports whether id can be the key version of an AEAD
// codec ([AEADOptions].KeyID): it must match ^[a-zA-Z0-9][a-zA-Z0-9._-]*$.
// (The codec id it becomes part of must also fit in 128 characters, which
// [NewAEAD] checks.)
func ValidateKeyID(id string) error {
	if !validKeyID(id) {
		return fmt.Errorf("codec: AEAD key id %q must match ^[a-zA-Z0-9][a-zA-Z0-9._-]*$", id)
	}
	return nil
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

// appendAD appends the associated data of a record under the codec id id
// to b: id || 0x00 || sc.MarshalJSON(). The zero byte cannot occur in an id
// and the JSON always starts with '{', so the split is unambiguous.
func appendAD(b []byte, id string, sc storage.Context) []byte {
	return sc.AppendJSON(append(append(b, id...), 0))
}

// cipher fetches the key and returns the AEAD for one call, with the key
// it was made from. With explicitNonce, AES-GCM takes its nonce from the
// caller; otherwise it generates and prepends the nonce itself (NonceSize
// 0). XChaCha20-Poly1305 always takes an explicit nonce. Either way the
// output is nonce || ciphertext || tag.
func (c *aeadCodec) cipher(ctx context.Context, explicitNonce bool) (*keyedAEAD, error) {
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
		return k, nil
	}
	aead, err := c.newCipher(key, explicitNonce)
	if err != nil {
		return nil, err
	}
	k := &keyedAEAD{aead: aead}
	copy(k.key[:], key)
	c.last[mode].Store(k)
	return k, nil
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
	a := c.getAD()
	defer c.putAD(a)
	return c.seal(ctx, dst, plaintext, sc, a, nil)
}

// seal is AppendEncode with the associated data built in a. With keep, an
// XChaCha20-Poly1305 record is sealed in the two steps the algorithm is
// made of (xchachaSubkey), and keep notes the key, the nonce and the
// subkey's cipher for the open that verifies the record.
func (c *aeadCodec) seal(ctx context.Context, dst, plaintext []byte, sc storage.Context, a *adBuf, keep *aeadCheck) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k, err := c.cipher(ctx, c.nonces != nil)
	if err != nil {
		return nil, err
	}
	aead := k.aead
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
	ad := a.set(c.id, sc)
	if keep == nil || c.alg != XChaCha20Poly1305 {
		return aead.Seal(dst, nonce, plaintext, ad), nil
	}
	sub, err := xchachaSubkey(k.key[:], nonce)
	if err != nil {
		return nil, err
	}
	keep.sealed(k, nonce, sub)
	return sub.Seal(dst, keep.inner[:], plaintext, ad), nil
}

func (c *aeadCodec) Decode(ctx context.Context, encoded []byte, sc storage.Context) ([]byte, error) {
	return c.AppendDecode(ctx, nil, encoded, sc)
}

// AppendDecode implements [storage.AppendDecoder]: Decode, appending the
// plaintext to dst.
func (c *aeadCodec) AppendDecode(ctx context.Context, dst, encoded []byte, sc storage.Context) ([]byte, error) {
	a := c.getAD()
	defer c.putAD(a)
	return c.open(ctx, dst, encoded, sc, a, nil)
}

// open is AppendDecode with the associated data built in a. With from, a
// payload that begins with the nonce of the record from sealed last, opened
// under the key that record was sealed with, is opened with the subkey's
// cipher from kept instead of one derived again.
func (c *aeadCodec) open(ctx context.Context, dst, encoded []byte, sc storage.Context, a *adBuf, from *aeadCheck) ([]byte, error) {
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
	k, err := c.cipher(ctx, false)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		dst = make([]byte, 0, len(encoded)-minLen)
	}
	ad := a.set(c.id, sc)
	var out []byte
	if sub := from.subkeyFor(k, encoded); sub != nil {
		// The check's nonce is encoded's: the inner nonce is too.
		out, err = sub.Open(dst, from.inner[:], encoded[chacha20poly1305.NonceSizeX:], ad)
	} else {
		ns := k.aead.NonceSize()
		out, err = k.aead.Open(dst, encoded[:ns], encoded[ns:], ad)
	}
	if err != nil {
		return nil, ErrAuthentication
	}
	return out, nil
}

// xchachaSubkey returns the ChaCha20-Poly1305 cipher under the subkey that
// XChaCha20-Poly1305 derives from key and the first 16 bytes of its 24-byte
// nonce with HChaCha20. With the nonce of xchachaInnerNonce it seals and
// opens exactly as chacha20poly1305.NewX(key) does with the whole nonce
// (draft-irtf-cfrg-xchacha-03, section 2.3; tests hold the two to the
// same bytes).
func xchachaSubkey(key, nonce []byte) (cipher.AEAD, error) {
	sub, err := chacha20.HChaCha20(key, nonce[:16])
	if err != nil {
		return nil, fmt.Errorf("codec: hchacha20: %w", err)
	}
	aead, err := chacha20poly1305.New(sub)
	if err != nil {
		return nil, fmt.Errorf("codec: chacha20poly1305: %w", err)
	}
	return aead, nil
}

// xchachaInnerNonce sets n to the 12-byte ChaCha20-Poly1305 nonce of the
// 24-byte XChaCha20-Poly1305 nonce: four zero bytes, then the nonce's last
// eight.
func xchachaInnerNonce(n *[chacha20poly1305.NonceSize]byte, nonce []byte) {
	clear(n[:4])
	copy(n[4:], nonce[16:chacha20poly1305.NonceSizeX])
}

// NewCheck implements [storage.Checker]. The Check keeps the associated
// data of the record it handled last, and after sealing an
// XChaCha20-Poly1305 record, the cipher of its subkey: decoding the
// payload it sealed last, under the same key, reuses that cipher, and
// decoding a record of the same context reuses its associated data. Any
// other payload, and every AES-256-GCM payload, is opened as AppendDecode
// opens it (AES-GCM's key schedule is cached by the codec either way).
func (c *aeadCodec) NewCheck() storage.Check { return &aeadCheck{c: c} }

// aeadCheck implements [storage.Check] for an aeadCodec.
type aeadCheck struct {
	c  *aeadCodec
	ad adBuf

	// What the latest XChaCha20-Poly1305 seal derived, kept for one open;
	// sub is nil when there is none. key is the codec's cached cipher of
	// the key it was sealed under (never changed once made). inner is the
	// nonce's inner nonce, here rather than on the stack, where handing it
	// to the cipher would make it escape: an allocation per record.
	key   *keyedAEAD
	nonce [chacha20poly1305.NonceSizeX]byte
	inner [chacha20poly1305.NonceSize]byte
	sub   cipher.AEAD
}

func (k *aeadCheck) AppendEncode(ctx context.Context, dst, plaintext []byte, sc storage.Context) ([]byte, error) {
	k.forget()
	return k.c.seal(ctx, dst, plaintext, sc, &k.ad, k)
}

func (k *aeadCheck) AppendDecode(ctx context.Context, dst, encoded []byte, sc storage.Context) ([]byte, error) {
	return k.c.open(ctx, dst, encoded, sc, &k.ad, k)
}

// sealed notes what sealing a record under key with nonce derived.
func (k *aeadCheck) sealed(key *keyedAEAD, nonce []byte, sub cipher.AEAD) {
	k.key = key
	copy(k.nonce[:], nonce)
	xchachaInnerNonce(&k.inner, nonce)
	k.sub = sub
}

// forget drops what the latest seal derived.
func (k *aeadCheck) forget() {
	k.key, k.sub = nil, nil
}

// subkeyFor returns the cipher of the subkey of the record sealed last if
// encoded begins with that record's nonce and key holds the key it was
// sealed under, and nil otherwise (k may be nil). The subkey depends on
// nothing else, so the cipher opens encoded exactly as one derived again
// would. It is handed out once.
func (k *aeadCheck) subkeyFor(key *keyedAEAD, encoded []byte) cipher.AEAD {
	if k == nil || k.sub == nil || len(encoded) < len(k.nonce) ||
		!bytes.Equal(encoded[:len(k.nonce)], k.nonce[:]) ||
		key != k.key && subtle.ConstantTimeCompare(key.key[:], k.key.key[:]) != 1 {
		return nil
	}
	sub := k.sub
	k.forget()
	return sub
}

// adBuf builds the associated data of records (see appendAD) in a reused
// buffer. Two records of one scope differ only in the record id, the last
// field of the context JSON, so when only the id changed since the record
// before, the bytes in front of it are kept and the id alone is appended.
type adBuf struct {
	b    []byte
	sc   storage.Context // the context whose AD b holds, if b is not empty
	head int             // the length of b before the record id's JSON string, or 0
}

// set returns the associated data of a record of context sc under codec id
// id, which must not change between calls on one adBuf. It is valid until
// the next call.
func (a *adBuf) set(id string, sc storage.Context) []byte {
	switch {
	case len(a.b) > 0 && a.sc == sc:
		return a.b
	case a.head > 0 && plainJSString(sc.RecordID) && a.sc.Namespace == sc.Namespace &&
		a.sc.ProjectID == sc.ProjectID && a.sc.Kind == sc.Kind && a.sc.ScopeID == sc.ScopeID:
		// The tail sc.AppendJSON writes for a record id it copies as it is.
		a.b = append(append(append(a.b[:a.head], '"'), sc.RecordID...), '"', '}')
	default:
		a.b = appendAD(a.b[:0], id, sc)
		a.head = 0
		if plainJSString(sc.RecordID) {
			a.head = len(a.b) - len(`"`+`"}`) - len(sc.RecordID)
		}
	}
	a.sc = sc
	return a.b
}

// plainJSString reports whether JSON.stringify, and so
// storage.Context.AppendJSON, writes s between its quotes as it is: every
// byte printable ASCII (or DEL) and neither '"' nor '\\'.
func plainJSString(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b >= 0x80 || b == '"' || b == '\\' {
			return false
		}
	}
	return true
}
