package otelenv_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/otelenv"
)

// stopped shuts p down without waiting for a collector.
func stopped(p *otelenv.Providers) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p.Shutdown(ctx)
}

func TestFromEnv(t *testing.T) {
	// The OTLP exporters read the process environment themselves: point
	// them where nothing listens, whatever the machine's environment says.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	tests := []struct {
		name                 string
		env                  map[string]string
		wantNil              bool
		wantTraces, wantMeta bool
		wantErr              *otelenv.UnsupportedError
	}{
		{name: "nothing set", env: nil, wantNil: true},
		{name: "both none", env: map[string]string{otelenv.TracesEnv: "none", otelenv.MetricsEnv: "none"}, wantNil: true},
		{name: "empty list entries", env: map[string]string{otelenv.TracesEnv: " , none,"}, wantNil: true},
		{name: "console traces", env: map[string]string{otelenv.TracesEnv: "console"}, wantTraces: true},
		{name: "console metrics", env: map[string]string{otelenv.MetricsEnv: "console"}, wantMeta: true},
		{name: "both", env: map[string]string{otelenv.TracesEnv: "console", otelenv.MetricsEnv: "console"}, wantTraces: true, wantMeta: true},
		{name: "otlp defaults to http/protobuf", env: map[string]string{otelenv.TracesEnv: "otlp", otelenv.MetricsEnv: "otlp"}, wantTraces: true, wantMeta: true},
		{name: "otlp over grpc", env: map[string]string{otelenv.TracesEnv: "otlp", otelenv.MetricsEnv: "otlp", otelenv.ProtocolEnv: "grpc"}, wantTraces: true, wantMeta: true},
		{name: "a list", env: map[string]string{otelenv.TracesEnv: "otlp, console"}, wantTraces: true},
		{name: "signal protocol wins", env: map[string]string{otelenv.TracesEnv: "otlp", otelenv.ProtocolEnv: "http/json", otelenv.TracesProtocolEnv: "grpc"}, wantTraces: true},
		{
			name:    "unknown exporter",
			env:     map[string]string{otelenv.TracesEnv: "bogus"},
			wantErr: &otelenv.UnsupportedError{Variable: otelenv.TracesEnv, Value: "bogus"},
		},
		{
			name:    "prometheus",
			env:     map[string]string{otelenv.TracesEnv: "console", otelenv.MetricsEnv: "otlp,prometheus"},
			wantErr: &otelenv.UnsupportedError{Variable: otelenv.MetricsEnv, Value: "prometheus"},
		},
		{
			name:    "http/json",
			env:     map[string]string{otelenv.MetricsEnv: "otlp", otelenv.ProtocolEnv: "http/json"},
			wantErr: &otelenv.UnsupportedError{Variable: otelenv.ProtocolEnv, Value: "http/json"},
		},
		{
			name:    "signal protocol",
			env:     map[string]string{otelenv.MetricsEnv: "otlp", otelenv.ProtocolEnv: "grpc", otelenv.MetricsProtocolEnv: "udp"},
			wantErr: &otelenv.UnsupportedError{Variable: otelenv.MetricsProtocolEnv, Value: "udp"},
		},
		{
			name:       "protocol unused without otlp",
			env:        map[string]string{otelenv.TracesEnv: "console", otelenv.ProtocolEnv: "udp"},
			wantTraces: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := otelenv.FromEnv(t.Context(), func(k string) string { return tt.env[k] }, io.Discard)
			if tt.wantErr != nil {
				var ue *otelenv.UnsupportedError
				if !errors.As(err, &ue) {
					t.Fatalf("err %v, want an *UnsupportedError", err)
				}
				if ue.Variable != tt.wantErr.Variable || ue.Value != tt.wantErr.Value || len(ue.Supported) == 0 {
					t.Errorf("err %+v, want %+v with the supported values", ue, tt.wantErr)
				}
				for _, s := range ue.Supported {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("%q does not name %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (p == nil) != tt.wantNil {
				t.Fatalf("providers %v, want nil %v", p, tt.wantNil)
			}
			if p == nil {
				return
			}
			defer stopped(p)
			o := p.Options()
			if (o.TracerProvider != nil) != tt.wantTraces || (o.MeterProvider != nil) != tt.wantMeta {
				t.Errorf("options %+v", o)
			}
		})
	}
}

// recordSpan records one span named name through p and flushes it.
func recordSpan(t *testing.T, p *otelenv.Providers, name string) {
	t.Helper()
	_, span := p.Options().TracerProvider.Tracer("test").Start(t.Context(), name)
	span.End()
	if err := p.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestConsoleWritesToTheGivenWriter(t *testing.T) {
	var errw bytes.Buffer
	env := map[string]string{otelenv.TracesEnv: "console", otelenv.MetricsEnv: "console"}
	p, err := otelenv.FromEnv(t.Context(), func(k string) string { return env[k] }, &errw)
	if err != nil {
		t.Fatal(err)
	}
	counter, err := p.Options().MeterProvider.Meter("test").Int64Counter("test.count")
	if err != nil {
		t.Fatal(err)
	}
	counter.Add(t.Context(), 3)
	recordSpan(t, p, "the-span")
	for _, want := range []string{`"Name":"the-span"`, `"service.name"`, `"lite-agent"`, `"test.count"`} {
		if !strings.Contains(errw.String(), want) {
			t.Errorf("the writer lacks %s:\n%s", want, errw.String())
		}
	}
}

func TestOTLPOverHTTP(t *testing.T) {
	var (
		mu    sync.Mutex
		paths []string
		body  []byte
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		paths = append(paths, r.URL.Path+" "+r.Header.Get("Content-Type"))
		body = append(body, b...)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "none")
	env := map[string]string{otelenv.TracesEnv: "otlp"}
	p, err := otelenv.FromEnv(t.Context(), func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	recordSpan(t, p, "the-span")
	mu.Lock()
	defer mu.Unlock()
	if len(paths) != 1 || paths[0] != "/v1/traces application/x-protobuf" {
		t.Errorf("requests %q, want one protobuf POST to /v1/traces", paths)
	}
	if !bytes.Contains(body, []byte("the-span")) {
		t.Errorf("the request does not carry the span: %q", body)
	}
}

// traceCollector is an OTLP trace service that records the span names it
// receives.
type traceCollector struct {
	coltracepb.UnimplementedTraceServiceServer
	mu    sync.Mutex
	names []string
}

func (c *traceCollector) Export(_ context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				c.names = append(c.names, s.Name)
			}
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

func TestOTLPOverGRPC(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	c := &traceCollector{}
	coltracepb.RegisterTraceServiceServer(srv, c)
	go srv.Serve(lis)
	defer srv.Stop()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+lis.Addr().String())
	env := map[string]string{otelenv.TracesEnv: "otlp", otelenv.TracesProtocolEnv: "grpc"}
	p, err := otelenv.FromEnv(t.Context(), func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	recordSpan(t, p, "the-span")
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.names) != 1 || c.names[0] != "the-span" {
		t.Errorf("the collector received %q", c.names)
	}
}
