package liteagent_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/tool"
)

type weatherInput struct {
	City string `json:"city" jsonschema:"the city to report on"`
}

// customToolReadme is the README's custom tool, between the markers; it
// runs against a scripted model in TestReadmeCustomTool.
func customToolReadme(ctx context.Context, t *testing.T, m *modeltest.Provider, name string) *liteagent.Agent {
	// readme:begin
	weather := tool.New("weather", "Current weather in a city.",
		func(ctx context.Context, _ *tool.Call, in weatherInput) (tool.Result, error) {
			return tool.Text("Sunny in " + in.City), nil
		})
	agent, err := liteagent.New(ctx, liteagent.Options{Model: m, ModelName: name, Tools: []tool.Tool{weather}})
	// readme:end
	if err != nil {
		t.Fatal(err)
	}
	return agent
}

// TestReadmeCustomTool runs the README's custom tool and checks that the
// README quotes it verbatim.
func TestReadmeCustomTool(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("LITE_AGENT_HOME", t.TempDir())
	m := modeltest.New()
	m.Reply(modeltest.ToolCalls(call("w1", "weather", `{"city":"Lisbon"}`)))
	m.Reply(modeltest.Text("done"))
	agent := customToolReadme(t.Context(), t, m, "test-model")
	defer agent.Close()
	if _, err := agent.Send(t.Context(), "weather?"); err != nil {
		t.Fatal(err)
	}
	msgs := m.Requests()[1].Messages
	if got := msgs[len(msgs)-1].Blocks[0].Content; got != "Sunny in Lisbon" {
		t.Errorf("tool result %q", got)
	}

	readme, src := readRepoFile(t, "README.md"), readRepoFile(t, "readme_test.go")
	_, body, _ := strings.Cut(src, "\t// readme:begin\n")
	body, _, _ = strings.Cut(body, "\t// readme:end\n")
	var dedented strings.Builder
	for _, line := range strings.SplitAfter(body, "\n") {
		dedented.WriteString(strings.TrimPrefix(line, "\t"))
	}
	if !strings.Contains(readme, dedented.String()) {
		t.Errorf("README does not quote the custom tool:\n%s", dedented.String())
	}
	if !strings.Contains(readme, "type weatherInput struct {\n\tCity string `json:\"city\" jsonschema:\"the city to report on\"`\n}\n") {
		t.Error("README does not show weatherInput as declared here")
	}
}

// repoRoot is the package directory at the time the test binary started.
var repoRoot, _ = os.Getwd()

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(repoRoot + "/" + name)
	if err != nil {
		t.Fatal(fmt.Errorf("reading %s: %w", name, err))
	}
	return string(b)
}

// TestReadmeRunsWhatCIRuns checks that the README's Development section
// names the go test line .ci/run runs, flags and all.
func TestReadmeRunsWhatCIRuns(t *testing.T) {
	var lines []string
	for l := range strings.Lines(readRepoFile(t, ".ci/run")) {
		if strings.HasPrefix(l, "go test -race ") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) != 1 {
		t.Fatalf(".ci/run has %d go test -race lines, want 1: %q", len(lines), lines)
	}
	readme := readRepoFile(t, "README.md")
	_, dev, _ := strings.Cut(readme, "\n## Development\n")
	if !strings.Contains(dev, "`"+lines[0]+"`") {
		t.Errorf("README's Development section does not name .ci/run's %q", lines[0])
	}
}
