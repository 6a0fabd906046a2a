package migration

import (
	"bytes"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/migrate"
)

func TestMigrateProgressIsABarOnATerminalAndLinesElsewhere(t *testing.T) {
	clock := time.Date(2026, 7, 22, 12, 0, 0, 0, time.UTC)
	pr := func(records int64, elapsed time.Duration) migrate.Progress {
		return migrate.Progress{Files: 1, TotalFiles: 4, Records: records, TotalRecords: 200, Bytes: records * 1024, TotalBytes: 200 * 1024, Elapsed: elapsed}
	}
	for _, tc := range []struct {
		name string
		tty  bool
		want string
	}{
		{"plain", false, "migrate: 100/200 records (50%), 1/4 files, 50.0 KiB/s\nmigrate: 150/200 records (75%), 1/4 files, 75.0 KiB/s\n"},
		{"terminal", true, "\r\033[Kmigrate: 50/200 records (25%), 1/4 files, 100.0 KiB/s\r\033[Kmigrate: 100/200 records (50%), 1/4 files, 50.0 KiB/s" +
			"\r\033[Kmigrate: 150/200 records (75%), 1/4 files, 75.0 KiB/s\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := NewProgress(&buf, tc.tty)
			now := clock
			p.now = func() time.Time { return now }
			p.Update(pr(1, 0)) // the first report only starts the clock
			now = now.Add(500 * time.Millisecond)
			p.Update(pr(50, 500*time.Millisecond))
			now = now.Add(600 * time.Millisecond)
			p.Update(pr(100, 2*time.Second))
			now = now.Add(50 * time.Millisecond)
			p.Update(pr(120, 2*time.Second)) // too soon for either
			now = now.Add(time.Second)
			p.Update(pr(150, 2*time.Second))
			p.Finish()
			if buf.String() != tc.want {
				t.Errorf("got  %q\nwant %q", buf.String(), tc.want)
			}
		})
	}
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
}
