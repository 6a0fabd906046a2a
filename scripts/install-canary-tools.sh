#!/usr/bin/env bash
# install-canary-tools.sh: installs, from Debian and Ubuntu packages, the
# programs that the canary tests of package permission run for real to show
# that an attack line does damage (and the sandbox tests' git and perl):
# gpg, git, less, make, perl, gcc, sqlite3, valgrind, wget, curl, unzip,
# openssl, ssh-keygen, vim, vidir (moreutils), gdb, java (a JDK: the JVM compiles a source
# file), maven, rustc, cargo, flask (python3-flask), g++, pgbench
# (postgresql-client), kubectl (kubernetes-client), pytest, mypy, logsave,
# setsid and setpriv (util-linux), pkill, killall, fuser and renice,
# doxygen, hugo, autoconf and pandoc (settings files that name code), isympy,
# rst2html and ipython3 (redteam60), ninja, aunpack (atool) and cpio (gate61), gs
# (ghostscript, redteam63), xsltproc, xmlstarlet and ppmtompeg (netpbm, review63g), epstool, pstoedit,
# enscript and a2ps (gate65), hyperfine (gate66, a program that runs the command strings it is given), ugrep and
# ack (gatesec68: searchers that follow links when an option or options file says so), s3cmd
# (gatecfg69: --dump, an abbreviation of --dump-config, prints its keys), the
# docker client (package docker.io), cmake (gatecc69: a project build given paths outside the
# project), mkdocs, jekyll, rubocop, clang-tidy and bazel (bazel-bootstrap), whose settings files
# name where they write (redteam123, with doxygen and cmake's presets), tomlq (package yq, which
# hands its filter to jq: redteam132), Debian's go as /usr/bin/go
# (round 83 runs go build with the canaries' PATH, /usr/local/bin:/usr/bin:/bin), the zh_TW locale source and more; and what makes `python3 -m venv` work, with
# pip, for the python3 the canaries run (/usr/bin/python3 when there is
# one, else the one on PATH): python3-venv and python3-pip.
#
# It does not install Node.js (node, npm, npx), which the npm canaries run
# (it installs pnpm and bun with npm where npm is there):
# as for scripts/install-mcp-servers.sh, Node.js is the one thing besides Go
# the tests may assume. It installs cspell and jest with npm, pinned, for
# TestCanaryRT123. Terraform and golangci-lint, which Debian does not package, it builds
# from source with the Go module proxy (go install of v1.5.7, the last
# release whose module has no replace directives; about 5 minutes of CPU)
# for TestCanaryRound30FoundFiles, and golangci-lint v2.1.6 likewise (about
# 3 minutes) for TestCanaryRT123: into /usr/local/bin as root, else into
# $(go env GOPATH)/bin, which must then be on PATH.
#
# Idempotent: when everything is there it only says so, and apt-get runs
# (update, then install) only for what is missing. Without apt-get, without
# the rights to use it, without Node.js or when terraform cannot be built it says so and
# exits 0 (the tests that need the missing program then skip), unless CI is
# set, when it fails instead.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

name=install-canary-tools
tests="the canary tests of package permission"

