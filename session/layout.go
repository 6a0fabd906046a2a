package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lite-agent/lite-agent-go/storage"
)

// LogSuffix ends the name of every session log of a [FileCheckpointer]:
// <id>.jsonl in its directory. Tools that walk a data home, such as a
// migration, match entries with [LogID] and [ParseCopyName] instead of
// spelling names.
const LogSuffix = logSuffix

// LogID returns the session id of the log file named name (<id>.jsonl with
// a valid file session id, see storage.ValidateID) and whether name is a
// log's name.
func LogID(name string) (id string, ok bool) {
	id, ok = strings.CutSuffix(name, LogSuffix)
	if !ok || storage.ValidateID(id) != nil {
		return "", false
	}
	return id, true
}

// A CopyKind says why a [FileCheckpointer] set a copy of a log aside.
type CopyKind string

// The kinds of copies set aside beside a log.
const (
	// CopyBroken is the whole log, copied before a tail repair
	// ([FileOptions.RepairTail]): <id>.jsonl.broken-<unix ms>.
	CopyBroken CopyKind = "broken"
	// CopyTorn is the torn tail an append found and moved out of the log:
	// <id>.jsonl.torn-<unix ms>.
	CopyTorn CopyKind = "torn"
)

// copyName returns the name of the copy of kind kind of the log rel
// (<id>.jsonl) set aside at ms.
func copyName(rel string, kind CopyKind, ms int64) string {
	return rel + "." + string(kind) + "-" + strconv.FormatInt(ms, 10)
}

// ParseCopyName reports whether name is the name of a copy of a log set
// aside by a repair or an append, <id>.jsonl.broken-<digits> or
// <id>.jsonl.torn-<digits> with a valid id, and returns the session id and
// the kind of copy. Copies are kept for inspection; they are not logs.
func ParseCopyName(name string) (id string, kind CopyKind, ok bool) {
	i := strings.LastIndex(name, LogSuffix+".")
	if i < 0 {
		return "", "", false
	}
	id, rest := name[:i], name[i+len(LogSuffix)+1:]
	if storage.ValidateID(id) != nil {
		return "", "", false
	}
	for _, k := range [...]CopyKind{CopyBroken, CopyTorn} {
		if ms, ok := strings.CutPrefix(rest, string(k)+"-"); ok && ms != "" && strings.Trim(ms, "0123456789") == "" {
			return id, k, true
		}
	}
	return "", "", false
}

// Copies is [FileCheckpointer.CopiesContext] with context.Background().
func (c *FileCheckpointer) Copies(id string) ([]string, error) {
	return c.CopiesContext(context.Background(), id)
}

// CopiesContext returns the paths of the copies of session id's log set
// aside beside it (see [ParseCopyName]), in name order. Only regular files
// count. It takes no lock. An invalid id has none. Finding them lists the
// sessions directory, every session's log included: a ctx done before or
// during the listing stops it and returns ctx's error, wrapped.
func (c *FileCheckpointer) CopiesContext(ctx context.Context, id string) ([]string, error) {
	if validateID(id) != nil {
		return nil, nil
	}
	ents, err := c.dir.ReadDirContext(ctx, "")
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return nil, fmt.Errorf("session: copies of %s: %w", id, err)
		}
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if cid, _, ok := ParseCopyName(e.Name()); ok && cid == id && e.Type().IsRegular() {
			out = append(out, filepath.Join(c.dir.Path(), e.Name()))
		}
	}
	return out, nil
}

// DeleteCopies removes the copies of session id's log set aside beside it
// (see [FileCheckpointer.Copies]) under the session's lock, leaving the log
// itself alone: with [FileCheckpointer.Delete] it removes every file of
// the session. Having none is not an error.
func (c *FileCheckpointer) DeleteCopies(ctx context.Context, id string) error {
	s, err := c.lock(ctx, id)
	if err != nil {
		return err
	}
	defer s.unlock()
	copies, err := c.CopiesContext(ctx, id)
	if err != nil {
		return err
	}
	for _, p := range copies {
		if err := s.held(); err != nil {
			return err
		}
		if err := c.dir.Remove(filepath.Base(p)); err != nil {
			return err
		}
	}
	return nil
}
