package storage

import (
	"fmt"
	"strings"
)

// Error reports a storage failure: an invalid namespace, home, id or codec,
// an envelope that cannot be decoded, a refused path, or a lock that could
// not be taken. Use [errors.As] to inspect it.
//
// An Error never carries payload bytes, key material or the text of an error
// returned by a host codec, and it does not unwrap to such an error. It may
// wrap a file-system error (which names only a path) so that
// errors.Is(err, fs.ErrNotExist) and friends keep working.
type Error struct {
	// Op is the operation that failed, such as "encode", "decode",
	// "resolve", "validate", "open", "write" or "lock".
	Op string
	// Kind is the record kind involved, or "" when the failure is not about
	// one record.
	Kind Kind
	// File is the file or directory involved, or "" when unknown.
	File string
	// Record is the record id (a seq, task id, ref or line number), or "".
	Record string
	// Message is the description of the failure in our own words.
	Message string
	// Found is set when a decode was refused because the record was
	// written under another codec configuration: it is the codec id the
	// stored envelope names, or [FoundPlaintext] for a plaintext record
	// read with a codec. Codec ids are not secret (they are stored in clear
	// in every envelope). It is "" for every other failure.
	Found string

	err error // a safe cause (never a host codec's error)
}

// Error returns the message, followed by the file and record where known.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if e.File != "" {
		fmt.Fprintf(&b, ": %s", e.File)
	}
	if e.Record != "" {
		fmt.Fprintf(&b, " record %s", e.Record)
	}
	if e.err != nil {
		fmt.Fprintf(&b, ": %v", e.err)
	}
	return b.String()
}

// FoundPlaintext is [Error.Found] for a plaintext record read with a codec.
const FoundPlaintext = "plaintext"

// CodecMismatch reports whether the failure is a record written under
// another codec configuration (see [Error.Found]), as opposed to damage.
func (e *Error) CodecMismatch() bool { return e.Found != "" }

// Unwrap returns the safe cause of the error, if any: a file-system error or
// another *Error. It never returns an error produced by a host codec.
func (e *Error) Unwrap() error { return e.err }

// WithCause returns a copy of e that wraps cause. Only pass causes whose text
// is safe to show: file-system errors, context errors or other *Error values,
// never an error returned by a [Codec].
func (e *Error) WithCause(cause error) *Error {
	c := *e
	c.err = cause
	return &c
}

// At returns a copy of e that names file and record, for stores that learn
// where a failure happened after the error was made.
func (e *Error) At(file, record string) *Error {
	c := *e
	if file != "" {
		c.File = file
	}
	if record != "" {
		c.Record = record
	}
	return &c
}

// A ForkMarkLostError reports that the mark a fork keeps on the data it
// copies into a new session, until that session's log is written, was gone
// when the fork came to remove it: a retention sweep took the copy, or part
// of it, for what a fork killed part-way leaves and removed it while the
// fork was paused (longer than the sweep's maximum age) between copying
// and writing the log. The fork's copy is then not whole, and the fork
// must fail.
type ForkMarkLostError struct {
	// SessionID is the fork's new session.
	SessionID string
	// Where names where the mark or the copy was kept: a directory, or the
	// store.
	Where string
}

// Error says whose mark was lost, and where.
func (e *ForkMarkLostError) Error() string {
	return "storage: the fork mark of session " + e.SessionID + " in " + e.Where + " is gone: a sweep removed the fork's copy before its log was written"
}
