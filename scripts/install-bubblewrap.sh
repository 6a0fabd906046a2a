#!/usr/bin/env bash
# install-bubblewrap.sh: installs bubblewrap (the bwrap program, Debian and
# Ubuntu package "bubblewrap"), which the sandbox package runs commands
# under and its tests need.
#
# Idempotent: when bwrap is already installed it only reports its version.
# Without apt-get, or without the rights to use it, it says so and exits 0
# (the sandbox tests then skip), unless CI is set, when it fails instead.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"
install_package install-bubblewrap bubblewrap bwrap "bwrap --version" "the sandbox tests"
