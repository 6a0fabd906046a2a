package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runChild runs the test binary as lite-agent (TestCLIChildProcess) with
// args and the extra environment env, and returns its exit code, standard
// output and standard error.
func runChild(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	b, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCLIChildProcess$")
	cmd.Env = append(append(os.Environ(), childEnvCLI+"="+string(b)), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

func TestConsoleExporterPrintsTheSpansOfARun(t *testing.T) {
	isolateEnv(t)
	tests := []struct {
		name      string
		env       []string
		wantSpans bool
	}{
		{"console", []string{"OTEL_TRACES_EXPORTER=console"}, true},
		{"unset exports nothing", []string{"OTEL_TRACES_EXPORTER=", "OTEL_METRICS_EXPORTER="}, false},
		{"none exports nothing", []string{"OTEL_TRACES_EXPORTER=none"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &anthropicServer{replies: []string{
				toolReply("toolu_1", "read_file", `{"path":"missing.txt"}`),
				textReply("Nothing there."),
			}}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			env := append([]string{
				"ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL=" + ts.URL,
				// Whatever the machine's environment says, nothing
				// reaches a collector.
				"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:1", "OTEL_METRICS_EXPORTER=",
			}, tt.env...)
			code, stdout, stderr := runChild(t, env, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "look")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.HasPrefix(stdout, "Nothing there.\n") {
				t.Errorf("stdout does not start with the answer: %q", stdout)
			}
			spans := []string{`"Name":"invoke_agent"`, `"Name":"chat claude-sonnet-4-5"`, `"Name":"execute_tool read_file"`, `"gen_ai.usage.input_tokens"`, `"gen_ai.response.model"`}
			for _, s := range spans {
				if got := strings.Contains(stdout, s); got != tt.wantSpans {
					t.Errorf("stdout has %s: %v, want %v\n%s", s, got, tt.wantSpans, stdout)
				}
			}
			if strings.Contains(stdout, "look") || strings.Contains(stdout, "missing.txt") {
				t.Error("content reached the spans without being asked for")
			}
		})
	}
}
