package session

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/jsonl"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TitleRunes is the longest [Summary.Title], in runes, ellipsis included.
const TitleRunes = 80

const (
	// summaryWindow is the first read at each end of a log.
	summaryWindow = 16 << 10
	// summaryHeadMax caps the bytes read from a log's head to find its
	// title: a first record longer than that leaves the title empty.
	summaryHeadMax = 1 << 20
	// summaryHeadRecords caps the records looked at for the title.
	summaryHeadRecords = 16
)

// Summary describes one stored session for a listing. It is read from the
// first and last records of the log only (see [FileCheckpointer.Summaries]).
type Summary struct {
	// ID is the session id.
	ID string
	// Title is the text of the session's first prompt (the first user
	// message typed by the user, found among the first records), on one
	// line with runs of white space collapsed, clipped to [TitleRunes]
	// runes with a trailing "…". It is "" when no such record was found.
	Title string
	// Updated is the time of the last complete record, or the log's
	// modification time when that record cannot be read.
	Updated time.Time
	// Size is the size of the log file in bytes.
	Size int64
	// Records is the seq of the last complete record: the number of
	// records of a valid log.
	Records int64
	// Torn reports that the log ends with a torn tail (see
	// [TornTailError]), which the next append sets aside.
	Torn bool
	// Err, when not nil, is why the first or last record could not be read
	// (a *storage.Error naming the file and record, holding no payload);
	// the other fields then hold what could be read.
	Err error
}

// Summaries returns a [Summary] of every regular *.jsonl log in the
// directory, most recently updated first (ties by id). It is meant for
// listings of many sessions, so it takes no lock and does not validate the
// logs: for a plaintext log it reads only a few kilobytes at each end,
// the first records (for the title) and the last complete one (for Records
// and Updated), and checks just those. An encoded log costs more: the seq
// of its last record is part of what its codec authenticates, so its
// lines are counted, reading the whole file without decoding it, before
// the first and last records are decoded. A log being appended to may show
// the state just before or just after the append. Use
// [FileCheckpointer.Verify] to validate a log.
//
// A log that cannot be summarized is listed with Err set; the error return
// is for failures to list the directory at all (including ctx.Err()).
// Summaries is safe for concurrent use.
func (c *FileCheckpointer) Summaries(ctx context.Context) ([]Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ents, err := c.dir.ReadDir("")
	if err != nil {
		return nil, err
	}
	var ids []string
	var links []bool // the entry was listed as a symlink
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), logSuffix)
		if ok && id != "" && (e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0) {
			ids = append(ids, id)
			links = append(links, e.Type()&fs.ModeSymlink != 0)
		}
	}
	out := make([]Summary, len(ids))
	keep := make([]bool, len(ids))
	h, err := c.dir.Handle()
	if err != nil {
		return nil, err
	}
	defer h.Close()
	workers := min(runtime.GOMAXPROCS(0), 8, len(ids)/32+1)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var sc summarizer
			for {
				i := int(next.Add(1) - 1)
				if i >= len(ids) || ctx.Err() != nil {
					return
				}
				out[i], keep[i] = c.summarize(ctx, &sc, h, ids[i], links[i])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The directory was checked when listed; check it again, so that a
	// directory swapped meanwhile does not go unnoticed.
	if err := c.dir.Check(); err != nil {
		return nil, err
	}
	res := out[:0]
	for i := range out {
		if keep[i] {
			res = append(res, out[i])
		}
	}
	slices.SortFunc(res, func(a, b Summary) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return res, nil
}

// summarizer holds one goroutine's buffers.
type summarizer struct {
	buf   []byte
	plain []byte
	rd    reader
}

// readAt reads n bytes at off into the summarizer's buffer.
func (sc *summarizer) readAt(f *os.File, off int64, n int) ([]byte, error) {
	if cap(sc.buf) < n {
		sc.buf = make([]byte, n)
	}
	b := sc.buf[:n]
	m, err := f.ReadAt(b, off)
	if err == io.EOF {
		err = nil
	}
	return b[:m], err
}

// summarize reads the summary of the log of id in the directory h, which
// the listing showed as a symlink when link. It reports false for a file
// to leave out: gone since the directory was listed, or not a regular
// file.
func (c *FileCheckpointer) summarize(ctx context.Context, sc *summarizer, h *safefs.Handle, id string, link bool) (Summary, bool) {
	s := Summary{ID: id}
	file := filepath.Join(c.dir.Path(), id+logSuffix)
	var f *os.File
	err := error(&fs.PathError{Op: "open", Path: file, Err: syscall.ELOOP})
	if !link {
		f, err = h.OpenListed(id+logSuffix, os.O_RDONLY, 0)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, false
	case errors.Is(err, syscall.ELOOP):
		s.Err = &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: file, Message: "Symlink paths are not allowed for read: " + id + logSuffix}
		return s, true
	case err != nil:
		s.Err = readError(file, err)
		return s, true
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		s.Err = readError(file, err)
		return s, true
	}
	if !fi.Mode().IsRegular() {
		return s, false
	}
	s.Size, s.Updated = fi.Size(), fi.ModTime()
	if s.Size == 0 {
		return s, true
	}
	if err := checkSparse(file, f, s.Size); err != nil {
		s.Err = err
		return s, true
	}
	sum := summaryRead{ctx: ctx, c: c, sc: sc, f: f, s: &s, file: file}
	if c.enc.Encoded() {
		s.Err = sum.encoded(ctx)
	} else {
		s.Err = sum.plaintext()
	}
	return s, true
}

