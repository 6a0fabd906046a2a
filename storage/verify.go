package storage

import (
	"bytes"
	"context"
	"reflect"
)

// A Checker is an [AppendEncoder] and [AppendDecoder] that can make the
// decoding which verifies a record it just encoded cheaper than decoding
// from scratch: a [Check] it makes carries what encoding the record derived
// (an AEAD's subkey and associated data, say) to the decoding of that
// record's stored form. A [Verifier] uses it when the codec has it and
// otherwise decodes as [Encoding.AppendDecode] does; the built-in AEAD
// codec has it.
type Checker interface {
	AppendEncoder
	AppendDecoder
	// NewCheck returns a new Check of this codec, for one goroutine. A nil
	// Check means the codec has nothing to carry over, as if it were no
	// Checker.
	NewCheck() Check
}

// A Check encodes and decodes records for one goroutine at a time, with
// the results and errors of its codec's AppendEncode and AppendDecode: the
// contracts of those methods apply to it unchanged. It may keep what its
// latest AppendEncode derived and use it in an AppendDecode whose input
// and context make that give exactly the bytes (or the failure) that
// decoding from scratch gives; it must never make a decode succeed, or
// return other bytes, where the codec's AppendDecode would not.
type Check interface {
	AppendEncode(ctx context.Context, dst, plaintext []byte, sc Context) ([]byte, error)
	AppendDecode(ctx context.Context, dst, encoded []byte, sc Context) ([]byte, error)
}

// A Verifier encodes records with an [Encoding] and verifies stored forms,
// for a writer that decodes every record it writes again before trusting
// it. Verify parses the stored envelope and decodes its payload exactly as
// [Encoding.AppendDecode] does, then compares the result with the
// plaintext. With a [Checker] codec, the decoding of the payload the
// Verifier encoded last reuses what encoding it derived; the verdict is
// the same either way. Because the two then share that derivation, the
// first record verified through a codec's Check, and every 64th after it,
// is also decoded from scratch by the codec's own AppendDecode, and must
// give the same bytes: a derivation gone wrong fails the verify of real
// records instead of passing unnoticed.
//
// The zero Verifier is ready to use with any Encoding. It keeps a buffer
// and the codec's [Check] from call to call, so it is not safe for
// concurrent use: keep one per goroutine.
type Verifier struct {
	checker Checker // the codec check belongs to; nil when there is none
	check   Check
	checked int    // records verified through check
	plain   []byte // the record Verify decoded last
	fresh   []byte // the record a cross-check decoded last
}

// crossCheckEvery is how often (in records verified through one Check) a
// Verifier also decodes a record from scratch; see Verify.
const crossCheckEvery = 64

// AppendEncode is [Encoding.AppendEncode] with e, through the Verifier, so
// that Verify of the result can reuse what the codec derived. It returns
// the same bytes and errors as e.AppendEncode. On error it returns nil.
func (v *Verifier) AppendEncode(ctx context.Context, e Encoding, dst []byte, kind Kind, scopeID, recordID string, plaintext []byte) ([]byte, error) {
	ch := v.checkOf(e.Codec)
	if ch == nil {
		return e.AppendEncode(ctx, dst, kind, scopeID, recordID, plaintext)
	}
	if dst == nil {
		dst = []byte{} // appended to in place, as AppendEncode's codec path needs
	}
	return e.appendEncode(ctx, dst, kind, scopeID, recordID, plaintext, ch)
}

// Verify decodes stored, the stored form of a record, as
// [Encoding.AppendDecode] with e would, and reports whether it decodes to
// exactly plaintext. A stored form that does not decode yields false and
// the error AppendDecode returns (ctx.Err() if ctx is done).
func (v *Verifier) Verify(ctx context.Context, e Encoding, kind Kind, scopeID, recordID string, stored, plaintext []byte) (bool, error) {
	var back []byte
	var err error
	if ch := v.checkOf(e.Codec); ch != nil {
		back, err = e.decode(ctx, v.plain[:0], true, kind, scopeID, recordID, stored, ch)
		crossCheck := v.checked%crossCheckEvery == 0
		v.checked++
		if err == nil && crossCheck {
			// The Check and the encoding it verifies may share a
			// derivation (an AEAD's subkey): were that wrong, both would
			// agree and no reader could open the record. So the first
			// record of each Check, and every crossCheckEvery-th after
			// it, is also decoded from scratch by the codec's own
			// decoder, which must give the same bytes.
			var fresh []byte
			fresh, err = e.AppendDecode(ctx, v.fresh[:0], kind, scopeID, recordID, stored)
			if err == nil && !bytes.Equal(fresh, back) {
				return false, nil
			}
			if cap(fresh) <= verifierKeepMax {
				v.fresh = fresh
			}
		}
	} else {
		back, err = e.AppendDecode(ctx, v.plain[:0], kind, scopeID, recordID, stored)
	}
	if err != nil {
		return false, err
	}
	if cap(back) <= verifierKeepMax {
		v.plain = back
	} else {
		v.plain = nil // a rare long record: not kept for the next
	}
	return bytes.Equal(back, plaintext), nil
}

// verifierKeepMax is the largest buffer, in bytes, a Verifier keeps from
// one Verify to the next.
const verifierKeepMax = 4 << 20

// checkOf returns the Check of c, made the first time c is seen, or nil if
// c is no Checker.
func (v *Verifier) checkOf(c Codec) Check {
	ch, ok := c.(Checker)
	if !ok {
		return nil
	}
	if v.checker == nil || !sameCodec(v.checker, ch) {
		v.checker, v.check, v.checked = ch, ch.NewCheck(), 0
	}
	return v.check
}

// sameCodec reports whether a and b are the same codec value. Codecs of a
// type that cannot be compared never are: comparing them would panic.
func sameCodec(a, b Checker) bool {
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}
