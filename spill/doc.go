// Package spill holds tool output that was too large to keep in a session
// log: each body is stored once, under a short content reference, and read
// back by that reference.
//
// # On-disk format
//
// A [FileStore] keeps one file per body in its spill directory (by default
// <home>/projects/<project hash>/spill). The reference ("ref") is the first
// 16 lowercase hex characters of the SHA-1 of the body's UTF-8 bytes, and the
// file is named <ref>.txt, so identical bodies share one file. For the body
// "hello world":
//
//	spill/2aae6c35c94fcfb4.txt
//
// Without a codec the file holds the body exactly as given. With one, it
// holds the single-line envelope of [storage.Encoding], encoded with kind
// "spill", scope "project" and the ref as record id:
//
//	{"liteAgentStorage":1,"codec":"gzip-v1","payload":"<standard base64 of the codec output>"}
//
// Files are written atomically (a temp file .<ref>.txt.<12 hex>.tmp holding
// the encoded bytes, fsynced and renamed into place) with mode 0600, in a
// directory created 0700. File names, sizes, modification times and refs stay
// visible whatever the codec.
//
// # Guarantees
//
// The store anchors its directory when it is created: a symlinked directory
// is refused, a directory replaced later is detected, and a symlinked spill
// file is never followed. A ref that is not 16 lowercase hex characters is
// never turned into a path. A file that does not decode under the store's
// encoding (plaintext under a codec, an envelope without one, another codec
// id, a failing codec) is reported as a *[storage.Error] and left untouched;
// nothing is retried as plaintext or rewritten.
//
// # Verification
//
// [FileStore.Verify] checks every <ref>.txt file without changing anything
// and returns every [storage.Problem] it finds, each naming the file, the
// ref and a [storage.ProblemKind] ("decode", "integrity", "symlink",
// "name", "file"), the kinds every store's verification shares. One bad
// file never hides another; temp files are ignored and symlinks are
// reported, never followed.
//
// Stores are safe for concurrent use by goroutines and processes: writes are
// atomic renames of complete files, so a reader sees a whole body or none.
// [MemoryStore] keeps bodies in memory instead; the suite in
// spill/spilltest checks any [Store].
package spill
