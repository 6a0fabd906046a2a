# install-lib.sh: what the scripts that install a Debian/Ubuntu package for
# the tests share. Source it, then call
#
#	install_package NAME PACKAGE COMMAND VERSION-COMMAND TESTS
#
# Idempotent: when COMMAND is found it only reports VERSION-COMMAND's
# first line. Without apt-get, or without the rights to use it, it says so
# and returns 0 (TESTS then skip), unless CI is set, when it exits 1
# instead.

install_package() {
	local name=$1 package=$2 command=$3 version=$4 tests=$5 sudo=""
	if command -v "$command" >/dev/null 2>&1; then
		echo "$name: $($version 2>&1 | head -n 1)"
		return 0
	fi
	if ! command -v apt-get >/dev/null 2>&1; then
		install_missing "$name" "$tests" "apt-get not found: install $package with your package manager"
		return
	fi
	if [[ "$(id -u)" != 0 ]]; then
		if ! command -v sudo >/dev/null 2>&1; then
			install_missing "$name" "$tests" "not root and no sudo"
			return
		fi
		sudo="sudo"
	fi
	$sudo apt-get update -q
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package"
	echo "$name: $($version 2>&1 | head -n 1)"
}

install_missing() {
	if [[ -n "${CI:-}" ]]; then
		echo "$1: $3 (CI is set: $2 must not skip)" >&2
		exit 1
	fi
	echo "$1: $3; $2 will skip" >&2
}
