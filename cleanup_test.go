package liteagent_test

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/retention"
)

func TestStartupSweepIsReportedAndControllable(t *testing.T) {
	const day = 24 * time.Hour
	tests := []struct {
		name      string
		namespace string // "" means the default namespace
		env       string // LITE_AGENT_CLEANUP_DAYS
		edit      func(*liteagent.Options)
		wantErr   bool
		noSweep   bool     // OnCleanup is not called
		removed   []string // of old100 (100 days) and old40 (40 days)
	}{
		{name: "default 30 days", removed: []string{"old100", "old40"}},
		{name: "disabled", edit: func(o *liteagent.Options) { o.DisableCleanup = true }, noSweep: true},
		{name: "MaxAge 60 days", edit: func(o *liteagent.Options) { o.Cleanup.MaxAge = 60 * day }, removed: []string{"old100"}},
		{name: "env 60 days", env: "60", removed: []string{"old100"}},
		{name: "env 0 turns it off", env: "0", noSweep: true},
		{name: "env under MaxAge", env: "60", edit: func(o *liteagent.Options) { o.Cleanup.MaxAge = 10 * day }, removed: []string{"old100", "old40"}},
		{name: "env ignored in a custom namespace", namespace: "acme", env: "0", removed: []string{"old100", "old40"}},
		{name: "env invalid", env: "ten", wantErr: true},
		{name: "env negative", env: "-1", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			t.Setenv(liteagent.CleanupDaysEnv, tt.env)
			sessions := filepath.Join(f.home, "projects", "0123456789abcdef", "sessions")
			if err := os.MkdirAll(sessions, 0o700); err != nil {
				t.Fatal(err)
			}
			for name, age := range map[string]time.Duration{"old100": 100 * day, "old40": 40 * day, "new": 0} {
				p := filepath.Join(sessions, name+".jsonl")
				if err := os.WriteFile(p, []byte("0123456789"), 0o600); err != nil {
					t.Fatal(err)
				}
				when := time.Now().Add(-age)
				if err := os.Chtimes(p, when, when); err != nil {
					t.Fatal(err)
				}
			}
			var logs bytes.Buffer
			var reports []retention.Report
			opts := f.options(nil)
			opts.Storage.Namespace = tt.namespace
			opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			opts.OnCleanup = func(r retention.Report) { reports = append(reports, r) }
			if tt.edit != nil {
				tt.edit(&opts)
			}
			a, err := liteagent.New(t.Context(), opts)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), liteagent.CleanupDaysEnv) {
					a.Close()
					t.Fatalf("New = %v, want an error naming %s", err, liteagent.CleanupDaysEnv)
				}
				if _, err := os.Stat(filepath.Join(sessions, "old100.jsonl")); err != nil {
					t.Errorf("a refused New removed a file: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			a.Close()
			var gone []string
			for _, name := range []string{"old100", "old40", "new"} {
				if _, err := os.Stat(filepath.Join(sessions, name+".jsonl")); err != nil {
					gone = append(gone, name)
				}
			}
			if strings.Join(gone, ",") != strings.Join(tt.removed, ",") {
				t.Fatalf("removed %v, want %v", gone, tt.removed)
			}
			if tt.noSweep {
				if len(reports) != 0 {
					t.Errorf("OnCleanup called %d times without a sweep", len(reports))
				}
				return
			}
			if len(reports) != 1 {
				t.Fatalf("OnCleanup called %d times, want once", len(reports))
			}
			r := reports[0]
			if len(r.Removed) != len(tt.removed) || r.BytesFreed != int64(10*len(tt.removed)) {
				t.Errorf("report: %d removed, %d bytes; want %d, %d", len(r.Removed), r.BytesFreed, len(tt.removed), 10*len(tt.removed))
			}
			if r.Home != f.home {
				t.Errorf("report home %q, want %q", r.Home, f.home)
			}
			logged := strings.Contains(logs.String(), "cleanup removed stale runtime files")
			if logged != (len(tt.removed) > 0) {
				t.Errorf("log line present = %v, want %v:\n%s", logged, len(tt.removed) > 0, logs.String())
			}
		})
	}
}
