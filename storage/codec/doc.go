// Package codec holds the built-in [storage.Codec] implementations: two
// compressors, [Gzip] and [Zstd], and authenticated encryption, [NewAEAD].
// Each is handed to a store through [storage.Encoding], which wraps the
// codec's output in the record envelope
//
//	{"liteAgentStorage":1,"codec":"<codec id>","payload":"<standard base64>"}
//
// and maps every codec failure to a *[storage.Error] that shows none of the
// codec's error text. A codec never sees an envelope or a path, only record
// bytes and the record's [storage.Context]. Every codec here is safe for
// concurrent use (an AEAD codec as long as its key callback is), starts no
// goroutines and keeps no state between calls apart from reusable buffers
// (and, for [Zstd], reusable decoders).
//
// # Compression
//
// [Gzip] ("gzip-v1") and [Zstd] ("zstd-v1") store each record as one gzip
// stream or one Zstandard frame. Decoding refuses anything above
// [MaxDecodedSize] (256 MiB) with [ErrTooLarge], so a small stored record
// cannot expand into unbounded memory, and reports damaged input as an
// error, never a panic.
//
// Compression is not encryption. Anyone who can read the files can
// decompress them.
//
// # Authenticated encryption
//
// [NewAEAD] returns a codec with ID "<algorithm>.v1.<key id>", such as
// "xchacha20poly1305.v1.k1" or "aes256gcm.v1.k1". Its output, the bytes that
// the envelope's payload carries in base64, is
//
//	nonce || ciphertext || tag
//
// with a fresh random nonce from crypto/rand for every record: 24 bytes for
// [XChaCha20Poly1305] (the default), 12 bytes for [AES256GCM]; the tag is
// 16 bytes and the ciphertext is as long as the plaintext. The associated
// data, authenticated but not stored, is
//
//	AD = codec id || 0x00 || context JSON
//
// where codec id is the ASCII codec ID and context JSON is the output of
// [storage.Context.MarshalJSON] for the record:
// {"namespace":…,"projectId":…,"kind":…,"scopeId":…,"recordId":…} with the
// keys in that order and strings escaped as JavaScript's JSON.stringify
// escapes them. For record 7 of session s-1 in project 0123abcd of the
// namespace acme, under key id k1, the associated data is the 118 bytes
//
//	xchacha20poly1305.v1.k1\x00{"namespace":"acme","projectId":"0123abcd","kind":"checkpoint","scopeId":"s-1","recordId":"7"}
//
// So a payload decodes only as the very record it was written for: moved to
// another record, session (scope), kind, namespace or project, or read under
// another algorithm or key id, it fails with [ErrAuthentication], which
// [storage.Encoding] reports as a *[storage.Error]. Any change to a payload,
// truncation included, fails the same way, and nothing is ever returned as
// plaintext on failure. This format is a contract: a record written under a
// codec id must stay readable by every later version under that id.
//
// An AEAD codec is a [storage.Checker]: a [storage.Verifier] that decodes
// each record it encodes again, as a migration does, opens the payload it
// sealed last with the XChaCha20 subkey derived for sealing it (when the
// payload still carries that nonce and the key is unchanged) and with the
// same associated data bytes, so that verifying costs no second key
// derivation. The bytes and the verdicts are those of [storage.Encoding]'s
// encode and decode.
//
// XChaCha20-Poly1305 is the recommended algorithm. AES-256-GCM with random
// 12-byte nonces is limited to 2^32 records per key (NIST SP 800-38D): past
// that, nonce collisions become likely enough to reveal plaintext and allow
// forgeries. The codec does not count records, so a host choosing AES-256-GCM
// must rotate keys well before that limit.
//
// # Keys and rotation
//
// Keys come from the host through [AEADOptions.Key] on every Encode and
// Decode, so a host that rotates or revokes a key is obeyed on the next
// call. The codec keeps, in memory only, a copy of the last key the
// callback returned together with the cipher made from it (so that record
// after record under one key expands it once), and uses that cipher only
// when the key fetched for a call is the same one; it never writes or logs
// a key and never modifies the slice the host returns. Keep keys apart from
// the data they protect, not in the same home directory.
//
// To rotate, give the new key a new key id (k1 → k2) and write with a codec
// built for it, while the host keeps serving the old key for as long as
// records written under the old id must be read: the key id is part of the
// codec id in every envelope, and a codec reads only envelopes carrying its
// own id. Records are never re-encoded behind the caller's back; moving old
// records to a new key or codec (or from plaintext to a codec) is an
// explicit migration that decodes each record with the old codec and
// encodes it with the new one.
//
// # What a codec does not hide
//
// A codec protects the bytes of each record, nothing around them. File and
// directory names (project hashes, session ids, task-list ids, refs), file
// sizes and the size of each record, modification times, the number of
// records, the codec ids (so the algorithm and key version), and content
// references between records all stay visible to anyone who can list or
// read the files, as does the timing of writes.
//
// Record lengths leak even through encryption. Do not combine compression
// with encryption for records that carry secrets (for example, wrapping a
// compressor's output in an AEAD codec): when attacker-influenced text sits
// next to a secret, the compressed length reveals how much of the secret the
// attacker guessed.
package codec
