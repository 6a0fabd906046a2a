package shellscan

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// copiesMode are the commands whose written files may take the mode of a
// file they read: cp (a new file gets its source's mode, less the umask,
// with or without -p), mv, ln and link (the very file, or a link to it),
// rsync and scp; and the one-letter options of each that take a value.
var copiesMode = lazy[map[string]string]{build: func() map[string]string {
	return map[string]string{"cp": "tS", "mv": "tS", "ln": "tS", "link": "", "rsync": "efB", "scp": "cFiloPSJ"}
}}

// writesMayBeExecutable reports whether the files the command name writes,
// given args, may be executable afterwards although no chmod made them so
// (gate66): a copy, move or link of a file that may be executable (cp
// /bin/rm ./t), or over one, a file install writes, or a file setfacl
// gives an entry (u::rwx). Such a file, handed to a command
// the analysis does not model (hyperfine './t c'), may be run by it, as
// one chmod +x made executable is (see handedPrograms).
func (an *analyzer) writesMayBeExecutable(name string, args []word) bool {
	switch name {
	case "setfacl":
		return true
	case "install":
		return true // 0755 unless -m says otherwise; install is opaque besides
	}
	short, ok := copiesMode.get()[name]
	if !ok {
		return false
	}
	var operands []word
	target := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		if t == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			operands = append(operands, a)
			continue
		}
		if strings.HasPrefix(t, "--") {
			opt, _, eq := strings.Cut(t, "=")
			if len(opt) >= len("--t") && strings.HasPrefix("--target-directory", opt) {
				target = true
			}
			if !eq && (opt == "--target-directory" || opt == "--suffix") {
				i++
			}
			continue
		}
		// A cluster of one-letter options: one that takes a value ends
		// it, with the value attached or in the next word.
		for j := 1; j < len(t); j++ {
			if t[j] == 't' && strings.Contains(short, "t") {
				target = true
			}
			if strings.IndexByte(short, t[j]) >= 0 {
				if j == len(t)-1 {
					i++
				}
				break
			}
		}
	}
	if len(operands) == 0 {
		return true // an operand only known when the line runs
	}
	sources := operands
	if !target && len(operands) > 1 {
		sources = operands[:len(operands)-1]
		// A file written over keeps its own mode (cp onto an
		// executable).
		if an.mayBeExecutableFile(operands[len(operands)-1], "", true) {
			return true
		}
	}
	linkDir := ""
	if name == "ln" && !target && len(operands) > 1 {
		// A symbolic link's relative target is taken from the link's
		// directory.
		linkDir = path.Dir(operands[len(operands)-1].text)
	}
	for _, s := range sources {
		if an.mayBeExecutableFile(s, "", false) || linkDir != "" && an.mayBeExecutableFile(s, linkDir, false) {
			return true
		}
	}
	return false
}

// mayBeExecutableFile reports whether the operand w, taken from each
// candidate working directory (and then from the directory under, when
// not empty), may be an executable file when the line runs: a word only
// known then, a remote one (host:path), a directory (whose files may be),
// anything but a regular file, or one with an execute bit; a directory
// whose tree holds one (see treeMayHoldExecutable). A file that
// does not exist may be one the line writes before; with existing, it is
// taken as no executable (a new destination).
func (an *analyzer) mayBeExecutableFile(w word, under string, existing bool) bool {
	if w.dynamic || w.special || w.pattern || w.text == "" {
		return true
	}
	p := w.text
	if !existing && strings.Contains(p, ":") && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, ".") {
		return true // rsync and scp take host:path
	}
	if under != "" && !path.IsAbs(p) {
		p = path.Join(under, p)
	}
	for _, c := range an.a.cwds {
		r := an.resolve(c, p)
		if !path.IsAbs(r) {
			return true // the workdir is unknown
		}
		fi, err := os.Stat(r)
		if err != nil {
			if existing {
				continue
			}
			return true
		}
		if fi.IsDir() {
			if existing {
				continue // the copy goes inside it
			}
			if treeMayHoldExecutable(r) {
				return true
			}
			continue
		}
		if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 != 0 {
			return true
		}
	}
	return false
}

// maxTreeEntries bounds the entries treeMayHoldExecutable looks at.
const maxTreeEntries = 512

// treeMayHoldExecutable reports whether the directory tree at dir holds
// a file that is executable or no regular file (a link), or more entries
// than maxTreeEntries to look at, or one it cannot read.
func treeMayHoldExecutable(dir string) bool {
	n := 0
	found := false
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > maxTreeEntries {
			return fs.SkipAll
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 != 0 {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return err != nil || found || n > maxTreeEntries
}

// markRewrittenExecutables marks as executable each write the line makes
// to a file that is an executable now (echo … > bin/ls, sed -i, dd of=):
// the file keeps its mode, so a command the analysis does not model that
// is handed words after it may run the line's text (see
// handedPrograms).
func (an *analyzer) markRewrittenExecutables() {
	for i, acc := range an.a.accesses {
		if acc.executable || acc.mode != modeWrite || acc.unknown || acc.tree || acc.pattern || acc.dir {
			continue
		}
		for _, c := range an.a.cwds {
			if an.executableNow(an.resolve(c, acc.path)) {
				an.a.accesses[i].executable = true
				break
			}
		}
	}
}

// nameBuilders are the characters of a word from which a program, or the
// shell it runs a command string with, may build a name the word does not
// spell: a placeholder it fills in (hyperfine -P n 1 1 './t{n}', xargs
// -I{}, printf's %s), a pattern the shell expands (./t?), or an
// expansion in a command string that the shell fills in when it runs
// (./t$X, review66d).
const nameBuilders = "{}%*?[$`"

// handedBuiltNames makes the line opaque when a command the analysis does
// not model is given, after the line made a file executable (or anywhere
// in an unordered line), a word from which it may reach that file without
// the word naming it (gate66): a directory that holds it, whose programs
// the command may run all (run-parts DIR), or a word with a placeholder or
// pattern in it (hyperfine -P n 1 1 './t{n} c' ran ./t1). executables
// are the resolved paths of the files the line makes executable.
func (an *analyzer) handedBuiltNames(executables map[string]bool) {
	first := -1
	for i, acc := range an.a.accesses {
		if acc.executable {
			first = i
			break
		}
	}
	if first < 0 {
		return
	}
	budget := maxHandedChecks
	for _, h := range an.handed {
		if !an.unordered && h.from <= first {
			continue
		}
		if strings.ContainsAny(h.path, nameBuilders) {
			an.opaque("the line makes a file executable and then gives " + clipName(h.path) + " to " + clipName(h.prog) +
				", a command the analysis does not model, which may build the file's name from it")
			return
		}
		for _, c := range an.a.cwds {
			q := an.resolve(c, h.path)
			for w := range executables {
				if budget--; budget < 0 {
					an.opaque("the line makes too many files executable and gives too many words to commands the analysis does not model to check")
					return
				}
				if w != q && within(w, q) {
					an.opaque("the line makes a file executable and then gives " + clipName(h.path) + ", a directory that holds it, to " +
						clipName(h.prog) + ", a command the analysis does not model, which may run the programs there")
					return
				}
			}
		}
	}
}
