//go:build unix

package mcphost_test

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkLoadConfig measures reading and validating one mcps.json holding
// 1 or 32 servers.
func BenchmarkLoadConfig(b *testing.B) {
	for _, n := range []int{1, 32} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			var sb strings.Builder
			sb.WriteString(`{"mcpServers": {`)
			for i := range n {
				if i > 0 {
					sb.WriteString(",")
				}
				fmt.Fprintf(&sb, `"s%d": {"command": "srv", "args": ["--port", "%d"], "env": {"TOKEN": "t%d"}, "timeoutMs": 5000}`, i, i, i)
			}
			sb.WriteString(`}}`)
			home := b.TempDir()
			writeFile(b, filepath.Join(home, "mcps.json"), sb.String())
			b.SetBytes(int64(sb.Len()))
			for b.Loop() {
				if _, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: storage.ProjectPaths{Home: home}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCall measures one call of the child stdio server's repeat tool
// through a Host tool (input validation, catalog check, progress token,
// projection) and reports its time as a ratio of the same call made with
// the SDK directly in the same run ("x-raw"), for results of 16 B and 8 KiB.
func BenchmarkCall(b *testing.B) {
	exe, env := childServer(b)
	cfg := mcphost.Config{Servers: []mcphost.Server{{Name: "child", Source: mcphost.SourceConstructor, Config: mcphost.ServerConfig{Command: exe, Env: env}}}}
	h, err := mcphost.New(cfg, mcphost.Options{Connect: allow})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	tools, err := h.Tools(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	var repeat tool.Tool
	for _, tl := range tools {
		if tl.Name() == "mcp__child__repeat" {
			repeat = tl
		}
	}

	cmd := exec.Command(exe)
	cmd.Env = []string{childEnv + "=stdio"}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	sess, err := client.Connect(b.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()

	for _, size := range []int{16, 8 << 10} {
		b.Run("result="+strconv.Itoa(size), func(b *testing.B) {
			input := json.RawMessage(`{"n":` + strconv.Itoa(size) + `}`)
			const rawCalls = 200
			start := time.Now()
			for range rawCalls {
				if _, err := sess.CallTool(b.Context(), &mcp.CallToolParams{Name: "repeat", Arguments: input}); err != nil {
					b.Fatal(err)
				}
			}
			raw := float64(time.Since(start).Nanoseconds()) / rawCalls
			for b.Loop() {
				res, err := repeat.Call(b.Context(), nil, input)
				if err != nil || res.IsError {
					b.Fatal(err, res.Content)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/raw, "x-raw")
		})
	}
}
