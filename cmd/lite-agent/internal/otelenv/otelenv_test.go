package otelenv_test

import (
	"io"
	"testing"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/otelenv"
)

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name                 string
		env                  map[string]string
		wantNil, wantErr     bool
		wantTraces, wantMeta bool
	}{
		{name: "nothing set", env: nil, wantNil: true},
		{name: "both none", env: map[string]string{otelenv.TracesEnv: "none", otelenv.MetricsEnv: "none"}, wantNil: true},
		{name: "console traces", env: map[string]string{otelenv.TracesEnv: "console"}, wantTraces: true},
		{name: "console metrics", env: map[string]string{otelenv.MetricsEnv: "console"}, wantMeta: true},
		{name: "both", env: map[string]string{otelenv.TracesEnv: "console", otelenv.MetricsEnv: "console"}, wantTraces: true, wantMeta: true},
		{name: "unknown exporter", env: map[string]string{otelenv.TracesEnv: "bogus"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// autoexport reads the process environment itself.
			t.Setenv(otelenv.TracesEnv, tt.env[otelenv.TracesEnv])
			t.Setenv(otelenv.MetricsEnv, tt.env[otelenv.MetricsEnv])
			p, err := otelenv.FromEnv(t.Context(), func(k string) string { return tt.env[k] }, io.Discard)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if (p == nil) != tt.wantNil {
				t.Fatalf("providers %v, want nil %v", p, tt.wantNil)
			}
			if p == nil {
				return
			}
			defer p.Close()
			o := p.Options()
			if (o.TracerProvider != nil) != tt.wantTraces || (o.MeterProvider != nil) != tt.wantMeta {
				t.Errorf("options %+v", o)
			}
		})
	}
}
