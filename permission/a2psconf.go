package permission

import (
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// a2ps reads, after the system's and the user's, the settings file
// .a2psrc of the directory it runs in. A cloned repository's, or one an
// earlier call wrote, may give a FileCommand (the program a2ps runs on
// each input to tell its type), a Printer or DefaultPrinter (a command it
// pipes the output to), a Delegation (a program it hands a file to),
// Options (--output=../x, the file it writes) or Include another file.
// Real a2ps removed the canary with FileCommand: rm -f c; file in
// .a2psrc while the gate allowed a2ps -q README -o out.ps (redteam66).
// Nearly every entry names a program or a file, so the gate makes a line
// that runs a2ps opaque when that file, from one of its working
// directories, holds anything but comments and blank lines.

// a2psUnsound says why the text of an .a2psrc may run a program or name a
// file a2ps writes, or "".
func a2psUnsound(text string) string {
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if t := strings.TrimSpace(line); t != "" && t[0] != '#' {
			return "sets " + clip(t) + ", and a2ps's settings name programs it runs and files it writes"
		}
	}
	return ""
}

// a2psConfUnsound says why an a2ps command of the line makes it opaque:
// the .a2psrc of one of its working directories has an entry (see
// a2psUnsound) or cannot be read, or the directory is unknown; ""
// otherwise.
func (g *Gate) a2psConfUnsound(a *shellscan.Analysis) string {
	for _, c := range a.Commands {
		if strings.ToLower(filepath.Base(c.Name)) != "a2ps" {
			continue
		}
		for _, dir := range a.Dirs {
			cwd := g.absTarget(dir, ".")
			if cwd == "" {
				return "a2ps runs in an unknown directory, whose .a2psrc the gate cannot read"
			}
			p := filepath.Join(cwd, ".a2psrc")
			if why := configFileUnsound(p, a2psUnsound); why != "" {
				return "a2ps reads its settings from " + clip(p) + ", which " + why
			}
		}
	}
	return ""
}
