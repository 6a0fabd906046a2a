//go:build !unix

package frontmatter

import "errors"

func mkfifo(string) error { return errors.New("not supported") }
