package archive

import "time"

// SetClock sets the clock a names set-aside torn tails by.
func SetClock(a *FileArchive, now func() time.Time) { a.now = now }

// SetStep sets the hook a calls at each step of setting a torn tail aside
// ("set-aside" once the copy is durable, "cut" once the index is cut).
func SetStep(a *FileArchive, step func(name string)) { a.step = step }
