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
		args      []string
		wantSpans bool
	}{
		{"console", []string{"OTEL_TRACES_EXPORTER=console"}, nil, true},
		{"console and json output", []string{"OTEL_TRACES_EXPORTER=console", "OTEL_METRICS_EXPORTER=console"}, []string{"-o", "json"}, true},
		{"unset exports nothing", []string{"OTEL_TRACES_EXPORTER=", "OTEL_METRICS_EXPORTER="}, nil, false},
		{"none exports nothing", []string{"OTEL_TRACES_EXPORTER=none"}, nil, false},
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
			args := append([]string{"--home", t.TempDir(), "--workdir", t.TempDir(), "run"}, tt.args...)
			code, stdout, stderr := runChild(t, env, append(args, "look")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			// The spans go to standard error: standard output is the
			// answer alone, in either output format.
			if tt.args == nil {
				if stdout != "Nothing there.\n" {
					t.Errorf("stdout is not the answer alone: %q", stdout)
				}
			} else {
				var res struct{ Type, Text string }
				if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Type != "result" || res.Text != "Nothing there." {
					t.Errorf("stdout is not the one result object (%v): %q", err, stdout)
				}
			}
			// Tool activity goes to standard error too: the exported
			// lines are those that are JSON objects.
			var exported strings.Builder
			for line := range strings.Lines(stderr) {
				if strings.HasPrefix(line, "{") {
					exported.WriteString(line)
				}
			}
			spans := []string{`"Name":"invoke_agent"`, `"Name":"chat claude-sonnet-4-5"`, `"Name":"execute_tool read_file"`, `"gen_ai.usage.input_tokens"`, `"gen_ai.response.model"`}
			for _, s := range spans {
				if got := strings.Contains(exported.String(), s); got != tt.wantSpans {
					t.Errorf("stderr has %s: %v, want %v\n%s", s, got, tt.wantSpans, stderr)
				}
			}
			if strings.Contains(exported.String(), "look") || strings.Contains(exported.String(), "missing.txt") {
				t.Error("content reached the spans without being asked for")
			}
		})
	}
}

func TestUnsupportedExporterIsAClearError(t *testing.T) {
	isolateEnv(t)
	code, stdout, stderr := runChild(t, []string{"ANTHROPIC_API_KEY=test-key", "OTEL_METRICS_EXPORTER=prometheus"},
		"--home", t.TempDir(), "--workdir", t.TempDir(), "run", "look")
	if code == 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q; want a failure before the run", code, stdout)
	}
	if want := `OTEL_METRICS_EXPORTER="prometheus" is not supported by lite-agent (supported: otlp, console, none)`; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say %q", stderr, want)
	}
}
