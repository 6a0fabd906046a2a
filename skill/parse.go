package skill

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	front "github.com/lite-agent/lite-agent-go/internal/frontmatter"
)

const (
	// FileName is the name of a skill file.
	FileName = "SKILL.md"

	// MaxFileBytes is the largest SKILL.md accepted: 256 KiB.
	MaxFileBytes = 256 << 10

	// MaxNameBytes is the longest skill name accepted.
	MaxNameBytes = 128

	// MaxDescriptionRunes is the longest description kept; a longer one is
	// cut and ends in "…", since every description goes into the system
	// prompt.
	MaxDescriptionRunes = 1024

	// NoDescription is the description of a skill that gives none.
	NoDescription = "No description"
)

// A Source says which directory a skill came from.
type Source string

// The sources, in load order; a later one overrides an earlier one.
const (
	SourceGlobal  Source = "global"  // <home>/skills
	SourceProject Source = "project" // <workdir>/.<namespace>/skills
	SourceExtra   Source = "extra"   // the host's extra directory
)

// A Skill is one SKILL.md file: instructions the model loads by name.
type Skill struct {
	// Name is the frontmatter's name, or the name of the file's directory.
	// It is trimmed and holds no control characters.
	Name string
	// Description is the frontmatter's description on one line (runs of
	// white space become one space), or NoDescription.
	Description string
	// Tags are the frontmatter's tags: one string, or each element of a
	// list, trimmed and without empty ones.
	Tags []string
	// Body is the Markdown after the frontmatter, trimmed.
	Body string
	// Path is the SKILL.md file; Dir is its directory.
	Path, Dir string
	// Source is the directory the skill came from.
	Source Source
}

// An Error reports a skill file or directory that cannot be used, naming
// its path.
type Error struct {
	// Path is the file or directory.
	Path string
	// Detail says what is wrong.
	Detail string
	// Err is the underlying I/O error, if any.
	Err error
}

// Error names the skill file and what is wrong with it.
func (e *Error) Error() string { return "invalid skill " + e.Path + ": " + e.Detail }

// Unwrap returns the underlying I/O error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Parse decodes the contents of the SKILL.md file at path. The path gives
// the default name (the name of its directory) and Path and Dir; nothing is
// read from disk. Source is left empty.
//
// A file that starts with a line "---" has YAML frontmatter up to the next
// line "---"; the rest is the body. A file without that first line is all
// body. A byte order mark and CRLF line ends are accepted. The frontmatter
// must be a YAML mapping without duplicate keys; name and description are
// scalars, tags a scalar or a list of scalars, and other keys are ignored.
// Errors are *[Error] naming path.
func Parse(path string, data []byte) (Skill, error) {
	fail := func(format string, args ...any) (Skill, error) {
		return Skill{}, &Error{Path: path, Detail: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxFileBytes {
		return fail("larger than %d bytes", MaxFileBytes)
	}
	if !utf8.Valid(data) {
		return fail("not valid UTF-8")
	}
	head, body, err := front.Split(data)
	if err != nil {
		return fail("%v", err)
	}
	dir := filepath.Dir(path)
	s := Skill{Path: path, Dir: dir, Body: strings.TrimSpace(string(body))}
	fields, err := parseFrontmatter(head)
	if err != nil {
		return fail("frontmatter: %v", err)
	}
	name := filepath.Base(dir)
	if fields.name != nil {
		name = *fields.name
	}
	s.Name = strings.TrimSpace(name)
	if err := front.ValidName(s.Name, MaxNameBytes); err != nil {
		return fail("%v", err)
	}
	s.Description = front.OneLine(fields.description)
	if s.Description == "" {
		s.Description = NoDescription
	}
	if n := utf8.RuneCountInString(s.Description); n > MaxDescriptionRunes {
		s.Description = string([]rune(s.Description)[:MaxDescriptionRunes-1]) + "…"
	}
	for _, t := range fields.tags {
		if t = front.OneLine(t); t != "" {
			s.Tags = append(s.Tags, t)
		}
	}
	return s, nil
}

// frontmatter holds the fields a skill uses; nil means absent.
type frontmatter struct {
	name        *string
	description string
	tags        []string
}

// parseFrontmatter decodes the YAML of a frontmatter block.
func parseFrontmatter(src []byte) (frontmatter, error) {
	var fm frontmatter
	_, err := front.Fields(src, func(key string, v *yaml.Node) error {
		switch key {
		case "name":
			s, ok, err := front.Scalar(v)
			if err != nil {
				return fmt.Errorf("line %d: name %v", v.Line, err)
			}
			if ok {
				fm.name = &s
			}
		case "description":
			s, _, err := front.Scalar(v)
			if err != nil {
				return fmt.Errorf("line %d: description %v", v.Line, err)
			}
			fm.description = s
		case "tags":
			if v.Kind == yaml.SequenceNode {
				for _, item := range v.Content {
					s, ok, err := front.Scalar(front.Resolve(item))
					if err != nil {
						return fmt.Errorf("line %d: tags %v", item.Line, err)
					}
					if ok {
						fm.tags = append(fm.tags, s)
					}
				}
				return nil
			}
			s, ok, err := front.Scalar(v)
			if err != nil {
				return fmt.Errorf("line %d: tags must be a string or a list of strings", v.Line)
			}
			if ok {
				fm.tags = []string{s}
			}
		}
		return nil
	})
	return fm, err
}
