// Package postgres is a lite-agent store on PostgreSQL, for agents that run
// on several hosts: the session logs, task lists, context archives and
// spilled bodies that the file home keeps under projects/ live in one
// database, behind the same contracts (session.Checkpointer, task.Store,
// archive.Archive, spill.Store), so that any replica can resume a session,
// see a shared task list or read an archived result.
//
//	st, err := postgres.Open(ctx, "postgres://agent@db.internal/agents", postgres.Options{})
//	defer st.Close()
//	p, err := st.Project(storage.Encoding{Codec: c, Namespace: "acme", ProjectID: paths.Hash})
//	lease, err := p.Acquire(ctx, sessionID, postgres.LeaseOptions{}) // one writer per session
//	defer lease.Release(ctx)
//	cp := p.Checkpointer()          // session.Checkpointer
//	tl, err := p.TaskList(listID)   // task.Store
//	ar, err := p.Archive(sessionID, 0) // archive.Archive
//	sp := p.Spill()                 // spill.Store
//
// # Tables
//
// Open creates the tables in an empty schema (Options.Schema, default
// "lite_agent") under an advisory lock, and refuses a schema of another
// version with a *SchemaError; see [SchemaVersion]. Every row carries the
// namespace, the project id and its scope (session or task list) and record
// id. Payloads are stored exactly as storage.Encoding produces them, under
// the storage.Context a file store binds (namespace, project id, kind,
// scope id, record id), so with an AEAD codec a row copied to another
// session, project or namespace fails to decode, and no plaintext of an
// event, task, note, index line or spilled body is in the database. There
// is no title or preview column: previews live in the encoded index
// records and are derived on read. What stays visible is what file names,
// sizes and times show for files: namespaces, project ids, session and
// list ids, task ids, sequence numbers, content refs (hashes), sizes,
// modification times, lease holders, and the codec id in each envelope.
//
// # Writers
//
// An append is one transaction that locks the session's row: expectedHead
// is checked there (a stale one is a *session.ConflictError) and the batch
// is inserted under the unique key (namespace, project, session, seq), so
// two writers can never fork a log. A running agent holds a [Lease] on its
// session: a row with holder, fencing token and expiry, renewed while held.
// Writes through the holder's Project carry the token; anyone else's
// writes to the session fail with a *BusyError naming the holder until the
// lease is released or expires. Task-list updates lock the list's row, so
// updates from many hosts serialize and none is lost.
//
// # Errors
//
// Connection strings never appear in errors: a dsn that does not parse is
// a *ConfigError, a database that cannot be reached or refuses the login a
// *ConnectError, a failed statement or lost connection a *DatabaseError
// (naming host and database). A transaction the server failed leaves
// nothing behind and the next call uses a fresh connection. A write a
// retry of which is not harmless, whose connection is lost once its
// statement or COMMIT went out, is asked after on a new connection: it
// succeeds if it landed, and is an *OutcomeUnknownError (wrapping the
// *DatabaseError) if the database cannot tell; the writes that are
// harmless to retry (deletes, Clear, MarkShared, content-addressed Puts)
// report the lost connection as a *DatabaseError, landed or not (see
// DatabaseError).
package postgres
