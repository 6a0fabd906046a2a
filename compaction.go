package liteagent

import (
	"context"
	"fmt"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/spill"
)

// openSpill returns the project's spill store, for LegacyCompaction: the
// Store's, memory when sessions are kept in memory, else the spill
// directory of the data home.
func (a *Agent) openSpill(ctx context.Context) (spill.Store, error) {
	switch {
	case a.store != nil:
		st, err := storeValue(a.store.Spill(ctx, a.lay.enc))
		if err != nil {
			return nil, fmt.Errorf("liteagent: spill store: %w", err)
		}
		return st, nil
	case a.mode == memoryStore:
		return spill.NewMemoryStore(), nil
	}
	return spill.NewFileStore(a.lay.paths.SpillDir, a.lay.enc)
}

// setCompaction sets the compaction passes of eopts: with LegacyCompaction
// (a.spill set), the default pipeline and reactive trimming in place of
// the context engine; then the host's passes.
func (a *Agent) setCompaction(eopts *engine.Options, opts Options) {
	if a.spill != nil {
		eopts.Context = nil
		eopts.Passes = compaction.Default(a.spill)
		eopts.OverflowPasses = []compaction.Pass{compaction.Reactive(compaction.ReactiveOptions{})}
	}
	eopts.Passes = append(eopts.Passes, opts.Compaction...)
}
