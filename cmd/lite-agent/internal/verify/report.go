// Package verify checks that every runtime record of a project decodes,
// for the verify command: in a data home's files (Files) or in a
// PostgreSQL database (Store). It reads and never changes anything, and
// gathers what it finds in a Report, which the command prints as text or
// JSON.
package verify

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Problem is one finding of verify.
type Problem struct {
	File    string `json:"file"`
	Record  string `json:"record,omitempty"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Found is the codec a record was written with ("plaintext" for none)
	// when it was refused for being written under another configuration.
	Found string `json:"found,omitempty"`
}

// MaxListed caps the problems a report lists one by one; the rest are
// counted (verify of a home read with the wrong codec has one problem per
// record).
const MaxListed = 1000

// Report is the result of verify. Its zero value is an empty report; the
// command starts from one whose Problems is empty, not nil, so that JSON
// shows [].
type Report struct {
	Projects int `json:"projects"`
	Files    int `json:"files"`
	// ProblemCount counts every problem, listed or not.
	ProblemCount int       `json:"problemCount"`
	Problems     []Problem `json:"problems"`
	// Omitted counts the problems past the first MaxListed, not listed.
	Omitted int `json:"omitted,omitempty"`
	// Mismatches sum up the records written under another codec
	// configuration, one entry per record kind and codec.
	Mismatches []Mismatch `json:"mismatches,omitempty"`
	// Warnings are findings that are not damage, such as an archive note
	// no index line lists (an interrupted put leaves one).
	Warnings []Problem `json:"warnings,omitempty"`

	files map[string]map[string]bool // per mismatch key, the files seen
	// omittedOther counts the omitted problems that are not mismatches
	// (those are summed up in Mismatches), for the text report.
	omittedOther int
}

// Mismatch sums up the records of one kind written with one other codec.
type Mismatch struct {
	Kind    string `json:"kind"`
	Found   string `json:"found"`
	Records int    `json:"records"`
	Files   int    `json:"files"`
}

// Add records a problem of the given kind with file (and record, if any).
// A *storage.Error refusing a record written under another codec
// configuration is also counted in Mismatches.
func (r *Report) Add(file, record, kind string, err error) {
	r.ProblemCount++
	pr := Problem{File: file, Record: record, Kind: kind, Message: err.Error()}
	var se *storage.Error
	if errors.As(err, &se) && se.CodecMismatch() {
		pr.Found = se.Found
		r.countMismatch(string(se.Kind), se.Found, file)
	}
	if len(r.Problems) >= MaxListed {
		r.Omitted++
		if pr.Found == "" {
			r.omittedOther++
		}
		return
	}
	r.Problems = append(r.Problems, pr)
}

// AddProblems adds what a store's Verify found: damage as problems, the
// rest (a torn tail, an unreferenced note) as warnings.
func (r *Report) AddProblems(probs []storage.Problem) {
	for _, pr := range probs {
		if !pr.Kind.Damage() {
			r.Warnings = append(r.Warnings, Problem{File: pr.File, Record: pr.Record, Kind: string(pr.Kind), Message: pr.Err.Error()})
			continue
		}
		r.Add(pr.File, pr.Record, string(pr.Kind), pr.Err)
	}
}

func (r *Report) countMismatch(kind, found, file string) {
	key := kind + "\x00" + found
	if r.files == nil {
		r.files = map[string]map[string]bool{}
	}
	if r.files[key] == nil {
		r.files[key] = map[string]bool{}
	}
	i := slices.IndexFunc(r.Mismatches, func(m Mismatch) bool { return m.Kind == kind && m.Found == found })
	if i < 0 {
		r.Mismatches = append(r.Mismatches, Mismatch{Kind: kind, Found: found})
		i = len(r.Mismatches) - 1
	}
	r.Mismatches[i].Records++
	if !r.files[key][file] {
		r.files[key][file] = true
		r.Mismatches[i].Files++
	}
}

// WriteText prints the report for a person: one line per kind of record
// written under another codec, then each other problem (capped), then the
// warnings and a summary.
func (r *Report) WriteText(out io.Writer) {
	for _, m := range r.Mismatches {
		fmt.Fprintf(out, "%s: %s\n", m.Kind, termtext.Line(MismatchHint(m.Found, m.Records, m.Files)))
	}
	for _, pr := range r.Problems {
		if pr.Found == "" {
			fmt.Fprintf(out, "%s: %s\n", pr.Kind, termtext.Line(pr.Message))
		}
	}
	if r.omittedOther > 0 {
		fmt.Fprintf(out, "… %d more problems not listed (--json lists the first %d)\n", r.omittedOther, MaxListed)
	}
	for _, pr := range r.Warnings {
		fmt.Fprintf(out, "warning: %s: %s\n", pr.Kind, termtext.Line(pr.Message))
	}
	fmt.Fprintf(out, "checked %s in %s: %s\n", Plural(r.Files, "file"), Plural(r.Projects, "project"), Plural(r.ProblemCount, "problem"))
}

// MismatchHint tells what to do about records written with found
// ("plaintext" or a codec id); records and files, when not zero, say how
// many.
func MismatchHint(found string, records, files int) string {
	what := "records are"
	if records > 0 {
		verb := "are"
		if records == 1 {
			verb = "is"
		}
		what = fmt.Sprintf("%s in %s %s", Plural(records, "record"), Plural(files, "file"), verb)
	}
	if found == storage.FoundPlaintext {
		return what + " plaintext; run without --codec, or migrate them (lite-agent migrate)"
	}
	return fmt.Sprintf("%s encoded with %s; pass %s", what, found, codecFlags(found))
}

// codecFlags returns the global flags that read records written with the
// codec id found: a compressing codec takes no key, and an encrypting one
// needs --key-id when found names another key version than the default.
// A codec id the command line does not build is named as it is.
func codecFlags(found string) string {
	switch found {
	case "gzip-v1":
		return "--codec gzip"
	case "zstd-v1":
		return "--codec zstd"
	}
	alg, keyID, ok := strings.Cut(found, ".v1.")
	if ok && keyID != "" && (alg == "xchacha20poly1305" || alg == "aes256gcm") {
		flags := "--codec " + alg
		if keyID != DefaultKeyID {
			flags += " --key-id " + keyID
		}
		return flags + " and its key (--key-env or --key-file)"
	}
	return "--codec and the key (--key-env or --key-file)"
}

// DefaultKeyID is the key version of --key-id when it is not given.
const DefaultKeyID = "k1"

// Plural returns n and noun, with an s unless n is 1.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
