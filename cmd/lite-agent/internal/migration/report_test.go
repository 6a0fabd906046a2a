package migration

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/migrate"
)

func TestMigrateProgressIsABarOnATerminalAndLinesElsewhere(t *testing.T) {
	clock := time.Date(2026, 7, 22, 12, 0, 0, 0, time.UTC)
	pr := func(records int64, elapsed time.Duration) migrate.Progress {
		return migrate.Progress{Files: 1, TotalFiles: 4, Records: records, Bytes: records * 1024, TotalBytes: 200 * 1024, Elapsed: elapsed}
	}
	for _, tc := range []struct {
		name string
		tty  bool
		want string
	}{
		{"plain", false, "migrate: 100.0 KiB/200.0 KiB (50%), 1/4 files, 100 records, 50.0 KiB/s\nmigrate: 150.0 KiB/200.0 KiB (75%), 1/4 files, 150 records, 75.0 KiB/s\n"},
		{"terminal", true, "\r\033[Kmigrate: 50.0 KiB/200.0 KiB (25%), 1/4 files, 50 records, 100.0 KiB/s\r\033[Kmigrate: 100.0 KiB/200.0 KiB (50%), 1/4 files, 100 records, 50.0 KiB/s" +
			"\r\033[Kmigrate: 150.0 KiB/200.0 KiB (75%), 1/4 files, 150 records, 75.0 KiB/s\n"},
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

func TestMigrateProgressLineShowsRecordTotalsOnlyWhenCounted(t *testing.T) {
	for _, tc := range []struct {
		pr   migrate.Progress
		want string
	}{
		{migrate.Progress{Files: 2, TotalFiles: 4, Records: 30, Bytes: 1 << 20, TotalBytes: 4 << 20, Elapsed: time.Second},
			"migrate: 1.0 MiB/4.0 MiB (25%), 2/4 files, 30 records, 1.0 MiB/s"},
		{migrate.Progress{Files: 2, TotalFiles: 4, Records: 30, TotalRecords: 60, Bytes: 1 << 20, TotalBytes: 4 << 20, Elapsed: time.Second},
			"migrate: 1.0 MiB/4.0 MiB (25%), 2/4 files, 30/60 records, 1.0 MiB/s"},
		{migrate.Progress{}, "migrate: 0 B/0 B (100%), 0/0 files, 0 records, 0 B/s"},
	} {
		if got := progressLine(tc.pr); got != tc.want {
			t.Errorf("progressLine(%+v)\n got  %q\n want %q", tc.pr, got, tc.want)
		}
	}
}

// TestReportCountsProjectsInGoodEnglish: "migrated 1 project", not "1 projects".
func TestReportCountsProjectsInGoodEnglish(t *testing.T) {
	for _, tc := range []struct {
		projects []string
		want     string
	}{
		{[]string{"a"}, "migrated 1 project\n"},
		{[]string{"a", "b"}, "migrated 2 projects\n"},
		{nil, "migrated 0 projects\n"},
	} {
		var buf bytes.Buffer
		WriteReport(&buf, migrate.Report{Projects: tc.projects, Verified: true})
		if first, _, _ := strings.Cut(buf.String(), "\n"); first+"\n" != tc.want {
			t.Errorf("%d projects: first line %q, want %q", len(tc.projects), first, tc.want)
		}
	}
}
