package mcphost

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/strictjson"
)

// PermissionName is the name under which a permission layer sees
// connections: the tool name of the synthetic call whose input is
// [ConnectRequest.Input].
const PermissionName = "mcp_connect"

// ErrReservedName is the error for a custom tool that takes a name of the
// MCP namespace; see [IsReserved].
var ErrReservedName = errors.New("custom tools cannot use the reserved MCP namespace")

// IsReserved reports whether name belongs to the MCP namespace: it begins
// with "mcp__" or is "mcp_connect". An agent should refuse custom tools
// with such names, so that no tool can pass for a server's.
func IsReserved(name string) bool {
	return strings.HasPrefix(name, ToolPrefix) || name == PermissionName
}

// Tool names.
const (
	// ToolPrefix begins the name of every MCP tool: mcp__<server>__<tool>.
	ToolPrefix = "mcp__"
	// maxToolName is the longest tool name model providers accept.
	maxToolName = 64
	// suffixLen is the length of the "_<8 hex>" that marks a changed name.
	suffixLen = 9
)

// ToolName returns the name the model calls the tool remote of server by:
// mcp__<server>__<remote> when that is at most 64 ASCII letters, digits,
// '_' and '-'. Otherwise every other character becomes '_', the name is cut
// to leave room, and "_" plus 8 hex digits of the SHA-256 of server and
// remote are appended, so that distinct tools keep distinct, stable names.
// Host.Tools also uses the suffixed form for a name that two tools of
// different servers would otherwise share.
func ToolName(server, remote string) string {
	name, ok := plainName(server, remote)
	if ok {
		return name
	}
	return suffixed(name, server, remote)
}

// plainName returns mcp__<server>__<remote> with unusable characters
// replaced, and whether it needed no change at all.
func plainName(server, remote string) (string, bool) {
	var b strings.Builder
	b.WriteString(ToolPrefix + server + "__")
	ok := remote != ""
	for _, r := range remote {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			b.WriteRune(r)
			continue
		}
		b.WriteByte('_')
		ok = false
	}
	name := b.String()
	return name, ok && len(name) <= maxToolName
}

// suffixed cuts name and appends the digest of server and remote.
func suffixed(name, server, remote string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + remote))
	if len(name) > maxToolName-suffixLen {
		name = name[:maxToolName-suffixLen]
	}
	return name + "_" + hex.EncodeToString(sum[:4])
}

// assignNames names the tools of every server's catalog (servers sorted by
// name), giving the suffixed form to a name already taken by an earlier
// tool. Names that still collide fail.
func assignNames(servers []*server, snaps []snapshot) ([][]string, error) {
	used := map[string]bool{}
	out := make([][]string, len(servers))
	for i, s := range servers {
		for _, rt := range snaps[i].tools {
			name := ToolName(s.def.Name, rt.name)
			if used[name] {
				plain, _ := plainName(s.def.Name, rt.name)
				name = suffixed(plain, s.def.Name, rt.name)
			}
			if used[name] {
				return nil, &ServerError{Server: s.def.Name, Err: fmt.Errorf("tool %s has the same name as another tool", strictjson.QuoteKey(rt.name))}
			}
			used[name] = true
			out[i] = append(out[i], name)
		}
	}
	return out, nil
}
