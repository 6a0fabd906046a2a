// Package session holds session logs: the append-only record of what
// happened in an agent session (user and assistant messages, tool results,
// file snapshots, audit records, summaries, context views), from which a
// conversation is rebuilt with [Fold].
//
// A [Checkpointer] stores the logs. [FileCheckpointer] keeps one file per
// session, [MemoryCheckpointer] keeps them in memory, and the suite in
// session/sessiontest checks that any implementation keeps the contract.
//
// # Log format
//
// The log of session <id> is the file <dir>/<id>.jsonl. Session ids are
// one or more ASCII letters, digits, underscores or hyphens; other ids are
// rejected, never rewritten. Each record is one line ending in "\n"; blank
// lines are ignored. Without a codec a line is the JSON of a [StoredEvent]:
// the members seq (1, 2, 3, … with no gaps), sessionId, parentSeq (null
// for seq 1, else seq-1), ts (UTC, milliseconds; one value for all records
// of a batch) and event, an object whose "type" member says which [Event]
// it is. A log of two records:
//
//	{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"hi"}}}
//	{"seq":2,"sessionId":"s1","parentSeq":1,"ts":"2026-07-22T12:00:01.250Z","event":{"type":"assistant","message":{"role":"assistant","content":"hello"}}}
//
// With a codec ([FileOptions.Encoding]) every line is instead the storage
// envelope of that JSON, {"liteAgentStorage":1,"codec":…,"payload":…},
// encoded with kind "checkpoint", the session id as scope and the seq as
// record id, so that a record moved to another place does not decode under
// an authenticating codec.
//
// Reading validates every line: line i (counting non-blank lines) must
// decode, be valid JSON, and have seq i, the session's id, parentSeq
// null or i-1, a valid ts and an event with a string type. Any other line
// fails the read with a *storage.Error naming the file and the record
// ("Corrupt checkpoint record <i>: …"); no error ever holds record
// contents. Events of unknown types are kept as [RawEvent]; unknown
// members of known ones are skipped (a [StoredEvent] read and written
// back keeps them, in Raw). An assistant record may carry the
// usage of the request it answers, the engine's estimate of it and the
// model that answered ([AssistantEvent]), which the TypeScript reference
// does not write and ignores; one whose usage, estimate or model would
// not be written back as stored keeps its line in Raw. A line longer
// than [MaxLineBytes] is reported as corrupt without being held in memory.
//
// # Guarantees
//
// Append encodes the whole batch before writing anything, then writes it
// with one write call. A failing codec or an invalid event therefore
// leaves the file byte-identical and the head unchanged, and readers never
// see part of a batch from a live writer. With [FileOptions.Durable] the
// batch is flushed to the disk (fdatasync on Linux) before Append returns, so an acknowledged batch
// survives power loss. Without it, an acknowledged batch survives a crash
// of the process, but a crash of the machine may lose the batches the
// operating system had not yet written back and leave a torn last line.
//
// # Torn tails
//
// A write can still be cut short: a process killed while its write crosses
// a page boundary, a full disk, an I/O error. Every record ends with its
// newline, so bytes after the last newline of a log (a torn tail) are the
// remains of an append that never returned, and were never acknowledged.
// They are not a record and never an error: Read, Head and Truncate see
// every complete record before them, [FileCheckpointer.Scan] yields those
// records and then a *[TornTailError], [FileCheckpointer.Verify] reports
// a [storage.ProblemTorn], and [FileCheckpointer.Summaries] flags the session. The
// next Append (or a Truncate that rewrites the log), under the session's
// lock, copies the torn bytes into <id>.jsonl.torn-<unix ms> beside the
// log, cuts them from it, and goes on; nothing is dropped silently. This
// holds for encoded logs too, since a missing newline is framing: a
// complete encoded line that fails to decode is still an error and is
// never repaired. An Append whose write fails part-way (ENOSPC, EIO)
// truncates the log back to its previous length before returning the
// error, so the next Append, once the cause is gone, just works.
//
// Deleting a session with everything that belongs to it (its context
// archive, its task list) takes several steps. The log goes first, renamed
// to <id>.jsonl.deleting (<id>.deleting for an id over 240 characters,
// see [DeletingName]) by [FileCheckpointer.BeginDelete], and is removed
// last by [FileCheckpointer.Delete]: in between, the session is not listed
// (List, and any reader of this format, lists *.jsonl only), and every
// other operation on it fails with a *[DeletingError], so that a delete
// killed part-way never leaves a session that reads as whole without its
// archive or tasks. Running the delete again finishes it.
//
// Every operation on a session except List holds the session's lock: this
// process's queue plus the lock directory <id>.jsonl.lock, which other
// processes (including other implementations of this format) honor. Appends
// from any number of goroutines and processes are serialized into one
// gap-free sequence; Append and Truncate with an expected head fail with a
// *[ConflictError] instead of overwriting another writer's work. The head
// is cached per session while the file's inode, size and times stay
// unchanged, so a write by another process is always seen.
//
// # Performance
//
// Taking the lock creates and removes the lock directory, which on many
// file systems costs more than writing and flushing a small batch (on ext4
// without a journal or mounted with discard, from a tenth of a millisecond
// to milliseconds). So an append leaves its lock directory parked in the
// sessions directory as .idle.lock (one for the whole directory, skipped by
// every reader like any *.lock), and the next lock of the directory renames
// it into place, stamped fresh, instead of creating one; a lock taken that
// way goes back at release, and reads, holds and deletes of a directory
// without one leave none. The lock other processes see is unchanged:
// <id>.jsonl.lock, created with mkdir by the TypeScript SDK. A
// program that appends in bursts can hold the session with
// [FileCheckpointer.Hold] (the [Holder] interface, which the engine uses
// for the operations of a turn): its operations then reuse one lock until
// the release, and durable batches of 64 one-kilobyte events cost about what
// write plus fdatasync of the same bytes cost. Logs of 4 MB or more are
// read and validated on several cores, in bounded memory, with the same
// results and errors as a serial read; an encrypted log is decoded into a
// reused buffer per core ([storage.Encoding.AppendDecode]).
//
// Beyond torn tails, nothing is repaired unless asked. With
// [FileOptions.RepairTail], a malformed last line of a plaintext log (one
// that ends with its newline but is not valid JSON, such as a zero-filled
// block after a power loss, or garbage) is dropped after the original file
// has been copied aside as <id>.jsonl.broken-<unix ms> (for an id over
// 228 characters, whose name that would not fit, <id>.broken-<last digits
// of the unix ms>; see [ParseCopyName]). A bad record anywhere else, a valid line
// that is not the expected record, and any record of an encoded log (or a
// line that holds an envelope) are never repaired, retried as plaintext,
// or treated as an empty session: they are errors, and the file is left
// as it was. [FileCheckpointer.Verify] lists every problem of a log and
// [FileCheckpointer.Scan] yields the records before the first one, both
// without changing anything.
package session
