#!/usr/bin/env bash
# install-postgres.sh: installs PostgreSQL from Debian (package "postgresql")
# when it is missing and starts a throwaway cluster for the store/postgres
# tests: initdb in a temporary directory as the postgres user, listening
# only on 127.0.0.1 at a free port, with password authentication.
#
# It prints the lines
#
#	export LITE_AGENT_TEST_POSTGRES=postgres://…
#	export LITE_AGENT_TEST_POSTGRES_STOP='…'   (the command that stops and removes the cluster)
#
# and writes them to the file named by $LITE_AGENT_TEST_POSTGRES_ENV (default
# /tmp/lite-agent-test-postgres.env), so either of these works:
#
#	eval "$(scripts/install-postgres.sh)"
#	scripts/install-postgres.sh >/dev/null && . /tmp/lite-agent-test-postgres.env
#
# and eval "$LITE_AGENT_TEST_POSTGRES_STOP" stops the cluster afterwards.
#
# Without apt-get or root it says so and exits 0 (the tests then skip),
# unless CI is set, when it fails instead.
set -euo pipefail

fail() {
	if [[ -n "${CI:-}" ]]; then
		echo "install-postgres: $1 (CI is set: the PostgreSQL tests must not skip)" >&2
		exit 1
	fi
	echo "install-postgres: $1; the PostgreSQL tests will skip" >&2
	exit 0
}

bindir() {
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		if [[ -x "$d/initdb" && -x "$d/pg_ctl" ]]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

sudo=""
if [[ "$(id -u)" != 0 ]]; then
	command -v sudo >/dev/null 2>&1 || fail "not root and no sudo"
	sudo="sudo"
fi

if ! bin="$(bindir)"; then
	command -v apt-get >/dev/null 2>&1 || fail "apt-get not found: install PostgreSQL with your package manager"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq || fail "apt-get update failed"
	$sudo apt-get install -y -qq postgresql >/dev/null || fail "apt-get install postgresql failed"
	bin="$(bindir)" || fail "PostgreSQL installed but initdb not found under /usr/lib/postgresql"
fi
id postgres >/dev/null 2>&1 || fail "no postgres user (the Debian package creates it)"

asuser() {
	if [[ "$(id -un)" == postgres ]]; then
		"$@"
	elif command -v runuser >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
		runuser -u postgres -- "$@"
	else
		$sudo -u postgres "$@"
	fi
}

# A free port on 127.0.0.1: bind port 0 and read what the kernel chose.
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
	echo $((20000 + RANDOM % 20000)))"

dir="$(mktemp -d /tmp/lite-agent-pg.XXXXXX)"
chown postgres: "$dir" 2>/dev/null || $sudo chown postgres: "$dir"
chmod 0700 "$dir"
password="$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')"
pwfile="$dir/pw"
echo "$password" | asuser tee "$pwfile" >/dev/null

asuser "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$pwfile" -A scram-sha-256 -E UTF8 --no-locale >/dev/null
rm -f "$pwfile"
asuser "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
	-o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=200" \
	start >/dev/null || { cat "$dir/log" >&2; fail "the cluster did not start"; }

url="postgres://postgres:$password@127.0.0.1:$port/postgres?sslmode=disable"
PGPASSWORD="$password" "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c 'CREATE DATABASE lite_agent_test' >/dev/null
url="postgres://postgres:$password@127.0.0.1:$port/lite_agent_test?sslmode=disable"

envfile="${LITE_AGENT_TEST_POSTGRES_ENV:-/tmp/lite-agent-test-postgres.env}"
umask 077
stop="runuser -u postgres -- $bin/pg_ctl -D $dir/data -m fast stop; rm -rf $dir"
[[ "$(id -u)" == 0 ]] || stop="sudo -u postgres $bin/pg_ctl -D $dir/data -m fast stop; sudo rm -rf $dir"
{
	echo "export LITE_AGENT_TEST_POSTGRES='$url'"
	echo "export LITE_AGENT_TEST_POSTGRES_STOP='$stop'"
} >"$envfile"
cat "$envfile"
echo "install-postgres: cluster in $dir (written to $envfile); stop it with: eval \"\$LITE_AGENT_TEST_POSTGRES_STOP\"" >&2
