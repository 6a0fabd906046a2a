#!/usr/bin/env bash
# install-strace.sh: installs strace (Debian and Ubuntu package "strace"),
# which the tests that check the system calls a store makes (the
# directory fsyncs of internal/safefs) run their helper process under.
#
# Idempotent: when strace is already installed it only reports its version.
# Without apt-get, or without the rights to use it, it says so and exits 0
# (the strace tests then skip), unless CI is set, when it fails instead.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"
install_package install-strace strace strace "strace -V" "the strace tests"
