package shellscan

import "sync"

// lazy holds a table built on its first use. A package-level lazy is static
// data: it costs the package's initialisation nothing, where each
// sync.OnceValue allocates its closures when the package starts (and every
// command of the CLI pays for every table; cmd/lite-agent's
// TestPackageInitsAllocateLittle holds each package under 8 KB).
type lazy[T any] struct {
	once  sync.Once
	v     T
	build func() T
}

// get returns the table, building it on the first call.
func (l *lazy[T]) get() T {
	l.once.Do(l.fill)
	return l.v
}

func (l *lazy[T]) fill() { l.v = l.build() }
