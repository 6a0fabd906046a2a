//go:build !unix || safefs_portable

package safefs

import (
	"context"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// Lock takes the cross-process lock of rel (the directory <rel>.lock next to
// it); rel "" or "." locks the anchored directory itself (<dir>.lock beside
// it). See filelock.Acquire. Here the lock is taken by path: the directory
// is checked, and the lock's path resolved, before it is taken.
func (d *Dir) Lock(ctx context.Context, rel string, opts filelock.Options) (*filelock.Lock, error) {
	p, err := d.Resolve(rel)
	if err != nil {
		return nil, err
	}
	return filelock.Acquire(ctx, p, opts)
}
