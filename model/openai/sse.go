package openai

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxEvent bounds the size of one server-sent event (and of one line).
const maxEvent = 16 << 20

// errEventTooLarge reports an event longer than the decoder's limit.
var errEventTooLarge = errors.New("stream event too large")

// sseEvent is one server-sent event.
type sseEvent struct {
	typ  string // the "event" field; "" for the default "message"
	data []byte // the "data" lines joined by "\n"
}

// sseDecoder reads server-sent events (text/event-stream): "field: value"
// lines ending in "\n" or "\r\n", events ending at a blank line, comments
// starting with ":". Only the "event" and "data" fields are kept.
type sseDecoder struct {
	r    *bufio.Reader
	max  int    // the longest event, in bytes
	line []byte // reused by readLine
}

// newSSEDecoder returns a decoder of r whose events may be at most max
// bytes long.
func newSSEDecoder(r io.Reader, max int) *sseDecoder {
	return &sseDecoder{r: bufio.NewReaderSize(r, 32<<10), max: max}
}

// next returns the next event that has data. At the end of the input an
// event still pending is returned as if a blank line had followed it; after
// that next returns io.EOF, or the error that ended the input.
func (d *sseDecoder) next() (sseEvent, error) {
	var ev sseEvent
	hasData := false
	for {
		line, err := d.readLine()
		if err != nil {
			if err == io.EOF && hasData {
				return ev, nil
			}
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if hasData {
				return ev, nil
			}
			ev.typ = ""
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(name) {
		case "event":
			ev.typ = string(value)
		case "data":
			if len(ev.data)+len(value)+1 > d.max {
				return sseEvent{}, errEventTooLarge
			}
			if hasData {
				ev.data = append(ev.data, '\n')
			}
			ev.data = append(ev.data, value...)
			hasData = true
		}
		// A comment (empty name) or another field is skipped.
	}
}

// readLine returns the next line without its line break. A last line with
// no line break is returned before io.EOF. The result is valid until the
// next call.
func (d *sseDecoder) readLine() ([]byte, error) {
	d.line = d.line[:0]
	for {
		frag, err := d.r.ReadSlice('\n')
		if len(d.line)+len(frag) > d.max {
			return nil, errEventTooLarge
		}
		d.line = append(d.line, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || len(d.line) == 0) {
			return nil, err
		}
		break
	}
	line := bytes.TrimSuffix(d.line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), nil
}
