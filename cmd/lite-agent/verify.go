package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/spf13/cobra"
)

// problem is one finding of verify.
type problem struct {
	File    string `json:"file"`
	Record  string `json:"record,omitempty"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Found is the codec a record was written with ("plaintext" for none)
	// when it was refused for being written under another configuration.
	Found string `json:"found,omitempty"`
}

// maxListed caps the problems a report lists one by one; the rest are
// counted (verify of a home read with the wrong codec has one problem per
// record).
const maxListed = 1000

// verifyReport is the result of verify.
type verifyReport struct {
	Projects int `json:"projects"`
	Files    int `json:"files"`
	// ProblemCount counts every problem, listed or not.
	ProblemCount int       `json:"problemCount"`
	Problems     []problem `json:"problems"`
	// Omitted counts the problems past the first maxListed, not listed.
	Omitted int `json:"omitted,omitempty"`
	// Mismatches sum up the records written under another codec
	// configuration, one entry per record kind and codec.
	Mismatches []mismatch `json:"mismatches,omitempty"`
	// Warnings are findings that are not damage, such as an archive note
	// no index line lists (an interrupted put leaves one).
	Warnings []problem `json:"warnings,omitempty"`

	files map[string]map[string]bool // per mismatch key, the files seen
	// omittedOther counts the omitted problems that are not mismatches
	// (those are summed up in Mismatches), for the text report.
	omittedOther int
}

// mismatch sums up the records of one kind written with one other codec.
type mismatch struct {
	Kind    string `json:"kind"`
	Found   string `json:"found"`
	Records int    `json:"records"`
	Files   int    `json:"files"`
}

func (r *verifyReport) add(file, record, kind string, err error) {
	r.ProblemCount++
	pr := problem{File: file, Record: record, Kind: kind, Message: err.Error()}
	var se *storage.Error
	if errors.As(err, &se) && se.CodecMismatch() {
		pr.Found = se.Found
		r.countMismatch(string(se.Kind), se.Found, file)
	}
	if len(r.Problems) >= maxListed {
		r.Omitted++
		if pr.Found == "" {
			r.omittedOther++
		}
		return
	}
	r.Problems = append(r.Problems, pr)
}

// addProblems adds what a store's Verify found: damage as problems, the
// rest (a torn tail, an unreferenced note) as warnings.
func (r *verifyReport) addProblems(probs []storage.Problem) {
	for _, pr := range probs {
		if !pr.Kind.Damage() {
			r.Warnings = append(r.Warnings, problem{File: pr.File, Record: pr.Record, Kind: string(pr.Kind), Message: pr.Err.Error()})
			continue
		}
		r.add(pr.File, pr.Record, string(pr.Kind), pr.Err)
	}
}

func (r *verifyReport) countMismatch(kind, found, file string) {
	key := kind + "\x00" + found
	if r.files == nil {
		r.files = map[string]map[string]bool{}
	}
	if r.files[key] == nil {
		r.files[key] = map[string]bool{}
	}
	i := slices.IndexFunc(r.Mismatches, func(m mismatch) bool { return m.Kind == kind && m.Found == found })
	if i < 0 {
		r.Mismatches = append(r.Mismatches, mismatch{Kind: kind, Found: found})
		i = len(r.Mismatches) - 1
	}
	r.Mismatches[i].Records++
	if !r.files[key][file] {
		r.files[key][file] = true
		r.Mismatches[i].Files++
	}
}

// writeText prints the report for a person: one line per kind of record
// written under another codec, then each other problem (capped), then the
// warnings and a summary.
func (r *verifyReport) writeText(out io.Writer) {
	for _, m := range r.Mismatches {
		fmt.Fprintf(out, "%s: %s\n", m.Kind, mismatchHint(m.Found, m.Records, m.Files))
	}
	for _, pr := range r.Problems {
		if pr.Found == "" {
			fmt.Fprintf(out, "%s: %s\n", pr.Kind, pr.Message)
		}
	}
	if r.omittedOther > 0 {
		fmt.Fprintf(out, "… %d more problems not listed (--json lists the first %d)\n", r.omittedOther, maxListed)
	}
	for _, pr := range r.Warnings {
		fmt.Fprintf(out, "warning: %s: %s\n", pr.Kind, pr.Message)
	}
	fmt.Fprintf(out, "checked %s in %s: %s\n", plural(r.Files, "file"), plural(r.Projects, "project"), plural(r.ProblemCount, "problem"))
}

func newVerifyCommand(g *globalFlags) *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check that every runtime record decodes; report each problem (exit 1 if any)",
		Long: "verify reads every session log, context archive, task record and spilled output of\n" +
			"the project (or, with --all, of every project in the data home), decodes each record\n" +
			"with the configured codec and reports every problem with its file and record. It\n" +
			"changes nothing.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := g.project()
			if err != nil {
				return err
			}
			rep := verifyReport{Problems: []problem{}}
			if st, err := g.openStore(cmd.Context()); err != nil {
				return err
			} else if st != nil {
				defer g.closeStores()
				if all {
					return usagef("--all is not supported with --store: verify one project at a time")
				}
				if err := storeVerify(cmd.Context(), st, p, &rep); err != nil {
					return err
				}
				return finishVerify(cmd.OutOrStdout(), &rep, asJSON)
			}
			dirs := []string{p.paths.ProjectDir()}
			if all {
				if dirs, err = projectDirs(storage.ProjectsDir(p.paths.Home)); err != nil {
					return err
				}
			}
			// A migration that did not finish leaves its marker in the home or
			// the project directory: its data is incomplete.
			for _, dir := range append([]string{p.paths.Home}, dirs...) {
				if err := migrate.CheckComplete(dir); err != nil {
					rep.add(filepath.Join(dir, migrate.MarkerName), "", "migration", err)
				}
			}
			for _, dir := range dirs {
				enc := storage.Encoding{Codec: p.opts.Codec, Namespace: p.paths.Namespace, ProjectID: filepath.Base(dir)}
				if ok, _ := exists(dir); !ok {
					continue
				}
				rep.Projects++
				if err := verifyProject(cmd.Context(), dir, enc, &rep); err != nil {
					return err
				}
			}
			return finishVerify(cmd.OutOrStdout(), &rep, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "verify every project of the data home")
	return cmd
}

// finishVerify prints rep and fails when it lists a problem.
func finishVerify(out io.Writer, rep *verifyReport, asJSON bool) error {
	if asJSON {
		if err := writeJSON(out, rep); err != nil {
			return err
		}
	} else {
		rep.writeText(out)
	}
	if rep.ProblemCount > 0 {
		return errFailed{"verify found " + plural(rep.ProblemCount, "problem")}
	}
	return nil
}

// projectDirs lists the project directories under projects (not following
// symlinks).
func projectDirs(projects string) ([]string, error) {
	ents, err := os.ReadDir(projects)
	if err != nil {
		if ok, _ := exists(projects); !ok {
			return nil, nil
		}
		return nil, err
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(projects, e.Name()))
		}
	}
	return dirs, nil
}

// verifyProject checks the stores of one project directory.
func verifyProject(ctx context.Context, dir string, enc storage.Encoding, rep *verifyReport) error {
	if err := verifySessions(ctx, filepath.Join(dir, storage.SessionsDirName), enc, rep); err != nil {
		return err
	}
	if err := verifyTasks(ctx, filepath.Join(dir, storage.TasksDirName), enc, rep); err != nil {
		return err
	}
	spillDir := filepath.Join(dir, storage.SpillDirName)
	if ok, _ := exists(spillDir); ok {
		st, err := spill.NewFileStore(spillDir, enc)
		if err != nil {
			rep.add(spillDir, "", "directory", err)
			return nil
		}
		probs, err := st.Verify(ctx)
		if err != nil {
			rep.add(spillDir, "", "directory", err)
			return nil
		}
		rep.Files += countFiles(spillDir, spill.FileSuffix)
		rep.addProblems(probs)
	}
	return nil
}

func verifySessions(ctx context.Context, dir string, enc storage.Encoding, rep *verifyReport) error {
	if ok, _ := exists(dir); !ok {
		return nil
	}
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{Encoding: enc})
	if err != nil {
		rep.add(dir, "", "directory", err)
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		switch {
		case strings.HasSuffix(name, session.LogSuffix) && !strings.HasPrefix(name, "."):
			id := strings.TrimSuffix(name, session.LogSuffix)
			rep.Files++
			probs, err := cp.Verify(ctx, id)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				rep.add(filepath.Join(dir, name), "", "file", err)
				continue
			}
			// A torn tail (an append that never completed) is a warning:
			// not damage, and set aside by the next append.
			rep.addProblems(probs)
			// Reads take invalid UTF-8 leniently; verify reports it.
			if probs, err = cp.CheckUTF8(ctx, id); err == nil {
				rep.addProblems(probs)
			}
		case e.IsDir() && isContextDir(name):
			id, hashed, _ := storage.ParseContextDirName(name)
			if hashed {
				continue // a hashed name: the session id, part of the codec context, is not known
			}
			rep.Files++
			ar, err := archive.NewFileArchive(filepath.Join(dir, name), archive.Options{Encoding: enc, SessionID: id})
			if err != nil {
				rep.add(filepath.Join(dir, name), "", "directory", err)
				continue
			}
			probs, err := ar.Verify(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				rep.add(filepath.Join(dir, name), "", "directory", err)
				continue
			}
			rep.addProblems(probs)
		}
	}
	return nil
}

func verifyTasks(ctx context.Context, dir string, enc storage.Encoding, rep *verifyReport) error {
	lists, err := listIDs(dir, "")
	if err != nil {
		return err
	}
	for _, list := range lists {
		st, err := task.NewFileStore(dir, list, enc)
		if err != nil {
			rep.add(filepath.Join(dir, list), "", "directory", err)
			continue
		}
		ents, err := os.ReadDir(filepath.Join(dir, list))
		if err != nil {
			return err
		}
		var ids []string
		for _, e := range ents {
			if stem, ok := task.RecordStem(e.Name()); ok && !strings.HasPrefix(stem, ".") {
				ids = append(ids, stem)
			}
		}
		sort.Strings(ids)
		for _, id := range ids {
			rep.Files++
			if _, _, err := st.Get(ctx, id); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				kind := "record"
				var se *storage.Error
				if errors.As(err, &se) && se.Op == "decode" {
					kind = "decode"
				}
				rep.add(filepath.Join(dir, list, id+task.RecordSuffix), id, kind, err)
				continue
			}
			if !enc.Encoded() {
				// Reads take invalid UTF-8 leniently; verify reports it.
				file := filepath.Join(dir, list, id+task.RecordSuffix)
				if b, err := os.ReadFile(file); err == nil && !utf8.Valid(b) {
					rep.add(file, id, string(storage.ProblemUTF8), &storage.Error{Op: "verify", Kind: storage.KindTask, File: file, Record: id, Message: "Task record is not valid UTF-8"})
				}
			}
		}
	}
	return nil
}

// isContextDir reports whether name is a context archive directory's.
func isContextDir(name string) bool {
	_, _, ok := storage.ParseContextDirName(name)
	return ok
}

// countFiles counts the entries of dir with the given suffix.
func countFiles(dir, suffix string) int {
	ents, _ := os.ReadDir(dir)
	n := 0
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), suffix) && !strings.HasPrefix(e.Name(), ".") {
			n++
		}
	}
	return n
}