// summaryRead is the reading of one log's summary.
type summaryRead struct {
	ctx  context.Context // looked at between the windows of a long tail
	c    *FileCheckpointer
	sc   *summarizer
	f    *os.File
	s    *Summary
	file string
}

// plaintext fills in the summary of a plaintext log from its two ends.
func (r *summaryRead) plaintext() error {
	size := r.s.Size
	// The tail: the last newline, then the last non-blank line before it.
	var last, whole []byte
	for w := int64(summaryWindow); ; w *= 2 {
		w = min(w, size)
		if w > int64(r.c.maxLine)+summaryWindow {
			// No complete line ends within a line's limit of the log's
			// end: a torn tail or blank lines that long, which only a
			// planted file holds (a sparse one costs no disk). Look for
			// the last line without holding them in memory.
			var err error
			if last, err = r.lastLineFar(); err != nil || last == nil {
				return err
			}
			break
		}
		b, err := r.sc.readAt(r.f, size-w, int(w))
		if err != nil {
			return readError(r.file, err)
		}
		end := bytes.LastIndexByte(b, '\n')
		if end < 0 {
			if w == size {
				r.s.Torn = true // no complete record at all
				return nil
			}
			continue
		}
		r.s.Torn = end+1 < len(b)
		line, ok := jsonl.LastLine(b[:end])
		if !ok && w < size {
			continue // the line may start before the window
		}
		last = line
		if w == size {
			whole = b // a small log: the title is in there too
		}
		break
	}
	if len(jsonl.TrimSpace(last)) == 0 {
		return nil // only blank lines
	}
	if err := r.last(last, 0); err != nil {
		return err
	}
	return r.title(whole)
}

// lastLineFar returns the last non-blank complete line of a plaintext log
// whose end is too long to read at once, reading backwards a window at a
// time: memory holds that line only, which must be within the line limit.
// It sets r.s.Torn, and returns nil for a log with no complete non-blank
// line.
func (r *summaryRead) lastLineFar() ([]byte, error) {
	// back returns the offset of the last byte before end (looking at
	// most limit bytes back) for which want is true, or -1.
	back := func(end, limit int64, want func(byte) bool) (int64, error) {
		for stop := max(end-limit, 0); end > stop; {
			if err := r.ctx.Err(); err != nil {
				return 0, err // a tail of gigabytes without a newline takes seconds
			}
			n := min(1<<20, end-stop)
			b, err := r.sc.readAt(r.f, end-n, int(n))
			if err == nil && int64(len(b)) < n {
				err = io.ErrUnexpectedEOF // the log shrank meanwhile
			}
			if err != nil {
				return 0, readError(r.file, err)
			}
			for i := len(b) - 1; i >= 0; i-- {
				if want(b[i]) {
					return end - n + int64(i), nil
				}
			}
			end -= n
		}
		return -1, nil
	}
	newline := func(c byte) bool { return c == '\n' }
	size := r.s.Size
	nl, err := back(size, size, newline)
	if err != nil {
		return nil, err
	}
	r.s.Torn = nl+1 < size
	if nl < 0 {
		return nil, nil // no complete record at all
	}
	text, err := back(nl, nl, func(c byte) bool { return c != '\n' && c != ' ' && c != '\t' && c != '\r' })
	if err != nil || text < 0 {
		return nil, err // only blank lines
	}
	limit := int64(r.c.maxLine)
	start, err := back(text, limit, newline)
	if err != nil {
		return nil, err
	}
	if start < 0 && text+1 > limit {
		return nil, &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: r.file, Message: "Corrupt checkpoint record (the last one): longer than the line length limit"}
	}
	b, err := r.sc.readAt(r.f, start+1, int(text-start))
	if err == nil && int64(len(b)) < text-start {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, readError(r.file, err)
	}
	return b, nil
}

// last reads the last complete record from its line. For a plaintext log
// (seq 0) its seq is read from the line; an encoded log passes the seq it
// counted.
func (r *summaryRead) last(line []byte, seq int64) error {
	var f frame
	if seq == 0 {
		text := jsonl.TrimSpace(line)
		f.parse(r.reader(text), false)
		if f.EnvelopeIn(text) {
			// An encoded record read without a codec: the readers' refusal,
			// naming the codec found, not a corrupt record.
			return &storage.Error{Op: "decode", Kind: storage.KindCheckpoint, File: r.file,
				Message: "Encoded storage requires its configured codec", Found: storage.StoredCodec(text)}
		}
		if f.Problem == "" && f.HasSeq && f.Seq > 0 {
			seq = f.Seq
			f.Check(r.s.ID, seq)
		}
	} else {
		plain, err := r.decode(line, seq)
		if err != nil {
			return err
		}
		f.parse(r.reader(plain), false)
		f.Check(r.s.ID, seq)
	}
	if seq == 0 {
		// Which record this is is not known without reading the log.
		if f.Problem == "" {
			f.Problem = "seq is not a positive integer"
		}
		return &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: r.file, Message: "Corrupt checkpoint record (the last one): " + f.Problem}
	}
	if f.Problem != "" {
		return newProblem(scanOpts{id: r.s.ID, file: r.file}, seq, f.Kind, f.Problem).Err
	}
	r.s.Records, r.s.Updated = seq, f.Time
	return nil
}

