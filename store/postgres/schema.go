package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// SchemaVersion is the version of the tables this package writes. A schema
// records its version in a one-row table; Open creates the tables in an
// empty schema and refuses any other version with a *SchemaError.
//
// Why not a migration library such as pressly/goose: there is one version,
// and the rule is to refuse, never to migrate in place (data moves between
// versions by lite-agent migrate, verified record by record). What remains
// — create under a lock, compare one number — is the few statements
// below; a library would add its own bookkeeping table and a dependency
// for no behaviour we use. When a second version exists, adopting one is
// the natural step.
const SchemaVersion = 1

// schemaSQL creates version 1. %[1]s is the quoted schema name.
//
// Every row carries the namespace and the project id; payloads (data) are
// the stored form of storage.Encoding: plaintext JSON, or an envelope. No
// column holds a title, preview or other plaintext derived from a payload:
// what stays visible is ids, sequence numbers, refs (content hashes, as in
// file names), sizes, times, lease holders and the codec id inside each
// envelope — the same metadata the file home shows.
const schemaSQL = `
CREATE TABLE %[1]s.schema_version (
	version integer NOT NULL
);
CREATE TABLE %[1]s.sessions (
	namespace text NOT NULL,
	project   text NOT NULL,
	session   text NOT NULL,
	head      bigint NOT NULL,
	bytes     bigint NOT NULL,
	modified  timestamptz NOT NULL,
	PRIMARY KEY (namespace, project, session)
);
CREATE TABLE %[1]s.events (
	namespace text NOT NULL,
	project   text NOT NULL,
	session   text NOT NULL,
	seq       bigint NOT NULL,
	data      bytea NOT NULL,
	PRIMARY KEY (namespace, project, session, seq)
);
CREATE TABLE %[1]s.leases (
	namespace text NOT NULL,
	project   text NOT NULL,
	session   text NOT NULL,
	holder    text NOT NULL,
	token     bigint NOT NULL,
	expires   timestamptz NOT NULL,
	PRIMARY KEY (namespace, project, session)
);
CREATE TABLE %[1]s.task_lists (
	namespace text NOT NULL,
	project   text NOT NULL,
	list      text NOT NULL,
	shared    boolean NOT NULL DEFAULT false,
	modified  timestamptz NOT NULL,
	PRIMARY KEY (namespace, project, list)
);
CREATE TABLE %[1]s.tasks (
	namespace text NOT NULL,
	project   text NOT NULL,
	list      text NOT NULL,
	id        text NOT NULL,
	data      bytea NOT NULL,
	PRIMARY KEY (namespace, project, list, id)
);
CREATE TABLE %[1]s.archives (
	namespace text NOT NULL,
	project   text NOT NULL,
	session   text NOT NULL,
	entries   integer NOT NULL,
	bytes     bigint NOT NULL,
	modified  timestamptz NOT NULL,
	PRIMARY KEY (namespace, project, session)
);
CREATE TABLE %[1]s.archive_index (
	namespace text NOT NULL,
	project   text NOT NULL,
	session   text NOT NULL,
	pos       integer NOT NULL,
	ref       text NOT NULL,
	data      bytea NOT NULL,
	PRIMARY KEY (namespace, project, session, pos),
	UNIQUE (namespace, project, session, ref)
);
CREATE TABLE %[1]s.archive_notes (
	namespace text NOT NULL,
	project   text NOT NULL,
	session   text NOT NULL,
	ref       text NOT NULL,
	data      bytea NOT NULL,
	PRIMARY KEY (namespace, project, session, ref)
);
CREATE TABLE %[1]s.spill (
	namespace text NOT NULL,
	project   text NOT NULL,
	ref       text NOT NULL,
	data      bytea NOT NULL,
	created   timestamptz NOT NULL,
	PRIMARY KEY (namespace, project, ref)
);
INSERT INTO %[1]s.schema_version (version) VALUES (1);
`

// queries holds the SQL text bound to one schema.
type queries struct {
	schema string // quoted
}

func newQueries(quoted string) queries { return queries{schema: quoted} }

// t returns the qualified name of table.
func (q queries) t(table string) string { return q.schema + "." + table }

// sql replaces every {table} in text with the qualified table name.
func (q queries) sql(text string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.IndexByte(text[i:], '}')
		b.WriteString(text[:i])
		b.WriteString(q.t(text[i+1 : i+j]))
		text = text[i+j+1:]
	}
}

// schemaLockKey is the advisory lock key under which schemas are created:
// a fixed number in the two-key space, the second key the schema's hash.
const schemaLockKey = 0x6c697465 // "lite"

// ensureSchema creates the tables in an empty schema, or checks the version
// of an existing one, under an advisory transaction lock.
func (s *Store) ensureSchema(ctx context.Context) error {
	// The common case, a schema already at this version, is one query
	// without the lock: the tables and the version row are created in one
	// transaction, so a version row means complete tables. Anything else
	// (no such table, another version, no row) takes the locked path,
	// which decides.
	var v int
	if err := s.pool.QueryRow(ctx, `SELECT version FROM `+s.q.t("schema_version")).Scan(&v); err == nil && v == SchemaVersion {
		return nil
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, schemaLockKey, s.schema); err != nil {
			return err
		}
		var hasVersion bool
		var tables int
		err := tx.QueryRow(ctx, `SELECT
			EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'schema_version'),
			(SELECT count(*) FROM information_schema.tables WHERE table_schema = $1)`, s.schema).Scan(&hasVersion, &tables)
		if err != nil {
			return err
		}
		if hasVersion {
			var v int
			if err := tx.QueryRow(ctx, `SELECT version FROM `+s.q.t("schema_version")).Scan(&v); err != nil {
				if errors.Is(err, pgx.ErrNoRows) {
					return &SchemaError{Schema: s.schema, Want: SchemaVersion}
				}
				return err
			}
			if v != SchemaVersion {
				return &SchemaError{Schema: s.schema, Found: v, Want: SchemaVersion}
			}
			return nil
		}
		if tables > 0 {
			return &SchemaError{Schema: s.schema, Want: SchemaVersion}
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+s.q.schema); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, fmt.Sprintf(schemaSQL, s.q.schema))
		return err
	})
}
