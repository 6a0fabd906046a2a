package mcphost_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/storage"
)

// LoadConfig reads the global and the project mcps.json of a layout and
// merges them with the host program's own servers.
func ExampleLoadConfig() {
	root, _ := os.MkdirTemp("", "mcphost-example")
	defer os.RemoveAll(root)
	paths, _ := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: filepath.Join(root, "project"),
		Storage: storage.Options{Namespace: "acme", Home: filepath.Join(root, "home")},
	})
	os.MkdirAll(paths.ProjectConfigDir, 0o700)
	os.MkdirAll(paths.Home, 0o700)
	os.WriteFile(filepath.Join(paths.Home, "mcps.json"), []byte(`{
	  "mcpServers": {"search": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer …"}}}
	}`), 0o600)
	os.WriteFile(filepath.Join(paths.ProjectConfigDir, "mcps.json"), []byte(`{
	  "mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}
	}`), 0o600)

	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{
		Paths:   paths,
		Servers: map[string]mcphost.ServerConfig{"mine": {Command: "my-mcp-server"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range cfg.Servers {
		fmt.Printf("%-6s %-11s %-5s %s\n", s.Name, s.Source, s.Config.Type, s.Config.Timeout)
	}
	// Output:
	// files  project     stdio 30s
	// mine   constructor stdio 30s
	// search global      http  30s
}

// New validates and connects nothing: until Tools runs, every server is
// only configured.
func ExampleNew() {
	cfg, _ := mcphost.LoadConfig(mcphost.LoadOptions{Servers: map[string]mcphost.ServerConfig{
		"files": {Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "."}},
	}})
	host, err := mcphost.New(cfg, mcphost.Options{
		// The "mcp_connect" permission: here, only stdio servers of the
		// host program may run.
		Connect: func(_ context.Context, req mcphost.ConnectRequest) error {
			if req.Source != mcphost.SourceConstructor || req.Type != mcphost.TransportStdio {
				return errors.New("not allowed")
			}
			return nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer host.Close()
	for _, s := range host.List() {
		fmt.Println(s.Name, s.Status)
	}
	// Output:
	// files configured
}

// The permission input of a connection names env variables and headers but
// never shows their values.
func ExampleConnectRequest_Input() {
	req := mcphost.ConnectRequest{
		Server: "files", Source: mcphost.SourceProject, Type: mcphost.TransportStdio,
		Command: "npx", Args: []string{"server"}, EnvKeys: []string{"API_TOKEN"},
	}
	fmt.Println(string(req.Input()))
	// Output:
	// {"args":["server"],"command":"npx","envKeys":["API_TOKEN"],"server":"files","source":"project","type":"stdio"}
}

func ExampleToolName() {
	fmt.Println(mcphost.ToolName("github", "create_issue"))
	fmt.Println(mcphost.ToolName("docs", "search.v2"))
	// Output:
	// mcp__github__create_issue
	// mcp__docs__search_v2_9d340e35
}