// reader returns the summarizer's JSON reader over b.
func (r *summaryRead) reader(b []byte) *reader {
	r.sc.rd.Reset(b)
	return &r.sc.rd
}

// decode decodes the encoded line of record seq.
func (r *summaryRead) decode(line []byte, seq int64) ([]byte, error) {
	rec := strconv.FormatInt(seq, 10)
	plain, err := r.c.enc.AppendDecode(context.Background(), r.sc.plain[:0], storage.KindCheckpoint, r.s.ID, rec, jsonl.TrimSpace(line))
	if err != nil {
		var se *storage.Error
		if !errors.As(err, &se) {
			se = &storage.Error{Op: "decode", Kind: storage.KindCheckpoint, Message: "Storage decode failed (checkpoint)"}
		}
		return nil, se.At(r.file, rec)
	}
	r.sc.plain = plain
	return plain, nil
}

// title looks for the first prompt among the first records. head, if not
// nil, holds the log's first bytes already read.
func (r *summaryRead) title(head []byte) error {
	size := r.s.Size
	for w := min(int64(summaryWindow), size); ; w = min(w*2, size, summaryHeadMax) {
		b := head
		if b == nil || int64(len(b)) < w {
			var err error
			if b, err = r.sc.readAt(r.f, 0, int(w)); err != nil {
				return readError(r.file, err)
			}
		}
		found, complete, err := r.titleIn(b)
		if found || err != nil || complete || w == size || w == summaryHeadMax {
			return err
		}
		head = nil
	}
}

// titleIn looks for the first prompt in the complete lines of b. complete
// reports that looking further would not help: a prompt was found, or the
// records looked at are all there are to look at.
func (r *summaryRead) titleIn(b []byte) (found, complete bool, err error) {
	var pos int64
	for len(b) > 0 && pos < summaryHeadRecords && pos < r.s.Records {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return false, false, nil // the line goes on beyond b
		}
		line := jsonl.TrimSpace(b[:i])
		b = b[i+1:]
		if len(line) == 0 {
			continue
		}
		pos++
		plain := line
		if r.c.enc.Encoded() {
			if plain, err = r.decode(line, pos); err != nil {
				return false, true, err
			}
		}
		var f frame
		f.parse(r.reader(plain), true)
		f.Check(r.s.ID, pos)
		if f.Problem != "" {
			return false, true, newProblem(scanOpts{id: r.s.ID, file: r.file}, pos, f.Kind, f.Problem).Err
		}
		if ue, ok := f.event.(UserEvent); ok && (ue.Origin == "" || ue.Origin == OriginUser) {
			if t := clipTitle(ue.Message.PlainText()); t != "" {
				r.s.Title = t
				return true, true, nil
			}
		}
	}
	return false, true, nil
}

// clipTitle puts s on one line, collapsing runs of white space, and clips
// it to TitleRunes runes.
func clipTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if n := 0; len(s) > TitleRunes {
		for i := range s {
			if n == TitleRunes-1 {
				return s[:i] + "…"
			}
			n++
		}
	}
	return s
}

// encoded fills in the summary of an encoded log: it counts the complete
// non-blank lines (the seq of the last record), then decodes the last
// record and looks for the title among the first ones.
func (r *summaryRead) encoded(ctx context.Context) error {
	const chunk = 256 << 10
	var (
		off, lineStart int64
		count          int64
		lastStart      int64 = -1
		lastEnd        int64
		nonBlank       bool
		head           []byte
	)
	for off < r.s.Size {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := r.sc.readAt(r.f, off, int(min(chunk, r.s.Size-off)))
		if err != nil {
			return readError(r.file, err)
		}
		if len(b) == 0 {
			break
		}
		if off == 0 {
			head = append(head, b[:min(len(b), summaryWindow)]...)
		}
		for i, ch := range b {
			switch ch {
			case '\n':
				if nonBlank {
					count++
					lastStart, lastEnd = lineStart, off+int64(i)
				}
				lineStart, nonBlank = off+int64(i)+1, false
			case ' ', '\t', '\r':
			default:
				nonBlank = true
			}
		}
		off += int64(len(b))
	}
	r.s.Torn = lineStart < r.s.Size
	if count == 0 {
		return nil
	}
	line, err := r.sc.readAt(r.f, lastStart, int(lastEnd-lastStart))
	if err != nil {
		return readError(r.file, err)
	}
	if err := r.last(line, count); err != nil {
		return err
	}
	return r.title(head)
}
