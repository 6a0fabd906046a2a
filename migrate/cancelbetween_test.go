package migrate_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A migration cancelled between two files (the caller's context, not an
// error of the copy) must fail with the cancellation: the workers stop
// taking units, and the units they left are not copied. A dry run that
// reported success then would say a source was read whole when most of it
// was not; a real one must not get as far as taking a partial copy for a
// complete one.
func TestMigrationCancelledBetweenFilesFails(t *testing.T) {
	for _, dry := range []bool{true, false} {
		t.Run(map[bool]string{true: "dry", false: "real"}[dry], func(t *testing.T) {
			src := buildProject(t, t.TempDir(), workdir, nil, "")
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			dstHome := filepath.Join(t.TempDir(), "new")
			calls := 0
			rep, err := migrate.Run(ctx, migrate.Options{
				DryRun:           dry,
				Workers:          1,
				ProgressInterval: -1,
				Progress: func(p migrate.Progress) {
					calls++
					if p.Files >= 1 {
						cancel() // between the first file and the next
					}
				},
				From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Run cancelled between two files: %v (report %+v, %d progress calls)", err, rep, calls)
			}
		})
	}
}
