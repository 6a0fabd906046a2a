package session

import (
	"context"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/lite-agent/lite-agent-go/internal/jsonl"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Large logs are validated and decoded on several cores: one goroutine
// reads and splits lines into chunks, workers check the lines of a chunk
// (decoding, parsing and validating each record), and the caller's
// goroutine hands the results to the callbacks strictly in order, with the
// same semantics as the serial scan. At most a few chunks are in flight, so
// memory stays bounded whatever the log's length.
const (
	// parallelMinBytes is the smallest log scanned in parallel; below it
	// the goroutines cost more than they save.
	parallelMinBytes = 4 << 20
	// chunkBytes is the size at which the reader hands a chunk over.
	chunkBytes = 512 << 10
	// chunkLines caps the records of one chunk.
	chunkLines = 1024
	// inflightBytes caps the bytes of the chunks between the reader and
	// the consumer, whatever the length of the lines; a single chunk
	// larger than that (one huge line) goes through alone.
	inflightBytes = 16 << 20
)

// scanWorkers returns how many workers scan a log of size bytes in
// parallel, or 0 to scan it serially.
func (c *FileCheckpointer) scanWorkers(size int64) int {
	n := runtime.GOMAXPROCS(0)
	if size < c.parallelMin || n < 2 {
		return 0
	}
	return min(n, 8)
}

// chunkLine is one non-blank line of a chunk.
type chunkLine struct {
	l        line  // l.Text is unset; the text is buf[from:to]
	from, to int   // the trimmed text in the chunk's buffer
	pos      int64 // the record's position
}

// lineResult is the outcome of checking one line.
type lineResult struct {
	ev   StoredEvent
	has  bool // ev is set
	prob *problem
}

// chunk is a run of consecutive lines read from the log.
type chunk struct {
	buf     []byte
	lines   []chunkLine
	out     []lineResult
	readErr error // the read error that ended the log after these lines
	err     error // a worker's error (ctx.Err())
	panic   any   // what a worker panicked with, re-raised by the consumer
	size    int   // len(buf) when sent, counted in flight until consumed
	done    chan struct{}
}

// flight counts the bytes of the chunks in flight.
type flight struct {
	bytes atomic.Int64
	peak  atomic.Int64  // the most bytes ever in flight (for tests)
	freed chan struct{} // signalled when bytes go down
	limit int64         // the cap on bytes in flight; 0 is inflightBytes (tests set less)
}

// land subtracts a consumed chunk's bytes and wakes the reader.
func (f *flight) land(n int) {
	f.bytes.Add(-int64(n))
	select {
	case f.freed <- struct{}{}:
	default:
	}
}

// scanParallel is scan with `workers` goroutines checking records. The
// callbacks run on the caller's goroutine, in record order.
func scanParallel(ctx context.Context, enc storage.Encoding, lr *lineReader, opts scanOpts, workers int,
	onRecord func(scanRecord) bool, onProblem func(problem) bool) (scanResult, error) {
	stop := make(chan struct{})
	work := make(chan *chunk, workers)
	order := make(chan *chunk, 2*workers)
	free := make(chan *chunk, 3*workers+1)
	fl := opts.flight
	if fl == nil {
		fl = &flight{}
	}
	fl.freed = make(chan struct{}, 1)
	var wg sync.WaitGroup

	wg.Go(func() { readChunks(lr, stop, work, order, free, fl) })
	for range workers {
		wg.Go(func() {
			var rd reader
			for c := range work {
				func() {
					// A panic must not take the process down from a
					// goroutine the caller cannot recover in. (A codec's
					// panic never gets here: storage.Encoding makes it
					// a failed decode.)
					defer func() {
						if r := recover(); r != nil {
							c.panic = r
						}
					}()
					checkChunk(ctx, enc, opts, &rd, c, stop)
				}()
				close(c.done)
			}
		})
	}
	defer func() {
		close(stop)
		// Drain so that the reader, blocked on a full channel, can see
		// stop; the workers finish their chunk and see work closed.
		for range order {
		}
		wg.Wait()
	}()

	q := sequencer{opts: opts, onRecord: onRecord, onProblem: onProblem}
	for c := range order {
		<-c.done
		if c.panic != nil {
			panic(c.panic)
		}
		if c.err != nil {
			return q.res, c.err
		}
		for i := range c.lines {
			if !q.flush() {
				return q.res, nil
			}
			r := &c.out[i]
			var ev *StoredEvent
			if r.has {
				ev = &r.ev
			}
			if !q.take(scanRecord{pos: c.lines[i].pos, end: c.lines[i].l.End, event: ev}, r.prob) {
				return q.res, nil
			}
		}
		if c.readErr != nil {
			return q.res, readError(opts.file, c.readErr)
		}
		if err := ctx.Err(); err != nil {
			return q.res, err
		}
		fl.land(c.size)
		recycle(c, free)
	}
	q.finish()
	return q.res, nil
}

// recycle offers c's buffers for another chunk.
func recycle(c *chunk, free chan<- *chunk) {
	clear(c.out) // drop the events, which the callbacks have copied
	if cap(c.buf) > 4*chunkBytes {
		c.buf = nil // a huge line passed through: do not keep its room
	}
	select {
	case free <- c:
	default:
	}
}

// readChunks splits the log into chunks and sends each to the workers and,
// in order, to the consumer. It closes both channels when the log ends, a
// read fails or stop is closed.
func readChunks(lr *lineReader, stop <-chan struct{}, work, order chan<- *chunk, free <-chan *chunk, fl *flight) {
	defer close(order)
	defer close(work)
	newChunk := func() *chunk {
		var c *chunk
		select {
		case c = <-free:
			c.buf, c.lines, c.out = c.buf[:0], c.lines[:0], c.out[:0]
			c.readErr, c.err = nil, nil
			if c.buf == nil {
				c.buf = make([]byte, 0, chunkBytes+chunkBytes/4)
			}
		default:
			c = &chunk{buf: make([]byte, 0, chunkBytes+chunkBytes/4)}
		}
		c.done = make(chan struct{})
		return c
	}
	limit := fl.limit
	if limit == 0 {
		limit = inflightBytes
	}
	send := func(c *chunk) bool {
		// Wait until the chunk fits in the bytes allowed in flight, unless
		// nothing is in flight.
		c.size = len(c.buf)
		for n := fl.bytes.Load(); n > 0 && n+int64(c.size) > limit; n = fl.bytes.Load() {
			select {
			case <-fl.freed:
			case <-stop:
				return false
			}
		}
		if n := fl.bytes.Add(int64(c.size)); n > fl.peak.Load() {
			fl.peak.Store(n) // only this goroutine raises it
		}
		// order first: the consumer then waits on c.done, which a worker
		// closes once c has gone through work.
		select {
		case order <- c:
		case <-stop:
			return false
		}
		select {
		case work <- c:
			return true
		case <-stop:
			close(c.done) // the consumer has stopped; nobody checks c
			return false
		}
	}
	var pos, read int64
	c := newChunk()
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			c.readErr = err
			break
		}
		if read++; read&1023 == 0 {
			// Runs of blank or overlong lines add nothing to send:
			// notice a stopped consumer between sends too.
			select {
			case <-stop:
				return
			default:
			}
		}
		text := jsonl.TrimSpace(l.Text)
		if len(text) == 0 && !l.TooLong {
			continue
		}
		if len(text) >= chunkBytes && len(c.lines) > 0 {
			// A long line travels in a chunk of its own.
			if !send(c) {
				return
			}
			c = newChunk()
		}
		pos++
		from := len(c.buf)
		c.buf = append(slices.Grow(c.buf, len(text)), text...) // long lines: one exact allocation
		l.Text = nil
		c.lines = append(c.lines, chunkLine{l: l, from: from, to: len(c.buf), pos: pos})
		if len(c.buf) >= chunkBytes || len(c.lines) >= chunkLines {
			if !send(c) {
				return
			}
			c = newChunk()
		}
	}
	send(c) // even empty, it carries the read error, if any
}

// checkChunk checks every line of c, stopping early at a context error or
// when the consumer has stopped.
func checkChunk(ctx context.Context, enc storage.Encoding, opts scanOpts, rd *reader, c *chunk, stop <-chan struct{}) {
	select {
	case <-stop:
		return
	default:
	}
	if cap(c.out) < len(c.lines) {
		c.out = make([]lineResult, len(c.lines))
	}
	c.out = c.out[:len(c.lines)]
	for i := range c.lines {
		cl := &c.lines[i]
		ev, prob, err := checkLine(ctx, enc, opts, rd, cl.pos, cl.l, c.buf[cl.from:cl.to])
		if err != nil {
			c.err = err
			return
		}
		r := &c.out[i]
		if prob != nil {
			prob.Offset = cl.l.Start
			r.prob = prob
			continue
		}
		if ev != nil {
			r.ev, r.has = *ev, true
		}
	}
}
