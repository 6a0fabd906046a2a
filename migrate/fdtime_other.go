//go:build !linux || migrate_portable

package migrate

import (
	"errors"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filestamp"
)

// stampsOpenFiles reports that touch cannot set the times of an open file
// here: a finished file is stamped and settled by name (see
// destFile.finishAt).
const stampsOpenFiles = false

// touch is not used where stampsOpenFiles is false.
func (f *fdFile) touch(time.Time) (filestamp.Stamp, error) {
	return filestamp.Stamp{}, errors.ErrUnsupported
}
