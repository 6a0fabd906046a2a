#!/usr/bin/env bash
# install-bubblewrap.sh: installs bubblewrap (the bwrap program, Debian and
# Ubuntu package "bubblewrap"), which the sandbox package runs commands
# under and its tests need.
#
# Idempotent: when bwrap is already installed it only reports its version.
# Without apt-get, or without the rights to use it, it says so and exits 0
# (the sandbox tests then skip), unless CI is set, when it fails instead.
set -euo pipefail

if command -v bwrap >/dev/null 2>&1; then
	echo "install-bubblewrap: $(bwrap --version)"
	exit 0
fi

fail() {
	if [[ -n "${CI:-}" ]]; then
		echo "install-bubblewrap: $1 (CI is set: the sandbox tests must not skip)" >&2
		exit 1
	fi
	echo "install-bubblewrap: $1; the sandbox tests will skip" >&2
	exit 0
}

command -v apt-get >/dev/null 2>&1 || fail "apt-get not found: install bubblewrap with your package manager"
sudo=""
if [[ "$(id -u)" != 0 ]]; then
	command -v sudo >/dev/null 2>&1 || fail "not root and no sudo"
	sudo="sudo"
fi
$sudo apt-get update -q
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap
echo "install-bubblewrap: $(bwrap --version)"
