package openai

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxEvent bounds the size of one server-sent event (and of one line).
const maxEvent = 16 << 20

// errEventTooLarge reports an event longer than maxEvent.
var errEventTooLarge = errors.New("stream event larger than 16 MiB")

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
	line []byte // reused by readLine
}

func newSSEDecoder(r io.Reader) *sseDecoder {
	return &sseDecoder{r: bufio.NewReaderSize(r, 32<<10)}
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
			if len(ev.data)+len(value)+1 > maxEvent {
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
		if len(d.line)+len(frag) > maxEvent {
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
