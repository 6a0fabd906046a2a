#!/usr/bin/env bash
# install-mcp-servers.sh: installs the MCP servers that the mcphost
# integration tests start (@modelcontextprotocol/server-everything and
# @modelcontextprotocol/server-filesystem), at the exact versions pinned in
# scripts/mcp/package-lock.json, into scripts/mcp/node_modules (git-ignored).
#
# Idempotent: when node_modules already matches the lock file, it does
# nothing. Without npm it says so and exits 0, unless CI is set, when the
# tests must not skip and it fails instead.
set -euo pipefail

dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/mcp" && pwd)"
cd "$dir"

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
	if [[ -n "${CI:-}" ]]; then
		echo "install-mcp-servers: node and npm are required when CI is set" >&2
		exit 1
	fi
	echo "install-mcp-servers: node or npm not found; the MCP integration tests will skip" >&2
	exit 0
fi

stamp="node_modules/.lite-agent-lock.sha256"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" &&
	-f node_modules/@modelcontextprotocol/server-everything/package.json &&
	-f node_modules/@modelcontextprotocol/server-filesystem/package.json ]]; then
	echo "install-mcp-servers: up to date"
	exit 0
fi

# npm ci installs exactly the lock file, removing node_modules first.
# Install scripts of dependencies are not run: the servers need none.
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
echo "$want" >"$stamp"
echo "install-mcp-servers: installed $(node -p 'require("./package-lock.json").packages["node_modules/@modelcontextprotocol/server-everything"].version') (server-everything), $(node -p 'require("./package-lock.json").packages["node_modules/@modelcontextprotocol/server-filesystem"].version') (server-filesystem)"
