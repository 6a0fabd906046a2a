package shellscan

import "testing"

// Clients that change a local database server's state, and the servers
// themselves: running-process state outside the workdir (gate61: each
// was allowed). Their read-only forms stay allowed.
func TestG61DatabaseWriters(t *testing.T) {
	opaque := []string{
		`createdb x`, `dropdb x`, `createuser bob`, `dropuser bob`, `clusterdb`, `reindexdb app`, `vacuumdb app`,
		`vacuumlo app`, `pg_recvlogical -d app --slot x --create-slot`, `pg_restore -d app dump.bin`,
		`pg_restore --dbname=app dump.bin`, `pg_restore -dapp dump.bin`, `pgbench`, `pgbench -i app`,
		`pgbench --initialize app`, `pgbench -n -t 1 -f x.sql`, `pgbench -S -f x.sql`,
		`mysqld`, `mongod --dbpath d`, `redis-server`, `memcached`, `mysqlimport db t.txt`, `mysqlcheck --repair db`,
		`mysqlcheck -o db`, `mysql_upgrade`, `mariadb-admin drop x`, `mariadb-admin shutdown`, `mongorestore dump`,
		`mongoimport -c x f.json`, `mongofiles delete x`, `valkey-cli flushall`, `keydb-cli get x`,
		`clickhouse-client -q 'drop table x'`, `cqlsh -e 'drop keyspace x'`, `consul kv delete a`, `consul leave`,
		`influx delete --bucket x`, `pg_restore "$o" dump.bin`,
	}
	clean := []string{
		`pg_restore -f out.sql dump.bin`, `pg_restore -l dump.bin`, `pg_restore dump.bin`, `pg_dump app`,
		`pgbench -S -T 5 app`, `pgbench --select-only app`, `postgres -D pgdata`, `postgres --version`,
		`mysqlcheck db`, `mariadb-admin status`, `mongofiles list`, `consul members`, `consul kv get a`,
		`influx ping`, `createdb --version`, `initdb -D pgdata`, `pg_isready`,
	}
	checkRT57Lines(t, opaque, clean)
}
