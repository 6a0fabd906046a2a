package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/jsonl"
)

// A Reason classifies a [ChainError].
type Reason string

// The reasons a chain breaks.
const (
	// ReasonMalformed: the line is not a record (not JSON, a member
	// missing, repeated or unknown, a bad value).
	ReasonMalformed Reason = "malformed"
	// ReasonHash: the record's hash does not match its content: the
	// record was changed, or the log was written with another key (or
	// with one, or without).
	ReasonHash Reason = "hash"
	// ReasonSeq: the record's seq does not follow the previous record's:
	// a record was removed, moved or repeated before it.
	ReasonSeq Reason = "seq"
	// ReasonPrevHash: the record's prevHash is not the previous record's
	// hash: the records around it do not belong together.
	ReasonPrevHash Reason = "prevHash"
	// ReasonTorn: the file ends with a line without its newline, an
	// append that a crash interrupted. In the last file it does not break
	// the chain (see [Report.Torn]).
	ReasonTorn Reason = "torn"
)

// A ChainError names a record where an audit chain is broken: the file,
// the line and, when it could be read, the record's seq.
type ChainError struct {
	File   string `json:"file"`
	Line   int    `json:"line"`          // 1-based; 0 when unknown
	Seq    int64  `json:"seq,omitempty"` // the record's seq, when it could be read
	Reason Reason `json:"reason"`
	Detail string `json:"detail"` // what is wrong, in words
}

// Error names the file, the line and, when known, the seq of the broken
// record, and says why it breaks the chain.
func (e *ChainError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "audit log %s line %d", e.File, e.Line)
	if e.Seq > 0 {
		fmt.Fprintf(&b, " (seq %d)", e.Seq)
	}
	b.WriteString(": ")
	b.WriteString(e.Detail)
	return b.String()
}

// A Report is the outcome of [Verify].
type Report struct {
	// Files are the files verified, in chain order.
	Files []string `json:"files"`
	// Keyed reports whether the hashes were checked as HMAC-SHA256.
	Keyed bool `json:"keyed"`
	// Records is the number of records verified intact, up to the break
	// if there is one.
	Records int64 `json:"records"`
	// FirstSeq and LastSeq are the seqs of the first and the last intact
	// record; LastHash is the last one's hash. All are zero without one.
	FirstSeq int64  `json:"firstSeq"`
	LastSeq  int64  `json:"lastSeq"`
	LastHash string `json:"lastHash,omitempty"`
	// Start reports whether the first record begins the chain (its
	// prevHash is empty). When it is false, earlier records were rotated
	// away or are in files not given.
	Start bool `json:"start"`
	// Broken is the first record where the chain breaks, nil when it
	// holds.
	Broken *ChainError `json:"broken,omitempty"`
	// Torn is a torn last line of the last file: an append a crash
	// interrupted, which was never acknowledged. The records before it
	// are intact; the next append of a [Log] sets it aside.
	Torn *ChainError `json:"torn,omitempty"`
}

// OK reports whether the chain holds.
func (r *Report) OK() bool { return r.Broken == nil }

// maxLine bounds a line Verify reads; a longer one is malformed.
const maxLine = 64 << 20

// Verify checks the hash chain of the audit log files, given oldest
// first (see [Files]): that every line is a record, that its hash matches
// it (as HMAC-SHA256 under key when key is not empty, else SHA-256), that
// its seq is one more than the previous record's and its prevHash that
// record's hash, across file boundaries too. The first file's first
// record may continue an earlier chain ([Report.Start]). A torn last line
// in the last file is reported in [Report.Torn]; anywhere else it breaks
// the chain.
//
// A broken chain is not an error: it is reported in [Report.Broken],
// naming the first broken record. Verify returns an error only when a file
// cannot be read or ctx ends.
//
// Verify cannot tell the loss of records at the end of the last file, or
// of whole files at either end, from a log that ended there: compare
// [Report.LastSeq] and [Report.LastHash] with a copy kept elsewhere for
// that.
func Verify(ctx context.Context, files []string, key []byte) (Report, error) {
	rep := Report{Files: slices.Clone(files), Keyed: len(key) > 0}
	if len(files) == 0 {
		return rep, errors.New("audit: no files to verify")
	}
	var lr jsonl.Reader
	for i, name := range files {
		last := i == len(files)-1
		brk, err := verifyFile(ctx, &lr, name, key, last, &rep)
		if err != nil {
			return rep, err
		}
		if brk != nil {
			rep.Broken = brk
			return rep, nil
		}
	}
	return rep, nil
}

