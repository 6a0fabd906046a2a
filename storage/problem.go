package storage

// A ProblemKind classifies what is wrong with one stored record, as the
// Verify methods of the stores report it. The kinds are shared by every
// store, so that a report can group problems by kind across stores; each
// store's Verify documents which kinds it reports and what they mean for
// its format.
type ProblemKind string

// The kinds of problem a store's Verify reports. All but [ProblemTorn] and
// [ProblemUnreferenced] are damage: an operation touching the record fails.
const (
	// ProblemDecode: the store's encoding refused the record (plaintext
	// under a codec, an envelope without one, another codec id, a wrong
	// key, scope or record, a damaged envelope). Err is a *Error whose
	// [Error.Found] is set when the record was written under another codec
	// configuration.
	ProblemDecode ProblemKind = "decode"
	// ProblemSyntax: a record that is not valid JSON (or, for a line of a
	// log or index, is empty or unterminated), as a torn write leaves it.
	ProblemSyntax ProblemKind = "syntax"
	// ProblemTooLong: a record longer than the store's limit.
	ProblemTooLong ProblemKind = "too-long"
	// ProblemFrame: valid JSON that is not the record expected at its
	// position (a wrong sequence number or owner, a missing member).
	ProblemFrame ProblemKind = "frame"
	// ProblemEvent: a session event whose members do not have the types
	// its type defines.
	ProblemEvent ProblemKind = "event"
	// ProblemTorn: a log ends with bytes after its last complete record,
	// the remains of a write that never completed and was never
	// acknowledged. Readers ignore them; it is not damage.
	ProblemTorn ProblemKind = "torn"
	// ProblemUTF8: a plaintext record that is not valid UTF-8. Reads take
	// it leniently (each invalid byte reads as U+FFFD), so only a check
	// reports it.
	ProblemUTF8 ProblemKind = "utf8"
	// ProblemDuplicate: a record that repeats one an earlier record
	// already holds, where the format allows one.
	ProblemDuplicate ProblemKind = "duplicate"
	// ProblemIntegrity: a content-addressed record whose decoded content
	// does not hash to its ref.
	ProblemIntegrity ProblemKind = "integrity"
	// ProblemMissing: a record that another record refers to does not
	// exist.
	ProblemMissing ProblemKind = "missing"
	// ProblemSymlink: a record or directory is a symlink. It is reported
	// and never followed.
	ProblemSymlink ProblemKind = "symlink"
	// ProblemName: a file whose name is not a record name of its store.
	// Its content is not examined, since no record id can be derived from
	// the name.
	ProblemName ProblemKind = "name"
	// ProblemFile: a record that is not a regular file (a directory, a
	// device) or that could not be read.
	ProblemFile ProblemKind = "file"
	// ProblemUnreferenced: a valid record that nothing refers to, as a
	// write that failed halfway leaves it. Reads ignore it; it is not
	// damage.
	ProblemUnreferenced ProblemKind = "unreferenced"
)

// Damage reports whether a problem of kind k is damage, a record that an
// operation fails on, rather than a leftover that reads ignore
// ([ProblemTorn], [ProblemUnreferenced]).
func (k ProblemKind) Damage() bool {
	return k != ProblemTorn && k != ProblemUnreferenced
}

// A Problem is one bad record found by a store's Verify method. Verify
// changes nothing; it returns every problem it finds, one bad record never
// hiding another.
type Problem struct {
	// File is the absolute path of the file involved (the log, index or
	// record file, or a directory), or, for a store that keeps no files,
	// where the record lives in the store's own terms.
	File string
	// Record is the id of the bad record, in the form the store's codec
	// context gives it as [Context.RecordID]: a session log record's seq,
	// an index line's 0-based number, a ref or a task id, all as decimal
	// or hex strings. It is "" when the problem is about a whole file or a
	// name that is no record id.
	Record string
	// Offset is the byte offset of the record in File when File holds
	// many records, one a line (a session log); zero otherwise.
	Offset int64
	// Kind classifies the problem.
	Kind ProblemKind
	// Tail reports that the record is the last line of File.
	Tail bool
	// Repairable reports that the store's repair, when the caller asks for
	// it, would drop this record (a torn last line of a plaintext session
	// log with no other problem).
	Repairable bool
	// Err is a *Error naming File and Record (or a more specific error the
	// store documents); it never holds payload bytes, keys or a codec's
	// error text.
	Err error
}
