package session

import "github.com/lite-agent/lite-agent-go/internal/msgjson"

// reader is the JSON reader of log lines: msgjson's strict single-pass
// reader, plus the buffer a line's decoded record is kept in so that the
// next line can reuse it (see checkLine).
type reader struct {
	msgjson.Reader
	plain []byte
}

func newReader(b []byte) *reader { return &reader{Reader: msgjson.Reader{Buf: b}} }
