// Package syserr words system errors for messages that already name the
// file they concern.
package syserr

import (
	"errors"
	"io/fs"
)

// Text returns err's text without the operation and path that a
// *fs.PathError in its chain would add: "no such file or directory"
// rather than "open /x/y: no such file or directory", for a message that
// names /x/y itself. Other errors are returned whole.
func Text(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err != nil {
		return pe.Err.Error()
	}
	return err.Error()
}
