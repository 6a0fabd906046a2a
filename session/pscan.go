package session

import (
	"context"
	"io"
	"runtime"
	"sync"

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
	l        line  // l.text is unset; the text is buf[from:to]
	from, to int   // the trimmed text in the chunk's buffer
	pos      int64 // the record's position
}

// lineResult is the outcome of checking one line.
type lineResult struct {
	ev   StoredEvent
	has  bool // ev is set
	prob *Problem
}

// chunk is a run of consecutive lines read from the log.
type chunk struct {
	buf     []byte
	lines   []chunkLine
	out     []lineResult
	readErr error // the read error that ended the log after these lines
	newline bool  // whether the last line read so far ends with '\n'
	err     error // a worker's error (ctx.Err())
	done    chan struct{}
}

// scanParallel is scan with `workers` goroutines checking records. The
// callbacks run on the caller's goroutine, in record order.
func scanParallel(ctx context.Context, enc storage.Encoding, lr *lineReader, opts scanOpts, workers int,
	onRecord func(scanRecord) bool, onProblem func(Problem) bool) (scanResult, error) {
	stop := make(chan struct{})
	work := make(chan *chunk, workers)
	order := make(chan *chunk, 2*workers)
	free := make(chan *chunk, 3*workers+1)
	var wg sync.WaitGroup

	wg.Go(func() { readChunks(lr, stop, work, order, free) })
	for range workers {
		wg.Go(func() {
			var rd reader
			for c := range work {
				checkChunk(ctx, enc, opts, &rd, c, stop)
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
	q.res.newline = true
	for c := range order {
		<-c.done
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
			if !q.take(scanRecord{pos: c.lines[i].pos, end: c.lines[i].l.end, event: ev}, r.prob) {
				return q.res, nil
			}
		}
		q.res.newline = c.newline
		if c.readErr != nil {
			return q.res, readError(opts.file, c.readErr)
		}
		if err := ctx.Err(); err != nil {
			return q.res, err
		}
		recycle(c, free)
	}
	q.finish()
	return q.res, nil
}

// recycle offers c's buffers for another chunk.
func recycle(c *chunk, free chan<- *chunk) {
	clear(c.out) // drop the events, which the callbacks have copied
	select {
	case free <- c:
	default:
	}
}

// readChunks splits the log into chunks and sends each to the workers and,
// in order, to the consumer. It closes both channels when the log ends, a
// read fails or stop is closed.
func readChunks(lr *lineReader, stop <-chan struct{}, work, order chan<- *chunk, free <-chan *chunk) {
	defer close(order)
	defer close(work)
	newChunk := func() *chunk {
		var c *chunk
		select {
		case c = <-free:
			c.buf, c.lines, c.out = c.buf[:0], c.lines[:0], c.out[:0]
			c.readErr, c.err = nil, nil
		default:
			c = &chunk{buf: make([]byte, 0, chunkBytes+chunkBytes/4)}
		}
		c.done = make(chan struct{})
		return c
	}
	send := func(c *chunk) bool {
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
	var pos int64
	newline := true
	c := newChunk()
	for {
		l, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			c.readErr = err
			break
		}
		newline = l.newline
		text := trimSpace(l.text)
		if len(text) == 0 && !l.tooLong {
			c.newline = newline
			continue
		}
		pos++
		from := len(c.buf)
		c.buf = append(c.buf, text...)
		l.text = nil
		c.lines = append(c.lines, chunkLine{l: l, from: from, to: len(c.buf), pos: pos})
		c.newline = newline
		if len(c.buf) >= chunkBytes || len(c.lines) >= chunkLines {
			if !send(c) {
				return
			}
			c = newChunk()
			c.newline = newline
		}
	}
	send(c) // even empty, it carries the final newline state
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
			prob.Offset = cl.l.start
			r.prob = prob
			continue
		}
		if ev != nil {
			r.ev, r.has = *ev, true
		}
	}
}
