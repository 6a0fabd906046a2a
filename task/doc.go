// Package task holds task lists: numbered tasks with a status, an owner,
// free-form metadata, the agent run working on them, and dependency edges
// kept on both ends. A [Store] is the contract; [FileStore] keeps a list on
// disk and [MemoryStore] in memory, and both apply the same rules; the
// suite in task/tasktest checks any implementation.
//
// # Rules
//
// Create gives a task the next id: one more than the largest numeric id in
// the list, as a decimal string, starting at "1". Update checks, in order,
// that the task exists, the execution guards of a task whose agent is
// running, the input, that the other end of every new edge exists, that no
// edge closes a cycle (a task may not wait for itself, directly or through
// others), and the readiness rule: a task that is in progress, in review or
// completed must have all of its blockedBy tasks completed. Only then is
// anything written. Metadata is merged key by key (a shallow merge); an
// execution record is replaced whole.
//
// # On-disk format
//
// A list lives in the directory <tasksDir>/<listID>/ (mode 0700), one file
// per task named <id>.json (mode 0600), where every character of the id
// outside [A-Za-z0-9_-] becomes "_" in the file name (as the TypeScript
// SDK names them), so "../secret" can only ever name
// "___secret.json" inside the list directory. Records that earlier versions
// stored under a name keeping "." are still found, and move to the current
// name when rewritten. The plaintext record is the task as JSON with
// two-space indentation and no trailing newline, keys in a fixed order
// (a rewrite keeps the order of the record it replaces, and the members
// this package does not know, so that records written by other
// implementations survive an update), blockedBy and blocks always present,
// activeForm, owner, metadata and execution only when set, and times in
// milliseconds since the Unix epoch. Task 2 of a list, waiting for task 1:
//
//	{
//	  "id": "2",
//	  "subject": "Write the migration",
//	  "description": "Add the column and backfill it",
//	  "activeForm": "Writing the migration",
//	  "status": "in_progress",
//	  "owner": "alice",
//	  "blockedBy": [
//	    "1"
//	  ],
//	  "blocks": [],
//	  "metadata": {
//	    "estimate": 3
//	  },
//	  "createdAt": 1750000000000,
//	  "updatedAt": 1750000060000
//	}
//
// and 1.json lists "2" in its blocks. Statuses are pending, in_progress,
// review, completed, failed and cancelled; an execution is
// {"agentId": …, "status": running|succeeded|failed|cancelled, "result": …}.
//
// With a codec ([storage.Encoding.Codec]), each file instead holds the
// one-line envelope {"liteAgentStorage":1,"codec":"<id>","payload":"…"} of
// that record, encoded with kind "task", scope the list id and record id the
// task id; file names, sizes and times stay visible. A list is read with the
// codec it was written with: a plaintext list opened with a codec, an
// encoded list opened without one or with another codec id, and a wrong key
// all fail with a *storage.Error and change nothing. Converting a list is an
// explicit migration.
//
// Files are replaced atomically (a temp file .<name>.<12 hex>.tmp holding
// the encoded bytes, fsync, rename, fsync of the directory), so every file is
// always a whole record, and every acknowledged operation is on disk.
//
// # Failures
//
// Reads fail closed. A record that does not decode, is not a task object,
// holds another task's id, lacks a string subject or the edge arrays, or has
// an unknown status fails the operation with a *storage.Error "Corrupt task
// record" naming the file and the record; nothing is skipped or repaired,
// and no error ever carries record content or a codec's error text. A
// symlinked record or list directory, and a list directory replaced after
// the store was opened, are refused the same way. Create reads every record
// of the list first, so it never extends a list it cannot read, and never
// mixes encoded and plaintext records.
//
// An update encodes every touched record before it writes the first one, so
// a failing codec changes nothing. The writes themselves are separate atomic
// replaces: an I/O error or a crash between two of them can leave a new
// edge recorded on one end only, never a damaged file.
//
// # Concurrency
//
// Every operation of a [FileStore], reads included, runs under the list's
// lock, the directory <tasksDir>/<listID>.lock, held across reading,
// decoding, encoding and writing; codecs therefore run with the lock held and
// must return. The lock is a directory made with mkdir, refreshed while held
// and taken over once ten seconds stale (so a killed holder blocks the list
// for ten seconds at most), the convention every program sharing a data home
// follows. A FileStore is therefore safe for concurrent use by goroutines and
// by processes; ids are chosen under the lock and never handed out twice.
// Processes on one machine also queue for a list with flock(2) on its
// directory before trying the lock directory, so that waiters are served in
// turn instead of polling; the lock directory alone decides who holds the
// list.
//
// # Private and shared lists
//
// The list a session uses is the caller's choice. By default it is private:
// its id is the session id, and deleting the session may delete it. Naming
// a list id explicitly (the agent's task-list option, or
// LITE_AGENT_TASK_LIST_ID for the default namespace) makes a shared list
// that every session naming it sees and that outlives them.
// [DefaultListID] makes that choice. List ids, like session ids, must be
// non-empty letters, digits, underscores and hyphens; [NewFileStore] refuses
// anything else before it creates a directory.
//
// # Rendering
//
// Render gives the model one line per task, in id order:
//
//	[x] #1 Design schema (completed)
//	[>] #2 Write migration (in_progress) @alice
//	[ ] #3 Review migration (pending) [blockedBy: 2]
//
// The markers are "[ ]" pending, "[>]" in progress, "[?]" review, "[x]"
// completed, "[!]" failed and "[-]" cancelled. Only dependencies that are
// not completed are listed, then the owner. [RenderOptions.ActiveOnly]
// leaves out completed and cancelled tasks. An empty list renders as "".
package task
