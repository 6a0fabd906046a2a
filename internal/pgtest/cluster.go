package pgtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// clogPage is the number of transactions whose status one page of the
// commit log holds: a cluster's next transaction id set by pg_resetwal
// starts a page, so that the server need not read a page it never wrote.
const clogPage = 32768

// Cluster starts a PostgreSQL cluster of tb's own, in a temporary
// directory, stopped and removed when tb ends, and returns the URL of its
// database dbname (created empty), reached over TCP on 127.0.0.1 as the
// user postgres, any password accepted. With nextXid > 0 the cluster's
// transaction ids start at nextXid rounded down to a multiple of 32768
// (pg_resetwal -x; below 32768, where a new cluster starts), so that a
// test can make it hand out the ids another server handed out, as a
// replica promoted after a failover does. It
// needs the PostgreSQL server programs and root or sudo without a
// password (to run them as the user postgres); without them the test
// skips, naming scripts/install-postgres.sh, or fails under CI.
func Cluster(tb testing.TB, nextXid int64, dbname string) string {
	tb.Helper()
	u, _ := cluster(tb, nextXid, dbname)
	return u
}

// RestartableCluster is Cluster, with a function that restarts the
// server (a fast shutdown, then a start, as an operator's restart does:
// every connection cut, the data kept, pg_postmaster_start_time new),
// failing tb if it cannot.
func RestartableCluster(tb testing.TB, nextXid int64, dbname string) (url string, restart func()) {
	tb.Helper()
	return cluster(tb, nextXid, dbname)
}

func cluster(tb testing.TB, nextXid int64, dbname string) (string, func()) {
	tb.Helper()
	skip := func(why string) {
		msg := "a private PostgreSQL cluster cannot be started: " + why + ": run scripts/install-postgres.sh (as root)"
		if os.Getenv("CI") != "" {
			tb.Fatal(msg + " (CI is set: PostgreSQL tests must not skip)")
		}
		tb.Skip(msg)
	}
	// As scripts/install-postgres.sh does: the server's programs run as
	// the user postgres, through runuser as root, through sudo otherwise.
	asPostgres := []string{"runuser", "-u", "postgres", "--"}
	asRoot := []string(nil)
	if os.Geteuid() != 0 {
		if exec.Command("sudo", "-n", "true").Run() != nil {
			skip("not root, and no sudo without a password")
		}
		asPostgres = []string{"sudo", "-n", "-u", "postgres", "--"}
		asRoot = []string{"sudo", "-n"}
	}
	command := func(prefix []string, args ...string) *exec.Cmd {
		all := append(slices.Clone(prefix), args...)
		return exec.Command(all[0], all[1:]...)
	}
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		skip("no /usr/lib/postgresql/*/bin/initdb")
	}
	sort.Strings(bins)
	bin := filepath.Dir(bins[len(bins)-1])
	pg, err := user.Lookup("postgres")
	if err != nil {
		skip("no user postgres")
	}
	dir, err := os.MkdirTemp("", "pgtest-cluster-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if out, err := command(asRoot, "rm", "-rf", dir).CombinedOutput(); err != nil {
			tb.Logf("rm -rf %s: %v\n%s", dir, err, out)
		}
	})
	if out, err := command(asRoot, "chown", pg.Uid+":"+pg.Gid, dir).CombinedOutput(); err != nil {
		tb.Fatalf("chown %s: %v\n%s", dir, err, out)
	}
	run := func(name string, args ...string) {
		tb.Helper()
		out, err := command(asPostgres, append([]string{filepath.Join(bin, name)}, args...)...).CombinedOutput()
		if err != nil {
			tb.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	data := filepath.Join(dir, "data")
	run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale")
	// Below the first page boundary a new cluster starts there already
	// (pg_resetwal refuses -x 0): a fresh test server's ids, in CI, are.
	if x := nextXid / clogPage * clogPage; x >= clogPage {
		run("pg_resetwal", "-f", "-x", strconv.FormatInt(x, 10), "-D", data)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ctl := func(action ...string) {
		tb.Helper()
		run("pg_ctl", append([]string{"-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "120", "-o",
			fmt.Sprintf("-c listen_addresses=127.0.0.1 -c port=%d -c unix_socket_directories=%s -c fsync=off", port, dir)}, action...)...)
	}
	ctl("start")
	tb.Cleanup(func() {
		out, err := command(asPostgres, filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop").CombinedOutput()
		if err != nil {
			tb.Logf("pg_ctl stop: %v\n%s", err, out)
		}
	})
	u := url.URL{Scheme: "postgres", User: url.User("postgres"), Host: fmt.Sprintf("127.0.0.1:%d", port), Path: "/postgres", RawQuery: "sslmode=disable"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, u.String())
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{dbname}.Sanitize()); err != nil {
		tb.Fatal(err)
	}
	u.Path = "/" + dbname
	return u.String(), func() { ctl("-m", "fast", "restart") }
}