# The program (a name on PATH, an absolute path, or ~ and an extended
# regular expression that some name on PATH must match) and the package that
# provides it. The lines of rounds 10 and 13 name programs with a version in
# them (Debian 12's perl5.36.0, tclsh8.6, not-14); the tests spell them as
# the versions found here (permission/canary_versions_test.go), so any
# version will do, and the package is the release's default one: tcl (which
# depends on the default tclN.M) and @llvm-tools (the tools package of the
# LLVM that the release's llvm package depends on).
programs=(
	gpg:gpg git:git scalar:git less:less make:make perl:perl ptar:perl
	'~^perl5\.[0-9]+-[a-z0-9_]+-linux-gnu$:perl'
	gcc:gcc cc:gcc sqlite3:sqlite3 valgrind:valgrind wget:wget curl:curl unzip:unzip openssl:openssl
	ssh-keygen:openssh-client scp:openssh-client sftp:openssh-client ssh-agent:openssh-client
	slogin:openssh-client vim:vim sensible-editor:sensible-utils vidir:moreutils gdb:gdb '~^tclsh[0-9]+\.[0-9]+$:tcl' file:file
	xz:xz-utils zstd:zstd memusage:libc-devtools sotruss:libc-devtools fakeroot-sysv:fakeroot
	dpkg-architecture:dpkg-dev msgexec:gettext groff:groff-base '~^not-[0-9]+$:@llvm-tools'
	'~^split-file-[0-9]+$:@llvm-tools' activate-global-python-argcomplete:python3-argcomplete ed:ed
	gio:libglib2.0-bin ctags:universal-ctags systemd-tmpfiles:systemd docker:docker.io
	java:default-jdk-headless javac:default-jdk-headless mvn:maven rustc:rustc
	/usr/sbin/logsave:e2fsprogs localedef:libc-bin iconv:libc-bin /usr/share/i18n/locales/zh_TW:locales
	cargo:cargo flask:python3-flask dotenv:python3-dotenv g++:g++ pgbench:postgresql-client kubectl:kubernetes-client
	pytest:python3-pytest pytest-3:python3-pytest mypy:mypy dmypy:mypy stubgen:mypy
	setsid:util-linux setpriv:util-linux kill:procps pkill:procps skill:procps killall:psmisc
	fuser:psmisc renice:bsdutils doxygen:doxygen hugo:hugo autoconf:autoconf pandoc:pandoc
	isympy:python3-sympy rst2html:python3-docutils ipython3:ipython3
	ninja:ninja-build aunpack:atool cpio:cpio gs:ghostscript make-first-existing-target:make
	as:binutils nm:binutils x86_64-linux-gnu-ld:binutils-x86-64-linux-gnu x86_64-linux-gnu-ld.gold:binutils-x86-64-linux-gnu
	x86_64-linux-gnu-nm:binutils-x86-64-linux-gnu llvm-mc:llvm llvm-rtdyld:llvm
	xsltproc:xsltproc xmlstarlet:xmlstarlet ppmtompeg:netpbm
	epstool:epstool pstoedit:pstoedit enscript:enscript a2ps:a2ps hyperfine:hyperfine
	/usr/bin/go:golang-go
	ugrep:ugrep ack:ack jq:jq tomlq:yq cmake:cmake s3cmd:s3cmd
	mkdocs:mkdocs jekyll:jekyll rubocop:rubocop clang-tidy:clang-tidy bazel:bazel-bootstrap
	pylint:pylint python3-coverage:python3-coverage trash-put:trash-cli aws:awscli
)

# package prints the Debian package of an entry's package field: itself,
# or for @llvm-tools llvm-N-tools, N being the version of LLVM the
# release's llvm package depends on (14 on Debian 12), or llvm-14-tools
# when apt-cache cannot tell.
package() {
	local version
	if [[ $1 != @llvm-tools ]]; then
		echo "$1"
		return
	fi
	version="$(apt-cache depends llvm 2>/dev/null | grep -oE 'Depends: llvm-[0-9]+$' | grep -oE '[0-9]+$' | head -n 1 || true)"
	echo "llvm-${version:-14}-tools"
}

