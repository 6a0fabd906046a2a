package permission

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Bounds on the build recipes the gate reads for a bash line (see
// shellscan.RecipeReader): a file larger than maxRecipeBytes, or a
// directory of generated build files (cmake's CMakeFiles) with more than
// maxRecipeDirFiles files or maxRecipeDirBytes bytes, is one it cannot
// read fully.
const (
	maxRecipeBytes    = 8 << 20
	maxRecipeDirFiles = 4096
	maxRecipeDirBytes = 32 << 20
)

// errRecipeTooLarge is the error of a recipe larger than the gate reads.
var errRecipeTooLarge = errors.New("larger than the gate reads")

// readRecipe reads the build recipe at the absolute path p for the bash
// line's analysis: a regular file's text (a missing file or a directory
// is fs.ErrNotExist; a device or a file too large is an error), or, for a
// p that ends in "/", the text of every regular file below that
// directory, without following symbolic links.
func readRecipe(p string) ([]byte, error) {
	if dir, ok := strings.CutSuffix(p, "/"); ok {
		return readRecipeDir(dir)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("recipe: %w", err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("recipe %s is a directory: %w", p, fs.ErrNotExist)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("recipe %s is no regular file", p)
	}
	return readRecipeFile(p, maxRecipeBytes)
}

// readRecipeFile reads at most limit bytes of the regular file p, and
// fails with errRecipeTooLarge when it holds more. It opens p without
// waiting on a FIFO (one may replace the file after the caller looked at
// it) and reads no file under /proc, /sys or /dev, whose regular files may
// block a read (/proc/kmsg, tracing's trace_pipe) or change with each.
func readRecipeFile(p string, limit int64) ([]byte, error) {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		for _, d := range []string{"/proc", "/sys", "/dev"} {
			if real == d || strings.HasPrefix(real, d+"/") {
				return nil, fmt.Errorf("recipe %s lies under %s", p, d)
			}
		}
	}
	b, err := readNoWait(p, limit)
	var nr *notRegularError
	switch {
	case errors.Is(err, errRecipeTooLarge):
		return nil, fmt.Errorf("recipe %s: %w", p, errRecipeTooLarge)
	case errors.As(err, &nr):
		return nil, fmt.Errorf("recipe %s is no regular file", p)
	case err != nil:
		return nil, fmt.Errorf("recipe: %w", err)
	}
	return b, nil
}

// A notRegularError is a file the gate would read that is not a regular
// file: a FIFO, a device, a directory, a socket.
type notRegularError struct{ path string }

func (e *notRegularError) Error() string { return e.path + " is not a regular file" }

// readNoWait reads the regular file p, at most limit bytes, without
// waiting on a FIFO or a device: it opens p without blocking and looks at
// what it opened, so a FIFO put at p (by the model, with mkfifo, or in
// place of a file a caller looked at) is refused instead of waited on
// forever, which would hang the call and the approval queue behind it. A
// missing p is an error wrapping fs.ErrNotExist, one that is not a
// regular file a *notRegularError, one larger than limit wraps
// errRecipeTooLarge.
func readNoWait(p string, limit int64) ([]byte, error) {
	f, err := openRule(p, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &notRegularError{path: p}
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %w", p, errRecipeTooLarge)
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead) // room for what Stat says is there, and for ReadFrom to see the end
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w", p, errRecipeTooLarge)
	}
	return b, nil
}

// readRecipeDir returns the text of every regular file below dir.
func readRecipeDir(dir string) ([]byte, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("recipe directory %s: %w", dir, fs.ErrNotExist)
	}
	var out []byte
	files := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if files++; files > maxRecipeDirFiles {
			return fmt.Errorf("recipe directory %s: %w", dir, errRecipeTooLarge)
		}
		b, err := readRecipeFile(p, maxRecipeDirBytes-int64(len(out)))
		if err != nil {
			return err
		}
		out = append(append(out, b...), '\n')
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
