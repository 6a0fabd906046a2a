// Package otelenv builds the OpenTelemetry providers of the lite-agent
// command from the standard OTEL_* environment variables.
//
// It exports nothing unless asked: a signal is exported only when its
// variable, OTEL_TRACES_EXPORTER or OTEL_METRICS_EXPORTER, is set, so that
// a run without them never tries to reach a collector. Each variable is a
// comma-separated list of exporters:
//
//   - "otlp" sends OTLP to a collector, over HTTP with protobuf bodies
//     ("http/protobuf", the default) or over gRPC ("grpc"), as
//     OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_METRICS_PROTOCOL,
//     else OTEL_EXPORTER_OTLP_PROTOCOL, says. The OTLP exporters read the
//     other OTEL_EXPORTER_OTLP_* variables (endpoint, headers, timeout,
//     compression, certificates) themselves.
//   - "console" writes JSON, a line per span or per metrics collection, to
//     the writer given to [FromEnv], the command's standard error, so that
//     it never mixes with the answer or the --output json object.
//   - "none" exports nothing.
//
// Any other value, such as "prometheus", "zipkin" or "http/json", is an
// [*UnsupportedError] naming the values that are supported. The resource
// is service.name "lite-agent", overridden by OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES; the SDK reads the remaining variables
// (OTEL_BSP_*, OTEL_METRIC_EXPORT_INTERVAL, …) as usual.
//
// The package links only these exporters on purpose: the contrib
// autoexport package would link the Prometheus client and the OTLP log
// exporters into every command, and their package initialization is paid
// by each start of lite-agent, even by those that export nothing.
package otelenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/telemetry"
)

// The variables that turn exporting on.
const (
	TracesEnv  = "OTEL_TRACES_EXPORTER"
	MetricsEnv = "OTEL_METRICS_EXPORTER"
)

// The variables that choose the OTLP protocol: the signal's own, else the
// common one.
const (
	ProtocolEnv        = "OTEL_EXPORTER_OTLP_PROTOCOL"
	TracesProtocolEnv  = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	MetricsProtocolEnv = "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"
)

// The exporter names of OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER.
const (
	ExporterOTLP    = "otlp"
	ExporterConsole = "console"
	ExporterNone    = "none"
)

// The OTLP protocols.
const (
	ProtocolHTTPProtobuf = "http/protobuf"
	ProtocolGRPC         = "grpc"
)

// flushTimeout bounds the flush at Close.
const flushTimeout = 5 * time.Second

// An UnsupportedError reports a variable whose value names an exporter or
// a protocol that lite-agent does not build.
type UnsupportedError struct {
	Variable  string   // the environment variable, e.g. "OTEL_METRICS_EXPORTER"
	Value     string   // the unsupported value, e.g. "prometheus"
	Supported []string // the values that are supported
}

// Error names the variable, its value and the supported values.
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s=%q is not supported by lite-agent (supported: %s)",
		e.Variable, e.Value, strings.Join(e.Supported, ", "))
}

// Providers are the providers the environment asked for. Close flushes
// and stops them.
type Providers struct {
	tp   *sdktrace.TracerProvider // nil when traces are not exported
	mp   *sdkmetric.MeterProvider // nil when metrics are not exported
	errw io.Writer                // receives a failed flush's one-line report
}