// verifyFile verifies the records of one file, continuing rep.
func verifyFile(ctx context.Context, lr *jsonl.Reader, name string, key []byte, last bool, rep *Report) (*ChainError, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	lr.Reset(f, maxLine)
	defer lr.Release()
	n := 0
	for {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		ln, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("audit: read %s: %w", name, err)
		}
		n++
		at := func(seq int64, reason Reason, format string, args ...any) *ChainError {
			return &ChainError{File: name, Line: n, Seq: seq, Reason: reason, Detail: fmt.Sprintf(format, args...)}
		}
		if ln.TooLong {
			return at(0, ReasonMalformed, "the line is longer than %d bytes", maxLine), nil
		}
		rec, err := decodeRecord(ln.Text)
		if err != nil {
			return at(0, ReasonMalformed, "%v", err), nil
		}
		if sum(key, rec.prevHash, rec.body) != rec.hash {
			what := "the record's hash does not match its content: it was changed"
			if rep.Records == 0 {
				what += ", or the log was written with another key (or with one, or without)"
			}
			return at(rec.seq, ReasonHash, "%s", what), nil
		}
		if rep.Records == 0 {
			rep.FirstSeq, rep.Start = rec.seq, rec.prevHash == ""
		} else {
			if rec.seq != rep.LastSeq+1 {
				return at(rec.seq, ReasonSeq, "seq %d follows seq %d: records are missing, moved or repeated before it", rec.seq, rep.LastSeq), nil
			}
			if rec.prevHash != rep.LastHash {
				return at(rec.seq, ReasonPrevHash, "prevHash is not the hash of the record before it (seq %d)", rep.LastSeq), nil
			}
		}
		rep.Records++
		rep.LastSeq, rep.LastHash = rec.seq, rec.hash
	}
	if lr.Torn {
		torn := &ChainError{File: name, Line: n + 1, Reason: ReasonTorn,
			Detail: "the last line has no newline: an append interrupted by a crash (the records before it are intact)"}
		if !last {
			torn.Detail = "the last line has no newline, in a file that is not the last"
			return torn, nil
		}
		rep.Torn = torn
	}
	return nil, nil
}

// Files is [FilesContext] with context.Background().
func Files(path string) ([]string, error) {
	return FilesContext(context.Background(), path)
}

// FilesContext returns the files of the audit log at path in chain
// order, the oldest first: the rotated files path.N … path.1 that exist,
// then path when it exists. Torn lines set aside (path.torn-*) are not
// included. Finding them lists the log's directory, in batches: a ctx
// done before or during the listing stops it and returns ctx's error,
// wrapped.
func FilesContext(ctx context.Context, path string) ([]string, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	nums, err := rotatedContext(ctx, dir, base)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	var files []string
	for _, n := range slices.Backward(nums) {
		files = append(files, filepath.Join(dir, base+"."+strconv.Itoa(n)))
	}
	if _, err := os.Lstat(path); err == nil {
		files = append(files, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("audit: %w", err)
	}
	return files, nil
}

// listBatch is how many entries rotatedContext reads between two looks
// at its ctx.
const listBatch = 256

// rotated returns, in increasing order, the numbers N of the files
// base.N in dir (N a positive decimal without leading zeros).
func rotated(dir, base string) ([]int, error) {
	return rotatedContext(context.Background(), dir, base)
}

// rotatedContext is rotated, reading dir in batches and stopping with
// ctx's error when ctx is done before one.
func rotatedContext(ctx context.Context, dir, base string) ([]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var ents []fs.DirEntry
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch, err := d.ReadDir(listBatch)
		ents = append(ents, batch...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	var nums []int
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), base+".")
		if !ok || rest == "" || rest[0] == '0' || !e.Type().IsRegular() {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n <= 0 || strconv.Itoa(n) != rest {
			continue
		}
		nums = append(nums, n)
	}
	slices.Sort(nums)
	return nums, nil
}
