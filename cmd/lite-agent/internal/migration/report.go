// Package migration does the migrate command's work beyond its flags: it
// copies a project between a data home and a PostgreSQL database
// (ToStore, FromStore), and shows a migration's progress and its report
// for a person. Copies between data homes are migrate.Run's.
package migration

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// WriteReport writes the text form of a migration report.
func WriteReport(w io.Writer, rep migrate.Report) {
	what := "project " + rep.Source.Hash
	if rep.Source.Hash == "" {
		what = fmt.Sprintf("%d projects", len(rep.Projects))
		if len(rep.Projects) == 1 {
			what = "1 project"
		}
	}
	verb := "migrated"
	if rep.DryRun {
		verb = "dry run: would migrate"
	}
	fmt.Fprintf(w, "%s %s\n  from %s (%s)\n  to   %s (%s)\n", verb, termtext.Line(what),
		termtext.Line(rep.Source.Root), termtext.Line(describeSide(rep.Source)), termtext.Line(rep.Destination.Root), termtext.Line(describeSide(rep.Destination)))
	kinds := []storage.Kind{storage.KindCheckpoint, storage.KindArchiveIndex, storage.KindArchive, storage.KindTask, storage.KindSpill}
	for _, k := range kinds {
		c := rep.Kinds[k]
		fmt.Fprintf(w, "  %-14s %6d files %8d records %12s\n", k, c.Files, c.Records, FormatBytes(c.Bytes))
	}
	if rep.Config.Files > 0 {
		fmt.Fprintf(w, "  %-14s %6d files %8s %12s\n", "config", rep.Config.Files, "", FormatBytes(rep.Config.Bytes))
	}
	fmt.Fprintf(w, "  %d records, %s in %s\n", rep.Records, FormatBytes(rep.Bytes), rep.Elapsed.Round(time.Millisecond))
	for _, s := range rep.Skipped {
		rec := ""
		if s.Record != "" {
			rec = " record " + s.Record
		}
		fmt.Fprintf(w, "skipped %s%s: %s\n", termtext.Line(s.File), termtext.Line(rec), termtext.Line(s.Reason))
	}
	for _, p := range rep.Problems {
		rec := ""
		if p.Record != "" {
			rec = " record " + p.Record
		}
		fmt.Fprintf(w, "problem %s%s: %s\n", termtext.Line(p.File), termtext.Line(rec), termtext.Line(p.Message))
	}
	switch {
	case rep.Verified && len(rep.Skipped) > 0:
		fmt.Fprintf(w, "verified: every record copied reads back as its source; the %d source entries listed as skipped are not in the destination\n", len(rep.Skipped))
	case rep.Verified:
		fmt.Fprintln(w, "verified: every record read back decodes with the destination configuration and equals its source")
	case len(rep.Problems) > 0:
		fmt.Fprintf(w, "verification failed: %d problems; the destination stays marked incomplete\n", len(rep.Problems))
	}
}

func describeSide(s migrate.Side) string {
	codec := s.Codec
	if codec == "" {
		codec = "plaintext"
	}
	return "namespace " + s.Namespace + ", " + codec
}

// WriteStoreReport writes the text form of the report of a copy to or
// from a database (ToStore, FromStore) of project p; where says which way
// it went, as in "into the database".
func WriteStoreReport(w io.Writer, rep postgres.FilesReport, where string, p storage.ProjectPaths) error {
	_, err := fmt.Fprintf(w, "migrated project %s (namespace %s) %s\n  %d sessions (%d records), %d archives, %d task lists (%d tasks), %d spilled bodies\nverified: every record read back equals its source\n",
		p.Hash, p.Namespace, where, rep.Sessions, rep.Records, rep.Archives, rep.TaskLists, rep.Tasks, rep.Spilled)
	return err
}

// FormatBytes renders n bytes with a binary unit, as in "1.5 KiB"; the
// CLI's other summaries of bytes removed or copied use it too.
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// IsTerminal reports whether w is a character device, such as a terminal,
// that a redrawn progress bar suits. Anything else gets plain lines.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Progress shows the progress of a migration, usually on standard error:
// on a terminal, one line redrawn at most ten times a second; elsewhere, a
// plain line every second. Nothing is printed for a migration that ends
// within its first interval.
type Progress struct {
	w        io.Writer
	tty      bool
	interval time.Duration
	now      func() time.Time

	start time.Time
	last  time.Time
	drawn bool // a bar is on the terminal's current line
}

// NewProgress returns a Progress writing to w, redrawing one line when tty
// is set (see IsTerminal).
func NewProgress(w io.Writer, tty bool) *Progress {
	p := &Progress{w: w, tty: tty, interval: time.Second, now: time.Now}
	if tty {
		p.interval = 100 * time.Millisecond
	}
	return p
}

// Update is the migration's Progress callback (migrate.Options.Progress).
func (p *Progress) Update(pr migrate.Progress) {
	now := p.now()
	if p.start.IsZero() {
		p.start, p.last = now, now
	}
	if now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	line := progressLine(pr)
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.drawn = true
		return
	}
	fmt.Fprintln(p.w, line)
}

// Finish ends the bar's line, so that what follows starts on its own.
func (p *Progress) Finish() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// progressLine renders one progress report: the source bytes read of the
// total, with a percentage, files, records (of the total, when the
// migration counted them: see migrate.Options.CountRecords) and the read
// rate.
func progressLine(pr migrate.Progress) string {
	pct := 100.0
	if pr.TotalBytes > 0 {
		pct = 100 * float64(pr.Bytes) / float64(pr.TotalBytes)
	}
	rate := 0.0
	if s := pr.Elapsed.Seconds(); s > 0 {
		rate = float64(pr.Bytes) / s
	}
	records := fmt.Sprintf("%d records", pr.Records)
	if pr.TotalRecords > 0 {
		records = fmt.Sprintf("%d/%d records", pr.Records, pr.TotalRecords)
	}
	return fmt.Sprintf("migrate: %s/%s (%.0f%%), %d/%d files, %s, %s/s",
		FormatBytes(pr.Bytes), FormatBytes(pr.TotalBytes), pct, pr.Files, pr.TotalFiles, records, FormatBytes(int64(rate)))
}