// FromEnv returns the providers that getenv's OTEL_TRACES_EXPORTER and
// OTEL_METRICS_EXPORTER ask for, or nil when neither is set (or both are
// "none"). An unsupported exporter or OTLP protocol is an
// [*UnsupportedError], reported before anything is built. The console
// exporters write to errw, where a flush that fails at Close is reported
// too.
func FromEnv(ctx context.Context, getenv func(string) string, errw io.Writer) (*Providers, error) {
	traces, err := exporters(getenv, TracesEnv, TracesProtocolEnv)
	if err != nil {
		return nil, err
	}
	metrics, err := exporters(getenv, MetricsEnv, MetricsProtocolEnv)
	if err != nil {
		return nil, err
	}
	if len(traces) == 0 && len(metrics) == 0 {
		return nil, nil
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName("lite-agent")),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
		resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("opentelemetry resource: %w", err)
	}
	p := &Providers{errw: errw}
	if len(traces) > 0 {
		opts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
		for _, e := range traces {
			exp, err := e.spanExporter(ctx, errw)
			if err != nil {
				// The exporters built so far may hold connections:
				// a provider over them stops them all.
				sdktrace.NewTracerProvider(opts...).Shutdown(ctx)
				return nil, fmt.Errorf("%s: %w", TracesEnv, err)
			}
			opts = append(opts, sdktrace.WithBatcher(exp))
		}
		p.tp = sdktrace.NewTracerProvider(opts...)
	}
	if len(metrics) > 0 {
		opts := []sdkmetric.Option{sdkmetric.WithResource(res)}
		for _, e := range metrics {
			exp, err := e.metricExporter(ctx, errw)
			if err != nil {
				sdkmetric.NewMeterProvider(opts...).Shutdown(ctx)
				p.Close()
				return nil, fmt.Errorf("%s: %w", MetricsEnv, err)
			}
			opts = append(opts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
		}
		p.mp = sdkmetric.NewMeterProvider(opts...)
	}
	return p, nil
}

// An exporter is one entry of an OTEL_*_EXPORTER list: "otlp" with its
// protocol, or "console".
type exporter struct {
	name, protocol string
}

// exporters parses the list in getenv(variable), resolving the OTLP
// protocol from protoVariable, then ProtocolEnv. "none" entries and empty
// entries are dropped.
func exporters(getenv func(string) string, variable, protoVariable string) ([]exporter, error) {
	var list []exporter
	for name := range strings.SplitSeq(getenv(variable), ",") {
		switch name = strings.TrimSpace(name); name {
		case "", ExporterNone:
		case ExporterConsole:
			list = append(list, exporter{name: name})
		case ExporterOTLP:
			v, proto := protoVariable, getenv(protoVariable)
			if proto == "" {
				v, proto = ProtocolEnv, getenv(ProtocolEnv)
			}
			switch proto {
			case "":
				proto = ProtocolHTTPProtobuf
			case ProtocolHTTPProtobuf, ProtocolGRPC:
			default:
				return nil, &UnsupportedError{Variable: v, Value: proto, Supported: []string{ProtocolHTTPProtobuf, ProtocolGRPC}}
			}
			list = append(list, exporter{name: name, protocol: proto})
		default:
			return nil, &UnsupportedError{Variable: variable, Value: name, Supported: []string{ExporterOTLP, ExporterConsole, ExporterNone}}
		}
	}
	return list, nil
}

// spanExporter builds e for traces.
func (e exporter) spanExporter(ctx context.Context, errw io.Writer) (sdktrace.SpanExporter, error) {
	switch {
	case e.name == ExporterConsole:
		return stdouttrace.New(stdouttrace.WithWriter(errw))
	case e.protocol == ProtocolGRPC:
		return otlptracegrpc.New(ctx)
	default:
		return otlptracehttp.New(ctx)
	}
}

// metricExporter builds e for metrics.
func (e exporter) metricExporter(ctx context.Context, errw io.Writer) (sdkmetric.Exporter, error) {
	switch {
	case e.name == ExporterConsole:
		return stdoutmetric.New(stdoutmetric.WithWriter(errw))
	case e.protocol == ProtocolGRPC:
		return otlpmetricgrpc.New(ctx)
	default:
		return otlpmetrichttp.New(ctx)
	}
}

// Options returns the telemetry options that record to p.
func (p *Providers) Options() telemetry.Options {
	var o telemetry.Options
	if p.tp != nil {
		o.TracerProvider = p.tp
	}
	if p.mp != nil {
		o.MeterProvider = p.mp
	}
	return o
}

// Shutdown flushes what p holds to its exporters and stops them.
func (p *Providers) Shutdown(ctx context.Context) error {
	var errs []error
	if p.tp != nil {
		errs = append(errs, p.tp.Shutdown(ctx))
	}
	if p.mp != nil {
		errs = append(errs, p.mp.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

// Close shuts p down, waiting at most 5 s for the flush. A failure is
// reported in one line on the writer given to FromEnv and otherwise
// ignored: a run's telemetry must not fail the run.
func (p *Providers) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if err := p.Shutdown(ctx); err != nil {
		fmt.Fprintf(p.errw, "lite-agent: telemetry not exported: %s\n", termtext.Line(err.Error()))
	}
}
