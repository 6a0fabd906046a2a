package shellscan

import (
	"strings"
)

// A local database server is running-process state outside the workdir:
// the clients that create, drop, restore into, import into, repair or
// vacuum its databases, and the servers themselves, change what the
// workdir does not hold and git cannot restore. psql, mysql, sqlite3 and
// redis-cli are opaque as a whole (see opaqueCommands) and mysqladmin's
// writing commands with the services' control programs; these are the
// rest (gate61: each was allowed): PostgreSQL's createdb, dropdb,
// createuser, dropuser, clusterdb, reindexdb, vacuumdb, vacuumlo,
// pg_recvlogical, pg_restore -d and pgbench but for its select-only
// run, the servers whose defaults open the system's data (mysqld's
// /var/lib/mysql, mongod's /data/db) or listen for any client
// (redis-server, memcached; postgres refuses root, and its --single is
// opaque, see redteam60.go),
// MariaDB's mariadb-admin as mysqladmin, mysqlimport, mysqlcheck's
// repairs, the upgrade and secure-installation scripts, mongorestore,
// mongoimport and mongofiles' writes, redis-cli's kin (valkey-cli,
// keydb-cli), SQL shells of other servers (clickhouse-client, cqlsh),
// and consul's and influx's commands but those that read.

// dbWriters are the clients that always change the server's state (but
// for --version and --help).
var dbWriters = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`createdb dropdb createuser dropuser createlang droplang clusterdb reindexdb
		vacuumdb vacuumlo pg_recvlogical mysqld mysqld_safe mariadbd mariadbd-safe mongod mongos
		redis-server valkey-server keydb-server memcached mysqlimport mariadb-import mysql_upgrade mariadb-upgrade
		mysql_secure_installation mariadb-secure-installation mysqlrepair mysqloptimize mysqlanalyze
		mariadb-repair mariadb-optimize mariadb-analyze mongorestore mongoimport valkey-cli keydb-cli
		clickhouse-client cqlsh`) {
		m[n] = true
	}
	return m
}}

// dbClientsOpaque makes the line opaque when the database client name
// args changes a local server's state (see above).
func (an *analyzer) dbClientsOpaque(name string, args []word) {
	if onlyVersion(args) {
		return
	}
	why := name + " changes the state of a database server, which the workdir does not hold"
	has := func(short string, longs ...string) bool {
		for _, a := range args {
			t := a.text
			if a.dynamic && strings.HasPrefix(t, "-") {
				return true
			}
			if short != "" && (t == short || !strings.HasPrefix(t, "--") && strings.HasPrefix(t, short) && len(short) == 2) {
				return true
			}
			for _, l := range longs {
				if t == l || strings.HasPrefix(t, l+"=") {
					return true
				}
			}
		}
		return false
	}
	switch {
	case dbWriters.get()[name]:
		an.opaque(why)
	case name == "pg_restore":
		if has("-d", "--dbname") {
			an.opaque(why)
		}
	case name == "pgbench":
		// Only the built-in select-only script reads; -i drops and
		// creates its tables, the others update them.
		if has("-i", "--initialize") || has("-f", "--file") || !has("-S", "--select-only") &&
			!has("", "--builtin=select-only") {
			an.opaque(why)
		}
	case name == "mysqlcheck" || name == "mariadb-check":
		if has("-r", "--repair") || has("-o", "--optimize") || has("-a", "--analyze") || has("", "--auto-repair") {
			an.opaque(why)
		}
	case name == "mariadb-admin":
		switch firstOperand(args) {
		case "status", "processlist", "variables", "version", "ping", "extended-status":
		default:
			an.opaque(why)
		}
	case name == "mongofiles":
		switch firstOperand(args) {
		case "list", "search", "get", "get_id", "get_regex":
		default:
			an.opaque(why)
		}
	case name == "consul":
		switch op := firstOperand(args); op {
		case "members", "info", "version", "catalog", "monitor":
		case "kv":
			if i := operandIndex(args, 1); i < 0 || args[i].text != "get" && args[i].text != "export" {
				an.opaque(why)
			}
		default:
			an.opaque(why)
		}
	case name == "influx":
		switch firstOperand(args) {
		case "ping", "version":
		default:
			an.opaque(why)
		}
	}
}

// operandIndex returns the index in args of the n-th (from 0) word that
// is no option, or -1.
func operandIndex(args []word, n int) int {
	for i, a := range args {
		if strings.HasPrefix(a.text, "-") {
			continue
		}
		if n == 0 {
			return i
		}
		n--
	}
	return -1
}
