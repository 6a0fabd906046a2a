package session

import (
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/lite-agent/lite-agent-go/internal/jsonl"
	"github.com/lite-agent/lite-agent-go/internal/logframe"
	"github.com/lite-agent/lite-agent-go/storage"
)

// MaxLineBytes is the longest log line a FileCheckpointer reads or writes:
// 256 MiB. A longer line is reported as a corrupt record rather than read
// into memory, and Append refuses to write one.
const MaxLineBytes = 256 << 20

// lineReader splits a log into lines (see jsonl.Reader) and keeps the
// JSON reader of the current line for its buffers.
type lineReader struct {
	jsonl.Reader
	rd reader
}

// line is one line of a log.
type line = jsonl.Line

// lineReaders recycles line readers and their buffers between reads. Fresh
// memory costs page faults, which on small virtual machines cost more than
// the reading itself.
type lineReaders struct{ pool sync.Pool }

// get returns a line reader over r.
func (p *lineReaders) get(r io.Reader, max int) *lineReader {
	lr, _ := p.pool.Get().(*lineReader)
	if lr == nil {
		lr = &lineReader{}
	}
	lr.Reset(r, max)
	return lr
}

// put recycles lr, dropping buffers that grew large.
func (p *lineReaders) put(lr *lineReader) {
	lr.Release()
	if cap(lr.rd.Scratch) > 1<<20 {
		lr.rd.Scratch = nil
	}
	if cap(lr.rd.plain) > 1<<20 {
		lr.rd.plain = nil
	}
	lr.rd.Buf = nil
	p.pool.Put(lr)
}

// scanRecord is what scan reports for each good record.
type scanRecord struct {
	pos   int64
	end   int64        // offset after the record's line
	event *StoredEvent // nil unless the body was decoded
}

// scanOpts selects what scan does.
type scanOpts struct {
	id, file string
	// since: decode the events of records with seq > since; the others
	// are validated without being decoded.
	since int64
	// all: keep going after a problem (Verify) instead of stopping at the
	// first one.
	all bool
	// workers, when positive, is how many goroutines check records (see
	// scanParallel).
	workers int
	// flight, if set, is where scanParallel counts its bytes in flight
	// (tests read its peak).
	flight *flight
	// budget, when positive, bounds what the records of an encoded log
	// decode to in all (see FileCheckpointer.decodeBudget); decoded
	// counts it, shared by scanParallel's workers.
	budget  int64
	decoded *atomic.Int64
}

// countDecoded makes checkLine count what records decode to against
// o.budget, when there is one.
func (o *scanOpts) countDecoded() {
	if o.budget > 0 && o.decoded == nil {
		o.decoded = new(atomic.Int64)
	}
}

// DecodeFloorBytes and DecodeRatio bound what the records of one encoded
// log may decode to in all: DecodeRatio times the log's size, and never
// less than DecodeFloorBytes (512 MiB). A compressing codec (gzip, zstd)
// needs no key, so a data home copied in can hold a log of records that
// each decode to the record limit from a few kilobytes: round 133 planted
// 40 zstd records of 200 MiB in a 355 KB log, and run -r ran out of memory
// (more than 6 GB) and sessions show took 43 s and 3.4 GB. What an agent
// writes compresses tens of times at most; a log decoding to more is
// refused, as a plaintext log that large would cost its size on disk.
const (
	DecodeFloorBytes = 512 << 20
	DecodeRatio      = 64
)

// decodeBudget returns the budget of scanOpts for an encoded log of size
// bytes, or 0 (none) for plaintext, whose records are its bytes.
func (c *FileCheckpointer) decodeBudget(size int64) int64 {
	if !c.enc.Encoded() {
		return 0
	}
	return max(c.decodeFloor, min(size, (1<<62)/DecodeRatio)*DecodeRatio)
}

// overBudget is the refusal of a log whose records decode to more than
// its budget.
func overBudget(opts scanOpts) error {
	return &storage.Error{Op: "decode", Kind: storage.KindCheckpoint, File: opts.file,
		Message: "checkpoint log decodes to more than " + strconv.FormatInt(opts.budget>>20, 10) +
			" MiB, over " + strconv.Itoa(DecodeRatio) + " times its size (a planted or damaged file); refusing to read it"}
}

// scanResult sums up a scan.
type scanResult struct {
	records int64 // non-blank lines seen (the head when there was no problem)
	stopped bool  // a callback stopped the scan
	// end is the offset after the last complete line: the file's size,
	// or where its torn tail starts. Set only when the scan reached the
	// end of the log.
	end int64
}

// torn reports whether the scan found a torn tail, given the log's size.
func (r scanResult) torn(size int64) bool { return r.end < size }

