// Package migrate copies the runtime data of one project, or of a whole data
// home, from one storage configuration to another: a new codec (turning
// encryption on or off, compressing), a new key (a codec id with another key
// version), a new namespace, a new home or a new workdir. Nothing in the SDK
// converts data silently; this package is the explicit migration the storage
// documentation asks for. It reads every record with the source
// configuration and writes it, re-encoded, into a separate destination, then
// proves the destination before declaring it complete.
//
// # What is copied
//
// With [Options.AllProjects] unset, one project is copied: the directory
// <source home>/projects/<source hash> becomes
// <destination home>/projects/<destination hash>, where each hash is
// [storage.ProjectHash] of the side's workdir. Moving only the home keeps the
// hash; a new workdir changes it. With AllProjects, the whole source home is
// copied: every project directory (each keeping its hash) and the home's
// configuration files hooks.json, mcps.json and permissions.json and the trees
// skills/ and agents/, which are never encoded and are copied byte for byte.
//
// Inside a project:
//
//   - session logs, sessions/<id>.jsonl, record by record and in order: the
//     plaintext of every record (seq, parentSeq, ts and event exactly as
//     stored) is unchanged, only its encoding is;
//   - context archives, sessions/<id>.context/, index line by index line in
//     their order, and every note, with the session id as codec scope;
//   - task lists, tasks/<list id>/<task id>.json, keeping list and task ids;
//   - spilled output, spill/<ref>.txt.
//
// Every file copied keeps its source's modification time, as do the
// directories of archives, their notes and task lists, so that sessions
// list in the same order, "the latest session" is the same one, and cleanup
// ages the data from its last change, not from the migration. Other
// directories (sessions/, tasks/, spill/, the project's own, and with
// AllProjects projects/ and the configuration trees) take the time of the
// migration.
//
// Every record is decoded with the source [storage.Encoding] (source
// namespace, source project id) and encoded with the destination's
// (destination namespace, destination project id), so that an
// authenticating codec binds each record to its new place.
//
// Lock directories (*.lock) are not copied. Temporary files left by an
// interrupted write (.<name>.<hex>.tmp), the copies a tail repair sets
// aside (<id>.jsonl.broken-<ms>), the torn tails an append sets aside
// (<id>.jsonl.torn-<ms>; for an id too long for those names, <id>.broken-<n>
// and <id>.torn-<n>, see session.ParseCopyName), the torn tails a context archive's put sets
// aside (index.jsonl.torn-<ms> in <id>.context) and a torn tail still at
// the end of a session log or of an archive's index.jsonl (bytes after its
// last newline, see session.TornTailError) are not records: they are left out and listed in [Report.Skipped]. Anything else the package does not recognise stops
// the migration, as does a symlink anywhere in the copied tree; with
// [Options.SkipUnreadable] they are left out and listed instead.
//
// # Rules
//
//   - The source is only read. Its records are read under their locks (the
//     lock directories <id>.jsonl.lock, <id>.context.lock (<id>.c.lock
//     for an id over 242 characters) and
//     <list id>.lock the stores use; spill files are replaced atomically and
//     need none), so a lock directory appears and disappears while a record
//     is read; nothing else in the source changes. A source directory that
//     does not exist is never created.
//   - The destination root, the destination project directory (one project)
//     or the destination home (all projects), must not exist or must be an
//     empty directory. It must not be the source root, nor lie inside it.
//     With one project, the rest of the destination home may hold other
//     projects; they are not touched.
//   - Before writing any record, Run creates the destination root, takes the
//     lock <root>/.migration-incomplete.lock (so two migrations never share a
//     destination) and writes the marker file <root>/.migration-incomplete
//     ([MarkerName]), which names the source, and syncs it to disk. The
//     marker is written atomically: to a temp file beside it
//     (.<marker>.<hex>.tmp), synced, then moved to its name by a move that
//     never replaces one (see safefs.WriteFileExclusive), so that a run
//     killed on the way leaves no marker (and at most that temp file, which
//     a rerun removes under the lock and lite-agent cleanup accepts), or a
//     whole one; never an empty one. It does
//     that while it reads the source's directories to plan the copy; a
//     source it then refuses leaves the destination as it was (the marker,
//     the lock and the directories made for them are removed again). A
//     destination that holds an interrupted migration is opened only after
//     the plan. The marker is removed last,
//     after everything was written, flushed to disk and verified. A
//     destination holding the marker is incomplete: [CheckComplete] reports
//     it, and so does lite-agent verify.
//   - A run over a destination that holds only an interrupted migration of
//     the same source (its marker, and nothing but what a migration writes:
//     every file in it has a counterpart at the same place in the source)
//     clears it and starts over. A marker naming another source, or entries
//     a migration of this source would not have written (a session, task
//     or spilled output a writer of the destination put there), make the
//     run fail instead: nothing that a migration did not write is ever
//     deleted.
//   - A marker that cannot be read is refused ("remove the destination by
//     hand"), with one exception: a marker cut short (empty, zeros, or the
//     beginning of a marker's JSON that ends before the JSON does) with
//     nothing beside it but the lock and what a killed lock takeover or
//     marker write leaves. Versions before the marker was written
//     atomically created it and then wrote it, and a run killed in between
//     left such a marker; as every version copies nothing before its
//     marker is whole and synced, that run wrote nothing else. A rerun
//     (which holds the lock, so the run that wrote it is gone) takes it
//     over whatever source it may have named: nothing of that run's is
//     there to keep, and nothing else is removed. A cut marker beside any
//     other entry is refused: what wrote that entry cannot be told.
//   - A session being deleted in the source (its log set aside as
//     <id>.jsonl.deleting by a delete that has not finished) is refused
//     with its *session.DeletingError before any record is written. A
//     delete that begins while the copy runs is not excluded by the
//     source's locks, which are taken one file at a time: once the copy
//     is over, and before the marker goes, every session copied must
//     still have its log in place, not set aside, and beginning with the
//     line the copy began with (not a new session that took the id of
//     one deleted meanwhile); otherwise the migration
//     fails with a *session.DeletingError or *session.NotFoundError naming
//     the session, also when the delete made the copy itself fail, and
//     nothing is kept. A delete that begins after that check began after
//     the copy, which holds the session whole.
//   - A source record that does not decode under the source configuration,
//     or is not a valid record of its kind, stops the migration with an error
//     naming the file and the record. With SkipUnreadable it is left out and
//     listed in [Report.Skipped] with the reason; in a session log, the
//     records after it are left out too (a log is a gap-free sequence), and
//     the copy keeps the readable prefix.
//   - When the copy fails (a source error, a full disk), Run removes what it
//     wrote and then the marker, and returns the error: the files it
//     created (each only while it is still the file it created, unchanged
//     since the copy finished it: not written to, replaced or stamped) and the
//     directories it made (each only if empty), so that files an agent of
//     the destination, started before the marker was written, put there
//     meanwhile stay. The removals are synced to disk before the marker
//     goes, so that a crash cannot keep part of the copy without it. If
//     that cleanup itself fails, the marker stays, so the destination is
//     never mistaken for a complete one.
//
// # Verification
//
// Every record written is proved to decode, as stored, with the destination
// configuration to its source plaintext. In a session log each record is
// decoded again as soon as it is encoded and compared byte for byte with its
// source plaintext, and each chunk of the file is read back once written
// and compared byte for byte with the bytes that were decoded: together this
// proves what decoding the file read back would, without parsing the log a
// second time. Other files are read back whole and each record
// is decoded; the SHA-256 of its plaintext must equal the SHA-256 of the
// source plaintext, and the counts must match. Task lists are also read back
// through task.FileStore. Any difference is a [Problem]; Run then returns an
// error matching [ErrVerification] and leaves the destination marked
// incomplete, for inspection. [Report] counts records, files and bytes per
// kind.
//
// # Durability
//
// Records are written without a sync per file; before the marker is removed
// the destination's file system is flushed (syncfs on Linux, an fsync of
// every written file and directory elsewhere). A crash at any moment
// therefore leaves either the marker or a complete destination. On Linux the
// file system is also synced in the background while the copy runs, after
// every 16 MiB written, so that the disk writes while the processors work and
// the last flush is short; the last flush begins as soon as the copy has
// written its last file, while the source is checked for sessions deleted
// meanwhile, and the marker goes only after both. The entries of the
// directories Run creates on the way to the destination root (the root's
// own among them) are synced in the background from the start, and the
// marker goes only after that too: until then a crash may lose the root
// with everything in it, which leaves no destination rather than one
// without its marker.
package migrate
