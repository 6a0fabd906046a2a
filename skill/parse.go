package skill

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
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
	front, body, err := splitFrontmatter(data)
	if err != nil {
		return fail("%v", err)
	}
	dir := filepath.Dir(path)
	s := Skill{Path: path, Dir: dir, Body: strings.TrimSpace(string(body))}
	fields, err := parseFrontmatter(front)
	if err != nil {
		return fail("frontmatter: %v", err)
	}
	name := filepath.Base(dir)
	if fields.name != nil {
		name = *fields.name
	}
	s.Name = strings.TrimSpace(name)
	if err := validName(s.Name); err != nil {
		return fail("%v", err)
	}
	s.Description = oneLine(fields.description)
	if s.Description == "" {
		s.Description = NoDescription
	}
	if n := utf8.RuneCountInString(s.Description); n > MaxDescriptionRunes {
		s.Description = string([]rune(s.Description)[:MaxDescriptionRunes-1]) + "…"
	}
	for _, t := range fields.tags {
		if t = oneLine(t); t != "" {
			s.Tags = append(s.Tags, t)
		}
	}
	return s, nil
}

// splitFrontmatter returns the YAML between a first line "---" and the next
// line "---", and the body after it. Without a first line "---" the whole
// document is body.
func splitFrontmatter(data []byte) (front, body []byte, err error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if !isDelimiter(first) {
		return nil, data, nil
	}
	for off := 0; off <= len(rest); {
		line, _, _ := bytes.Cut(rest[off:], []byte("\n"))
		if isDelimiter(line) {
			end := off + len(line)
			if end < len(rest) {
				end++ // the newline
			}
			return rest[:off], rest[end:], nil
		}
		off += len(line) + 1
	}
	return nil, nil, errors.New("frontmatter has no closing --- line")
}

func isDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t")) == "---"
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
	if len(bytes.TrimSpace(src)) == 0 {
		return fm, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return fm, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return fm, nil // only comments
	}
	root := resolve(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return fm, nil
	}
	if root.Kind != yaml.MappingNode {
		return fm, errors.New("must be a mapping of keys to values")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := resolve(root.Content[i]), resolve(root.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return fm, fmt.Errorf("line %d: keys must be scalars", k.Line)
		}
		if seen[k.Value] {
			return fm, fmt.Errorf("line %d: duplicate key %q", k.Line, k.Value)
		}
		seen[k.Value] = true
		switch k.Value {
		case "name":
			s, ok, err := scalar(v)
			if err != nil {
				return fm, fmt.Errorf("line %d: name %v", v.Line, err)
			}
			if ok {
				fm.name = &s
			}
		case "description":
			s, _, err := scalar(v)
			if err != nil {
				return fm, fmt.Errorf("line %d: description %v", v.Line, err)
			}
			fm.description = s
		case "tags":
			if v.Kind == yaml.SequenceNode {
				for _, item := range v.Content {
					s, ok, err := scalar(resolve(item))
					if err != nil {
						return fm, fmt.Errorf("line %d: tags %v", item.Line, err)
					}
					if ok {
						fm.tags = append(fm.tags, s)
					}
				}
				continue
			}
			s, ok, err := scalar(v)
			if err != nil {
				return fm, fmt.Errorf("line %d: tags must be a string or a list of strings", v.Line)
			}
			if ok {
				fm.tags = []string{s}
			}
		}
	}
	return fm, nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// scalar returns the text of a scalar node; ok is false for null.
func scalar(n *yaml.Node) (s string, ok bool, err error) {
	if n.Kind != yaml.ScalarNode {
		return "", false, errors.New("must be a string")
	}
	if n.Tag == "!!null" {
		return "", false, nil
	}
	return n.Value, true, nil
}

// validName checks a trimmed skill name.
func validName(name string) error {
	switch {
	case name == "":
		return errors.New("the name is empty")
	case len(name) > MaxNameBytes:
		return fmt.Errorf("the name is longer than %d bytes", MaxNameBytes)
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return errors.New("the name contains a control character or line break")
		}
	}
	return nil
}

// oneLine trims s, turns every run of white space into one space and drops
// other control characters, so that s fits on one line of the prompt.
func oneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		switch {
		case unicode.IsSpace(r) || r == '\u2028' || r == '\u2029':
			space = true
		case unicode.IsControl(r):
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		}
	}
	return b.String()
}
