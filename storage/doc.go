// Package storage decides where the SDK's runtime state lives and how each
// record is encoded.
//
// # Layout
//
// One namespace (default "lite-agent") selects the project config directory
// <workdir>/.<namespace> and, unless a home is given, the data home
// ~/.<namespace>. LITE_AGENT_HOME sets the home of the default namespace only;
// there is never a fallback to .lite-agent for another namespace.
// [ResolveProjectPaths] computes the whole layout without touching the disk:
//
//	<home>/
//	  hooks.json  mcps.json  permissions.json  skills/  agents/
//	  projects/<hash>/
//	    sessions/<session id>.jsonl
//	    sessions/<session id>.context/
//	    tasks/<task-list id>/
//	    spill/
//	<workdir>/.<namespace>/
//	  hooks.json  mcps.json  permissions.json  skills/  agents/
//
// The project hash ([ProjectHash]) depends only on the absolute workdir, so
// moving the home keeps it and changing the workdir changes it.
//
// # Encoding
//
// A host-supplied [Codec] turns record bytes into stored bytes (compression,
// authenticated encryption). [Encoding] wraps its output in a versioned,
// one-line JSON envelope:
//
//	{"liteAgentStorage":1,"codec":"xchacha20poly1305.v1.k1","payload":"<standard base64 of the codec output>"}
//
// Each record is encoded with a [Context] naming namespace, project, kind,
// scope and record, never a path. Every failure is a *[Error] whose message is
// our own: the text of a codec's error never appears in an error or a log,
// because it may carry key material. Decoding never falls back: plaintext
// under a codec, an envelope without one, a changed codec id or a failing
// codec are all errors, and converting data is an explicit migration.
//
// A codec may have more methods, each found by type assertion and each
// with a fallback to Encode and Decode: an [AppendEncoder] or an
// [AppendDecoder] encodes or decodes into a buffer the caller reuses, and a
// [Checker] lets a [Verifier], which decodes every record a writer encodes
// again to verify it, reuse what encoding the record derived.
//
// Encoding protects the stored representation only. File names, sizes,
// modification times, codec ids and content references stay visible.
package storage
