// Package retention removes stale runtime files from a data home.
//
// [Sweep] looks only at <home>/projects/<project hash>/spill and
// <home>/projects/<project hash>/sessions and, in each, only at the direct
// entries: session logs (<id>.jsonl), archive directories (<id>.context)
// and spilled bodies (<ref>.txt), and whatever else happens to be there;
// under tasks/ it looks only for temporary files and for the lists of
// forks that died (rules 5 and 8).
//
// # Rules
//
//  1. If <home>/projects is missing, a symlink or not a directory, nothing
//     happens.
//  2. Project entries that are symlinks or not directories are skipped; so
//     are spill and sessions entries that are missing, symlinks or not
//     directories. A symlinked project is never traversed. A project
//     directory holding the marker of a migration that has not finished
//     (.migration-incomplete, migrate.MarkerName) is skipped whole
//     ([SkipMigrating]), and so is every project of a home holding one: a
//     migration's copies keep their sources' modification times and look
//     old, and the migration must find them whole when it verifies its
//     copy. An entry is also left when the marker has appeared by the time
//     it is removed.
//  3. Each direct entry is inspected with lstat and skipped if it is a
//     symlink, if its name ends in ".lock" (a lock directory; but see rule
//     7 for one whose entry is gone), if
//     <entry>.lock (the short form filelock gives a name too long for
//     that, such as <id>.c.lock for <id>.context) exists beside it and is live (a store holds its lock;
//     see the guarantees for a stale one), if it is neither a regular file
//     nor a directory, or if it is a regular file with other hard links.
//     The log of a session being deleted (<id>.jsonl.deleting, or
//     <id>.deleting for an id too long for that name, which
//     session.FileCheckpointer's BeginDelete sets aside before removing
//     the session's archive and task list) is skipped too
//     ([SkipDeleting]): neither the age rule nor the size limit removes
//     it, and it does not count against MaxBytes. It is the only record
//     that the session's leftovers are being deleted; the delete's rerun
//     removes it, after them. (The sweep does not finish the delete
//     itself: it removes nothing under tasks/ but what rules 5 and 8 say.)
//  4. An entry last modified before now − MaxAge (30 days by default) is
//     removed, a directory with everything in it. Because a directory's own
//     modification time changes only when entries are added or removed, a
//     directory counts as old only when nothing inside it is younger, and
//     one that contains a lock is skipped. A context archive (<id>.context)
//     is also kept while its session's log (<id>.jsonl beside it) is young:
//     a resumed session may read its archive without writing to it. The
//     logs of a directory are swept before its archives, and an archive
//     goes only when, at its removal, its log is gone: removed by the same
//     sweep (would be, in a dry run) or missing before it. An archive whose
//     log stays for any reason stays too: a session resumed while the sweep
//     runs (its log changed since the scan, or is locked), a log a reader
//     held locked when the sweep came to it, a log with other links. The
//     refs of a log that stays never lead to a removed archive.
//  5. A store's temporary file (.<record>.<12 hex>.tmp), directly in a
//     sessions or spill directory, in a context archive directory or in a
//     task list directory, is removed once it was last modified more than
//     [TempMaxAge] (one hour) ago, unless its record's lock
//     (<record>.lock) or its directory's lock (<dir>.lock) is live: a
//     lock directory unrefreshed for the stale period (10 s) protects
//     nothing, by the stores' own rule. Stores write such a file and
//     rename it over the record within one locked operation, so an older
//     one is what a killed writer left.
//  6. When a size limit is set, the remaining regular files (directories
//     never count) are removed least recently modified first until their
//     total size is at most MaxBytes. The budget spans all projects.
//  7. A lock directory <entry>.lock whose entry is gone and which is
//     stale (unrefreshed for 10 s) is what a store or sweep killed after
//     removing the entry and before releasing its lock leaves. The sweep
//     takes it over as a store would, checks that the entry is still
//     missing, and releases it, which removes it ([ReasonStaleLock]). A
//     live one may be a store's about to create its entry, and stays.
//  8. A task list holding a fork's mark (.fork-incomplete,
//     task.ForkMarker) whose session has no log (sessions/<id>.jsonl) is
//     what a fork killed part-way left. It is removed, under its lock, as
//     an old directory is by rule 4 ([ReasonForkLeftover]), and only if
//     the mark is still there and the log still missing at its removal
//     (a list whose log this sweep removed stays, as every session's list
//     does). Rules 5 and 8 are the only removals under tasks/: a list without the
//     mark is never removed.
//
// The files are judged by name, type, size and modification time only.
// Records are never opened, decoded or parsed, so an unreadable, damaged or
// unfamiliar file is treated like any other: removed when it is old or over
// the budget, and never merely because its format is not understood.
//
// # Guarantees
//
//   - Nothing outside <home>/projects is ever removed. Every directory is
//     opened as an [os.Root] after checking that it is the directory that
//     was inspected, and entries are removed by name within it.
//   - Symlinks are never followed and never removed, wherever they point.
//     Removing a directory removes the links inside it, never their targets.
//   - Under tasks/, nothing but orphaned temporary files and the old task
//     lists of forks that died (rule 8) is removed.
//   - Just before removing an entry the sweep takes its lock as the stores
//     take it (the directory <entry>.lock, made with mkdir inside the
//     entry's opened directory and refreshed while held; on Unix systems
//     made, refreshed, taken over and removed relative to the handle of
//     that directory, never through a path, with /proc mounted or not)
//     and inspects the
//     entry again; if it was locked, is no longer the same file or was
//     modified, it stays and is reported as locked or changed. The lock is
//     held until the entry is gone, so a store that wants the entry
//     meanwhile waits, and then finds it missing, instead of writing into a
//     directory being removed. A lock directory not refreshed for the stale
//     period (10 s), which only a killed store or sweep leaves, protects
//     nothing: the sweep takes it over as a store would, so an entry whose
//     removal a killed sweep left half done goes with the next sweep. If
//     the sweep's own lock is taken over or removed during a removal (the
//     sweep stalled past the stale period), it stops removing the entry,
//     reports it as locked, and leaves the other's lock in place: its
//     release removes only its own lock. A dry run takes no lock.
//   - A dry run reports exactly what a real sweep would remove and removes
//     nothing.
//   - Every decision is in the [Report]: what went and why, what was
//     refused and why, and the bytes freed and still counted.
//
// The sweep is best effort: a problem with one entry is reported and the
// sweep goes on. It only sees locks that are lock directories
// (<entry>.lock, the convention of the built-in stores); a file held open by
// a process that took no lock can be removed like any other.
package retention
