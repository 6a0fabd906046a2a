package storage

import (
	"errors"
	"strings"
)

// ErrIDCaseCollision is the cause of the *[Error] that [CheckIDCase]
// returns: errors.Is(err, storage.ErrIDCaseCollision).
var ErrIDCaseCollision = errors.New("ids differ only in case")

// FoldedID returns id as a case-insensitive file system (macOS's, where a
// data home may be copied) compares the names made from it: in lower
// case, with Unicode's simple folding, although valid ids are ASCII.
func FoldedID(id string) string { return strings.ToLower(strings.ToUpper(id)) }

// CheckIDCase reports two of ids (session or task-list ids of one project,
// as kind says) that differ only in case. The file stores keep such ids in
// two files or directories, but a case-insensitive file system keeps them
// in one, where the second replaces or merges into the first, so a tool
// that writes such ids into a new or copied directory in bulk refuses them
// first. The error is a *[Error] wrapping [ErrIDCaseCollision]; nil when no
// two ids fold to the same name.
func CheckIDCase(kind Kind, ids []string) error {
	seen := make(map[string]string, len(ids))
	for _, id := range ids {
		f := FoldedID(id)
		other, ok := seen[f]
		if !ok {
			seen[f] = id
			continue
		}
		if other == id {
			continue
		}
		what := "session"
		if kind == KindTask {
			what = "task list"
		}
		return (&Error{Op: "validate", Kind: kind, Record: quoteID(other) + " and " + quoteID(id),
			Message: what + " ids differ only in case: they would be one file on a case-insensitive file system"}).WithCause(ErrIDCaseCollision)
	}
	return nil
}
