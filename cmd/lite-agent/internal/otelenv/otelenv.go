// Package otelenv builds the OpenTelemetry providers of the lite-agent
// command from the standard OTEL_* environment variables, through
// go.opentelemetry.io/contrib/exporters/autoexport.
//
// Unlike autoexport alone, it exports nothing unless asked: a signal is
// exported only when its variable, OTEL_TRACES_EXPORTER or
// OTEL_METRICS_EXPORTER, is set (to "console", "otlp", "prometheus" or
// "none"), so that a run without them never tries to reach a collector.
// The other variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES, …) apply as the OpenTelemetry SDK reads them.
// The console exporters write to standard output.
package otelenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"

	"github.com/lite-agent/lite-agent-go/telemetry"
)

// The variables that turn exporting on.
const (
	TracesEnv  = "OTEL_TRACES_EXPORTER"
	MetricsEnv = "OTEL_METRICS_EXPORTER"
)

// flushTimeout bounds the flush at Close.
const flushTimeout = 5 * time.Second

// Providers are the providers the environment asked for. Close flushes
// and stops them.
type Providers struct {
	tp   *sdktrace.TracerProvider // nil when traces are not exported
	mp   *sdkmetric.MeterProvider // nil when metrics are not exported
	errw io.Writer                // receives a failed flush's one-line report
}

// FromEnv returns the providers that getenv's OTEL_TRACES_EXPORTER and
// OTEL_METRICS_EXPORTER ask for, or nil when neither is set (or both are
// "none"). An unknown exporter name is an error. A flush that fails at
// Close is reported on errw.
func FromEnv(ctx context.Context, getenv func(string) string, errw io.Writer) (*Providers, error) {
	traces, metrics := getenv(TracesEnv), getenv(MetricsEnv)
	if (traces == "" || traces == "none") && (metrics == "" || metrics == "none") {
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
	if traces != "" && traces != "none" {
		exp, err := autoexport.NewSpanExporter(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", TracesEnv, err)
		}
		p.tp = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	}
	if metrics != "" && metrics != "none" {
		reader, err := autoexport.NewMetricReader(ctx)
		if err != nil {
			p.Close()
			return nil, fmt.Errorf("%s: %w", MetricsEnv, err)
		}
		p.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res))
	}
	return p, nil
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
		fmt.Fprintf(p.errw, "lite-agent: telemetry not exported: %v\n", err)
	}
}
