package liteagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// postgresReadme is the README's example under "Running on several hosts".
func postgresReadme(ctx context.Context, m model.Provider, name, wd string) error {
	// readme:begin postgres
	st, err := postgres.Open(ctx, "postgres://agent:secret@db.internal:5432/agents", postgres.Options{})
	if err != nil {
		return err // one line naming host and database, never the password
	}
	defer st.Close()
	agent, err := liteagent.New(ctx, liteagent.Options{Model: m, ModelName: name, Workdir: wd, Store: st})
	// readme:end
	if err != nil {
		return err
	}
	return agent.Close()
}

// readmeQuotes fails t unless README.md quotes, as a go block, the lines
// between "// readme:begin NAME" and "// readme:end" of file, one tab of
// indentation removed.
func readmeQuotes(t *testing.T, file, name string) {
	t.Helper()
	src := readRepoFile(t, file)
	_, body, ok := strings.Cut(src, "\t// readme:begin "+name+"\n")
	body, _, ok2 := strings.Cut(body, "\t// readme:end\n")
	if !ok || !ok2 {
		t.Fatalf("%s has no readme:begin %s … readme:end", file, name)
	}
	var dedented strings.Builder
	for _, line := range strings.SplitAfter(body, "\n") {
		dedented.WriteString(strings.TrimPrefix(line, "\t"))
	}
	if !strings.Contains(readRepoFile(t, "README.md"), "```go\n"+dedented.String()+"```\n") {
		t.Errorf("README.md does not quote the %s example as a go block:\n%s", name, dedented.String())
	}
}

// TestReadmeObserving runs the README's middleware and telemetry example
// (observedReadme, which TestReadmeObservingAgents finds quoted): the
// secrets it names never reach the model, also through a tool result, the
// tool middleware logs each call, and spans and metrics are recorded.
func TestReadmeObserving(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("LITE_AGENT_HOME", t.TempDir())
	if err := os.WriteFile("notes.txt", []byte("account ACCT-123456, password hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	m := modeltest.New()
	m.Reply(modeltest.ToolCalls(call("r1", "read_file", `{"path":"notes.txt"}`)))
	m.Reply(modeltest.Text("done"))

	agent, err := observedReadme(t.Context(), m, "test-model", tp, mp, log)
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	if _, err := agent.Send(t.Context(), "read notes.txt; my password is hunter2"); err != nil {
		t.Fatal(err)
	}
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for i, req := range reqs {
		b, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "hunter2") || strings.Contains(string(b), "ACCT-123456") {
			t.Errorf("request %d carries a secret: %s", i, b)
		}
	}
	if !strings.Contains(logged.String(), "msg=\"tool call\" tool=read_file id=r1 session="+agent.SessionID()) {
		t.Errorf("tool middleware logged %q", logged.String())
	}
	var names []string
	for _, s := range spans.Ended() {
		names = append(names, s.Name())
	}
	for _, want := range []string{"invoke_agent", "chat test-model", "execute_tool read_file"} {
		if !strings.Contains(strings.Join(names, "\n")+"\n", want+"\n") {
			t.Errorf("spans %q lack %q", names, want)
		}
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, sm := range rm.ScopeMetrics {
		for _, mt := range sm.Metrics {
			found = found || mt.Name == "gen_ai.client.operation.duration"
		}
	}
	if !found {
		t.Error("no gen_ai.client.operation.duration metric")
	}
}

// TestReadmePostgresError runs the README's PostgreSQL example where no
// database answers (db.internal does not resolve here): the error is the
// one line its comment promises, naming host and database and not the
// password.
func TestReadmePostgresError(t *testing.T) {
	readmeQuotes(t, "readme_examples_test.go", "postgres")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	err := postgresReadme(ctx, modeltest.New(), "test-model", t.TempDir())
	var ce *postgres.ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %v, want a *postgres.ConnectError", err, err)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\r\n") || strings.Contains(msg, "secret") ||
		!strings.Contains(msg, "db.internal:5432") || !strings.Contains(msg, "agents") {
		t.Errorf("error %q: want one line naming db.internal:5432 and agents, without the password", msg)
	}
}