# present reports whether an entry's program is there.
present() {
	local program=$1
	case $program in
	/*) [[ -e $program ]] ;;
	~*) compgen -c | grep -E "${program#\~}" >/dev/null ;; # not -q: under pipefail an early exit fails the pipe
	*) command -v "$program" >/dev/null 2>&1 ;;
	esac
}

# python prints the python3 the canaries make a virtual environment with
# (homeVenv in permission/canary_homestate_test.go).
python() {
	if [[ -x /usr/bin/python3 ]]; then
		echo /usr/bin/python3
	else
		command -v python3 || true
	fi
}

# venv_works reports whether that python makes a virtual environment (as
# homeVenv does: without pip, seeing the system's packages) whose python
# runs pip.
venv_works() {
	local dir ok=1 python
	python="$(python)"
	[[ -n $python ]] || return 1
	dir="$(mktemp -d)"
	if "$python" -m venv --without-pip --system-site-packages "$dir/venv" >/dev/null 2>&1 &&
		"$dir/venv/bin/python" -m pip --version >/dev/null 2>&1; then
		ok=0
	fi
	rm -rf "$dir"
	return "$ok"
}

# missing lists the packages of the programs that are missing, once each,
# and python3-venv and python3-pip when venv_works does not.
missing() {
	local entry
	for entry in "${programs[@]}"; do
		present "${entry%:*}" || package "${entry##*:}"
	done
	if ! venv_works; then
		echo python3-venv
		echo python3-pip
	fi
}

mapfile -t packages < <(missing | sort -u)
if ((${#packages[@]})); then
	if apt_install "$name" "$tests" "${packages[@]}"; then
		mapfile -t packages < <(missing | sort -u)
		if ((${#packages[@]})); then
			install_missing "$name" "$tests" "still missing after apt-get install: ${packages[*]}"
		fi
	fi
fi

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1 || ! command -v npx >/dev/null 2>&1; then
	install_missing "$name" "the npm canaries" "node, npm or npx not found: install Node.js"
fi
# pnpm, for TestCanaryRedteam54 (pnpm setup), from npm: 10.x, as 11.x
# needs a newer Node.js than 20.
if ! command -v pnpm >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
	npm install -g --silent pnpm@10.34.9 >&2 || true
fi
if ! command -v pnpm >/dev/null 2>&1; then
	install_missing "$name" "TestCanaryRedteam54" "pnpm not found: install it with npm install -g pnpm@10"
fi
# bun, for TestCanaryG59Bun (bunfig.toml and .npmrc), from npm, whose
# package fetches bun's binary in its postinstall script.
if ! command -v bun >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
	npm install -g --silent bun@1.4.5 >&2 || true
fi
if ! command -v bun >/dev/null 2>&1; then
	install_missing "$name" "TestCanaryG59Bun" "bun not found: install it with npm install -g bun"
fi
# cspell and jest, for TestCanaryRT123 (their settings files name where
# they write), from npm, pinned.
for pinned in cspell@8.19.4 jest@30.2.0; do
	if ! command -v "${pinned%@*}" >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
		npm install -g --silent "$pinned" >&2 || true
	fi
	if ! command -v "${pinned%@*}" >/dev/null 2>&1; then
		install_missing "$name" "TestCanaryRT123" "${pinned%@*} not found: install it with npm install -g $pinned"
	fi
done
# golangci-lint, for TestCanaryRT123, from the Go module proxy as terraform.
golangci_version=v2.1.6
if ! command -v golangci-lint >/dev/null 2>&1; then
	gobin="$(go env GOPATH)/bin"
	if [[ "$(id -u)" == 0 ]]; then
		gobin=/usr/local/bin
	fi
	echo "$name: building golangci-lint $golangci_version from the Go module proxy into $gobin" >&2
	if ! GOBIN="$gobin" GOFLAGS= go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$golangci_version" >&2; then
		install_missing "$name" "TestCanaryRT123" "go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$golangci_version failed"
	elif ! command -v golangci-lint >/dev/null 2>&1; then
		install_missing "$name" "TestCanaryRT123" "golangci-lint is in $gobin, which is not on PATH: add it"
	fi
fi
# mikefarah's yq, for TestCanaryRT133Yq, from the Go module proxy as
# golangci-lint, under the name yq-go: Debian's yq (above, for tomlq) is
# python's, which the name yq keeps.
yq_version=v4.54.3
if ! command -v yq-go >/dev/null 2>&1; then
	gobin="$(go env GOPATH)/bin"
	if [[ "$(id -u)" == 0 ]]; then
		gobin=/usr/local/bin
	fi
	echo "$name: building mikefarah's yq $yq_version from the Go module proxy into $gobin as yq-go" >&2
	tmpbin="$(mktemp -d)"
	if ! GOBIN="$tmpbin" GOFLAGS= go install "github.com/mikefarah/yq/v4@$yq_version" >&2 || ! mv "$tmpbin/yq" "$gobin/yq-go"; then
		install_missing "$name" "TestCanaryRT133Yq" "go install github.com/mikefarah/yq/v4@$yq_version failed"
	elif ! command -v yq-go >/dev/null 2>&1; then
		install_missing "$name" "TestCanaryRT133Yq" "yq-go is in $gobin, which is not on PATH: add it"
	fi
	rm -rf "$tmpbin"
fi
# terraform: Debian does not package it and HashiCorp's downloads are not
# reachable from every CI machine, but its source is on the Go module proxy.
terraform_version=v1.5.7
if ! command -v terraform >/dev/null 2>&1; then
	gobin="$(go env GOPATH)/bin"
	if [[ "$(id -u)" == 0 ]]; then
		gobin=/usr/local/bin
	fi
	echo "$name: building terraform $terraform_version from the Go module proxy into $gobin" >&2
	if ! GOBIN="$gobin" GOFLAGS= go install "github.com/hashicorp/terraform@$terraform_version" >&2; then
		install_missing "$name" "TestCanaryRound30FoundFiles" "go install github.com/hashicorp/terraform@$terraform_version failed"
	elif ! command -v terraform >/dev/null 2>&1; then
		install_missing "$name" "TestCanaryRound30FoundFiles" "terraform is in $gobin, which is not on PATH: add it"
	fi
fi

if ((${#packages[@]} == 0)); then
	echo "$name: all present ($(gpg --version | head -n 1); $("$(python)" --version 2>&1) with venv and pip)"
fi
