package mcphost_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// childEnv selects the role of a re-executed test binary: "stdio" makes it
// a small MCP server on its standard input and output.
const childEnv = "MCPHOST_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "stdio" {
		runChildServer()
		return
	}
	os.Exit(m.Run())
}

// childServer returns the configuration of this test binary running as a
// stdio MCP server.
func childServer(t testing.TB) (command string, env map[string]string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe, map[string]string{childEnv: "stdio"}
}

// objectSchema is the input schema of a tool taking no input.
const objectSchema = `{"type":"object"}`

// runChildServer serves a few tools over stdio until stdin closes.
func runChildServer() {
	s := mcp.NewServer(&mcp.Implementation{Name: "child", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "pid", InputSchema: json.RawMessage(objectSchema)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.Itoa(os.Getpid())}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "exit", InputSchema: json.RawMessage(objectSchema)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		os.Exit(3)
		return nil, nil
	})
	s.AddTool(&mcp.Tool{
		Name:        "repeat",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`),
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ N int }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("r", in.N)}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "hang", InputSchema: json.RawMessage(objectSchema)}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s.AddTool(&mcp.Tool{
		Name:        "ticker",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"},"ms":{"type":"integer"}},"required":["n","ms"]}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ N, Ms int }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		for i := range in.N {
			time.Sleep(time.Duration(in.Ms) * time.Millisecond) // simulated work
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: req.Params.GetProgressToken(), Progress: float64(i + 1), Total: float64(in.N), Message: fmt.Sprintf("step %d", i+1),
			})
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Print(err)
	}
}
