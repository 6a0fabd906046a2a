#!/usr/bin/env bash
# install-strace.sh: installs strace (Debian and Ubuntu package "strace"),
# which the tests that check the system calls a store makes (the
# directory fsyncs of internal/safefs) run their helper process under.
#
# Idempotent: when strace is already installed it only reports its version.
# Without apt-get, or without the rights to use it, it says so and exits 0
# (the strace tests then skip), unless CI is set, when it fails instead.
set -euo pipefail

if command -v strace >/dev/null 2>&1; then
	echo "install-strace: $(strace -V | head -n 1)"
	exit 0
fi

fail() {
	if [[ -n "${CI:-}" ]]; then
		echo "install-strace: $1 (CI is set: the strace tests must not skip)" >&2
		exit 1
	fi
	echo "install-strace: $1; the strace tests will skip" >&2
	exit 0
}

command -v apt-get >/dev/null 2>&1 || fail "apt-get not found: install strace with your package manager"
sudo=""
if [[ "$(id -u)" != 0 ]]; then
	command -v sudo >/dev/null 2>&1 || fail "not root and no sudo"
	sudo="sudo"
fi
$sudo apt-get update -q
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q strace
echo "install-strace: $(strace -V | head -n 1)"
