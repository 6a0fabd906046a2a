# install-lib.sh: what the scripts that install Debian/Ubuntu packages for
# the tests share. Source it, then call
#
#	install_package NAME PACKAGE COMMAND VERSION-COMMAND TESTS
#
# Idempotent: when COMMAND is found it only reports VERSION-COMMAND's
# first line. Without apt-get, or without the rights to use it, it says so
# and returns 0 (TESTS then skip), unless CI is set, when it exits 1
# instead.
#
# A script that checks several components itself calls
#
#	apt_install NAME TESTS PACKAGE...
#
# with the packages of those it found missing: one apt-get update, one
# apt-get install of those apt-get knows. When it cannot install them all
# it says so as install_package does and returns 1, or exits 1 when CI is
# set.

install_package() {
	local name=$1 package=$2 command=$3 version=$4 tests=$5
	if command -v "$command" >/dev/null 2>&1; then
		echo "$name: $($version 2>&1 | head -n 1)"
		return 0
	fi
	apt_install "$name" "$tests" "$package" || return 0
	echo "$name: $($version 2>&1 | head -n 1)"
}

apt_install() {
	local name=$1 tests=$2 sudo=""
	shift 2
	if ! command -v apt-get >/dev/null 2>&1; then
		install_missing "$name" "$tests" "apt-get not found: install $* with your package manager"
		return 1
	fi
	if [[ "$(id -u)" != 0 ]]; then
		if ! command -v sudo >/dev/null 2>&1; then
			install_missing "$name" "$tests" "not root and no sudo to install $*"
			return 1
		fi
		sudo="sudo"
	fi
	$sudo apt-get update -q
	local package available=() unknown=()
	for package in "$@"; do
		if apt-cache show "$package" >/dev/null 2>&1; then
			available+=("$package")
		else
			unknown+=("$package")
		fi
	done
	if ((${#available[@]})); then
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${available[@]}"
	fi
	if ((${#unknown[@]})); then
		install_missing "$name" "$tests" "apt-get knows no package ${unknown[*]} here"
		return 1
	fi
}

install_missing() {
	if [[ -n "${CI:-}" ]]; then
		echo "$1: $3 (CI is set: $2 must not skip)" >&2
		exit 1
	fi
	echo "$1: $3; $2 will skip" >&2
}