// scan reads a log from lr, validating each record, and calls onRecord for
// every good record and onProblem for every bad one, in order. Without
// opts.all it stops after the first problem, having read on only to learn
// whether the bad record was the last non-blank line (problem.Tail). Either
// callback returning false stops the scan. The error is an I/O error or
// ctx.Err(), never a problem.
//
// The bytes after the last newline, if any, are not a record: they are
// the torn tail of an append that never completed (see lineReader.next).
// When the scan reaches the end of the log, res.end is where they start
// (or the log's length when there are none).
func scan(ctx context.Context, enc storage.Encoding, lr *lineReader, opts scanOpts,
	onRecord func(scanRecord) bool, onProblem func(problem) bool) (res scanResult, err error) {
	defer func() {
		// Only complete lines have been counted: the log ends (for
		// readers) at the torn tail, or at the last line read.
		if err == nil && !res.stopped {
			res.end = lr.Offset()
			if lr.Torn {
				res.end = lr.TornAt
			}
		}
	}()
	opts.countDecoded()
	if opts.workers > 0 {
		return scanParallel(ctx, enc, lr, opts, opts.workers, onRecord, onProblem)
	}
	rd := &lr.rd
	q := sequencer{opts: opts, onRecord: onRecord, onProblem: onProblem}
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return q.res, readError(opts.file, err)
		}
		text := jsonl.TrimSpace(l.Text)
		if len(text) == 0 && !l.TooLong {
			continue // blank lines are ignored
		}
		if !q.flush() {
			return q.res, nil
		}
		pos := q.res.records + 1
		if pos&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return q.res, err
			}
		}
		ev, prob, err := checkLine(ctx, enc, opts, rd, pos, l, text)
		if err != nil {
			return q.res, err
		}
		if prob != nil {
			prob.Offset = l.Start
		}
		if !q.take(scanRecord{pos: pos, end: l.End, event: ev}, prob) {
			return q.res, nil
		}
	}
	q.finish()
	return q.res, nil
}

// sequencer hands checked records to scan's callbacks in order. A problem
// is held back until the next record shows whether it was the last one
// (problem.Tail); without opts.all, the scan stops there.
type sequencer struct {
	opts      scanOpts
	onRecord  func(scanRecord) bool
	onProblem func(problem) bool
	res       scanResult
	pending   *problem
}

// flush reports the problem held back, now known not to be the tail, when
// another record follows. It returns false when the scan must stop.
func (q *sequencer) flush() bool {
	if q.pending == nil {
		return true
	}
	p := *q.pending
	q.pending = nil
	if !q.onProblem(p) || !q.opts.all {
		q.res.stopped = true
		return false
	}
	return true
}

// take counts record r, which has the problem prob or none, and reports it
// (a problem only later, see flush). It returns false when the scan must
// stop.
func (q *sequencer) take(r scanRecord, prob *problem) bool {
	q.res.records++
	if prob != nil {
		q.pending = prob
		return true
	}
	if !q.onRecord(r) {
		q.res.stopped = true
		return false
	}
	return true
}

// finish reports the problem held back, if any, as the tail.
func (q *sequencer) finish() {
	if q.pending != nil {
		p := *q.pending
		p.Tail = true
		if !q.onProblem(p) {
			q.res.stopped = true
		}
	}
}

func readError(file string, err error) error {
	return (&storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: file, Message: "cannot read checkpoint log"}).WithCause(err)
}

// checkLine decodes and validates one non-blank line at position pos.
func checkLine(ctx context.Context, enc storage.Encoding, opts scanOpts, rd *reader, pos int64, l line, text []byte) (*StoredEvent, *problem, error) {
	if l.TooLong {
		return nil, newProblem(opts, pos, storage.ProblemTooLong, "line exceeds the length limit"), nil
	}
	plain := text
	if enc.Encoded() {
		var err error
		// Decode into the reader's buffer: the event's strings are copied
		// out of it, so the next record can reuse it.
		plain, err = enc.AppendDecode(ctx, rd.plain[:0], storage.KindCheckpoint, opts.id, strconv.FormatInt(pos, 10), text)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, nil, cerr
			}
			var se *storage.Error
			if !errors.As(err, &se) {
				se = &storage.Error{Op: "decode", Kind: storage.KindCheckpoint, Message: "Storage decode failed (checkpoint)"}
			}
			return nil, &problem{Record: pos, Kind: storage.ProblemDecode, Err: se.At(opts.file, strconv.FormatInt(pos, 10))}, nil
		}
		if opts.decoded != nil && opts.decoded.Add(int64(len(plain))) > opts.budget {
			return nil, nil, overBudget(opts)
		}
	}
	body := pos > opts.since
	var f frame
	if enc.Encoded() {
		rd.plain = plain // lineReaders.put drops it if it grew large
	}
	rd.Reset(plain)
	f.parse(rd, body)
	if !enc.Encoded() && f.EnvelopeIn(text) {
		// An envelope read without a codec, torn or not: the same refusal
		// as storage.Encoding.Decode, and never a repairable tail.
		return nil, &problem{Record: pos, Kind: storage.ProblemDecode, Err: logframe.CodecRequired(opts.file, pos, text)}, nil
	}
	f.Check(opts.id, pos)
	if f.Problem != "" {
		return nil, newProblem(opts, pos, f.Kind, f.Problem), nil
	}
	if !body {
		return nil, nil, nil
	}
	ev := f.stored(opts.id, pos)
	return &ev, nil, nil
}

// newProblem builds a Problem whose error is the TypeScript SDK's "Corrupt
// checkpoint record <i>" message plus a reason in our own words.
func newProblem(opts scanOpts, pos int64, kind storage.ProblemKind, reason string) *problem {
	return &problem{Record: pos, Kind: kind, Err: logframe.Corrupt(opts.file, pos, reason)}
}
