// Package archive holds a session's context archive: content taken out of
// the model's context (large files, big tool results, compacted history)
// and kept so that the model can search it and read it back in pages.
//
// An [Archive] has three operations. Put stores content and returns its
// ref, the lowercase hex SHA-256 of the content's UTF-8 bytes, with a short
// preview. Search finds entries by a case-insensitive substring of their
// ref, preview, metadata or full content. Read returns one page of one
// entry. Search and Read results are wrapped as historical data, escaped,
// and charged to a per-generation read budget (see [FileArchive.Read]).
//
// [FileArchive] keeps an archive on disk and [MemoryArchive] in memory;
// both apply the same rules, and the suite in archive/archivetest checks
// any implementation.
//
// # On-disk format
//
// A [FileArchive] lives in one directory, for a session
// storage.SessionContextDir(sessionsDir, sessionID), that is
// <sessionsDir>/<session id>.context. It holds these files, each created
// with mode 0600:
//
//   - notes/<ref>.md holds one content, encoded as one record of kind
//     "archive" whose record id is the ref. It is written atomically (temp
//     file, fsync, rename) and never changed afterwards.
//   - index.jsonl holds one line per distinct ref, in the order they were
//     put. Each line is one record of kind "archive-index" whose record id
//     is the line's 0-based position as a decimal string. Its plaintext is
//     the JSON object {"ref","preview","metadata"?} with the keys in that
//     order, written as JavaScript's JSON.stringify writes it (no HTML
//     escaping; U+2028 and U+2029 unescaped); metadata is omitted when Put
//     had none. Readers ignore other keys. Lines are appended with one
//     write and fsynced.
//   - index.jsonl.torn-<unix ms> holds a torn tail Put set aside (see
//     below), byte for byte; it is no record and nothing reads it.
//
// The preview is the longest prefix of the content whose UTF-8 size is at
// most 512 bytes, never ending inside a character.
//
// The codec context of every record has the archive's session id as its
// scope ("standalone" without one). With no codec the stored bytes are the
// plaintext; with one each record is the one-line storage envelope
// {"liteAgentStorage":1,"codec":…,"payload":…}, so index lines stay lines.
// Nothing ever mixes the two: an archive written with one configuration
// fails to decode, with a *storage.Error, under another.
//
// For example, with no codec, Put(ctx, "hello, archive",
// map[string]any{"kind": "file", "path": "notes.txt"}) in an empty
// archive of session s1 creates
//
//	s1.context/notes/f49fb7f0f8159e16fbaa7c2b678923a097a8056057e972dbd270c7149c2af98f.md
//	    hello, archive
//	s1.context/index.jsonl
//	    {"ref":"f49fb7f0f8159e16fbaa7c2b678923a097a8056057e972dbd270c7149c2af98f","preview":"hello, archive","metadata":{"kind":"file","path":"notes.txt"}}
//
// and putting the same content again changes nothing. With a codec, the
// note is encoded with the context {namespace, projectId, kind "archive",
// scopeId "s1", recordId "f49fb7…8f"} and the index line with kind
// "archive-index" and recordId "0"; ref-named files stay visible.
//
// # Refs are not paths or grants
//
// A ref names content only within the archive that made it. Read accepts
// nothing but 64 lowercase hex digits that appear in this archive's own
// index, and never opens a path built from anything else: a path, a ref
// of another session's archive or a ref whose note is missing all read as
// "No archived content for this ref.". Holding a ref grants nothing; under
// an authenticated codec another session's records do not even decode,
// since the session id is bound into each record's codec context.
//
// # Integrity and errors
//
// Every read of a note checks its SHA-256 against its ref, and Put
// compares a note that already exists with the content being put; a
// difference is the *storage.Error "Archive integrity mismatch". An index
// line that does not decode to an entry, or an empty line, is "Corrupt
// archive index". Errors name the file and record (ref or line number),
// never the content. Nothing is ever repaired or rewritten: a failing
// operation leaves every file as it was, except that a Put failing after
// its note was written (on the index append) leaves the note, which is
// unlisted until a later Put of the same content adds its index line.
//
// # Torn tails
//
// Bytes after the last newline of index.jsonl are a torn tail: what a Put
// killed while appending (SIGKILL, power loss) leaves, a line never
// acknowledged. They are not a line and not an error: Search, Read, Put,
// Notes and Verify read the complete lines before them (Verify reports a
// [storage.ProblemTorn], which is not damage). The next Put that appends a
// line sets them aside first, under the archive's lock: it writes them to
// a new file index.jsonl.torn-<unix ms> in the archive directory
// (exclusive create, mode 0600, fsynced with the directory; the next
// millisecond when the name is taken), then truncates index.jsonl back to
// its last newline and fsyncs it, then appends. A crash between these
// steps loses nothing and leaves the index readable: before the cut the
// bytes are still in the index (the next Put sets them aside again, under
// another name), after it they are in their own file. A Put that appends
// nothing (its content is already listed) leaves a torn tail where it is.
// The format itself does not change: an index after such a Put holds only
// complete lines, as every reader expects. The torn files belong to the
// archive directory and go with it ([Delete], the retention sweep); a
// migration lists them without copying them.
// Symlinked files and directories inside the archive, and an archive
// directory replaced after it was opened, are refused.
//
// # Verification
//
// [FileArchive.Verify] checks a whole archive without changing anything and
// returns every [storage.Problem] it finds, each naming the file, the
// record (index line number or ref) and a [storage.ProblemKind], the kinds
// every store's verification shares: a bad index line ("decode",
// "syntax" for an empty or non-JSON line, "frame" for JSON that is not an
// entry, "duplicate"), a torn tail of the index ("torn", not damage), a
// bad note ("decode", "integrity", "symlink", "name",
// "file"), a listed note that is missing ("missing"), and a valid note that
// no index line lists ("unreferenced", the one kind that is not damage:
// a failed Put leaves such a note). Every line and every note is checked on
// its own, so one bad record never hides another. Temp files are ignored
// and symlinks are reported, never followed.
//
// Requests the archive cannot answer with a page (a bad offset, a budget
// too small) fail with a *[RangeError] matching one of the Err… values.
//
// # Concurrency
//
// A FileArchive is safe for concurrent use by multiple goroutines, and
// several processes may share one archive directory: every Put, Search and
// Read holds the lock directory <dir>.lock (the lock convention of the
// other stores, taken over when stale), and keeps it while the codec runs;
// so does Verify.
// Read budgets and repeat tracking belong to each FileArchive value.
package archive
