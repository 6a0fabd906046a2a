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
// (<id>.jsonl) set aside at ms, try being the number of names already
// found taken: <id>.jsonl.<kind>-<unix ms + try>, or, for an id too long
// for that name to fit in storage.NameMax bytes, the short form
// <id>.<kind>-<n>, n being the last digits of the same number that fit
// (at least 3 for an id of storage.MaxIDLength). ParseCopyName reads both.
func copyName(rel string, kind CopyKind, ms int64, try int) string {
	n := strconv.FormatInt(ms+int64(try), 10)
	long := rel + "." + string(kind) + "-" + n
	if storage.FitName(long) {
		return long
	}
	short := strings.TrimSuffix(rel, LogSuffix) + "." + string(kind) + "-"
	if room := storage.NameMax - len(short); room < len(n) {
		n = n[len(n)-room:]
	}
	return short + n
}

// ParseCopyName reports whether name is the name of a copy of a log set
// aside by a repair or an append, <id>.jsonl.broken-<digits> or
// <id>.jsonl.torn-<digits> with a valid id, or the short form a long id
// takes, <id>.broken-<digits> or <id>.torn-<digits> (see copyName), and
// returns the session id and the kind of copy. The short form is one only
// for an id whose usual name would not fit (over 228 characters for a
// broken copy, 230 for a torn tail). Copies are kept for inspection; they
// are not logs. No id holds a dot, so neither form is ever a log or
// another file of a session.
func ParseCopyName(name string) (id string, kind CopyKind, ok bool) {
	i := strings.IndexByte(name, '.')
	if i < 0 {
		return "", "", false
	}
	id, rest := name[:i], name[i+1:]
	if storage.ValidateID(id) != nil {
		return "", "", false
	}
	rest, long := strings.CutPrefix(rest, LogSuffix[1:]+".")
	for _, k := range [...]CopyKind{CopyBroken, CopyTorn} {
		if ms, ok := strings.CutPrefix(rest, string(k)+"-"); ok && ms != "" && strings.Trim(ms, "0123456789") == "" {
			// The short form only for an id whose usual name does not
			// fit: a file of a shorter id's named so is no copy of its.
			if !long && storage.FitName(id+LogSuffix+"."+string(k)+"-"+msDigits) {
				return "", "", false
			}
			return id, k, true
		}
	}
	return "", "", false
}

// msDigits stands for the digits of a unix time in milliseconds (13 until
// the year 2286) in the test of whether a copy's usual name fits.
const msDigits = "0000000000000"

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
