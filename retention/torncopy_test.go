package retention_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/retention"
)

// TestTornIndexCopyIsPartOfItsArchive checks that the torn tail a context
// archive's put sets aside (index.jsonl.torn-<ms> inside <id>.context) is
// treated as part of the archive: it goes with the directory when the whole
// archive is old, keeps the archive when it is young, and is never removed
// on its own, by age or by the size budget.
func TestTornIndexCopyIsPartOfItsArchive(t *testing.T) {
	const (
		ctxDir = p1 + "/sessions/s1.context"
		torn   = ctxDir + "/index.jsonl.torn-1753185600000"
		index  = ctxDir + "/index.jsonl"
	)
	tests := []struct {
		name    string
		build   func(tr *tree)
		opts    retention.Options
		kept    []string
		gone    []string
		removed []string
	}{
		{"an old archive goes whole", func(tr *tree) {
			tr.file(index, 10, 40*day)
			tr.file(torn, 10, 40*day)
			tr.dir(ctxDir, 40*day)
		}, retention.Options{}, nil, []string{ctxDir}, []string{"age " + ctxDir}},
		{"a young torn copy keeps its archive", func(tr *tree) {
			tr.file(index, 10, 40*day)
			tr.file(torn, 10, time.Minute)
			tr.dir(ctxDir, 40*day)
		}, retention.Options{LimitBytes: true}, []string{index, torn}, nil, nil},
		{"an old torn copy in a young archive stays", func(tr *tree) {
			tr.file(index, 10, time.Minute)
			tr.file(torn, 10, 2*time.Hour)
			tr.dir(ctxDir, time.Minute)
		}, retention.Options{LimitBytes: true}, []string{index, torn}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, dry := range []bool{true, false} {
				tr := newTree(t)
				tt.build(tr)
				opts := tt.opts
				opts.DryRun = dry
				rep := tr.sweep(opts)
				equal(t, "removed", tr.removed(rep), tt.removed)
				tr.mustExist(tt.kept...)
				if dry {
					tr.mustExist(tt.gone...)
				} else {
					tr.mustNotExist(tt.gone...)
				}
			}
		})
	}
}
