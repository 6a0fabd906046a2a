package subagent

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	front "github.com/lite-agent/lite-agent-go/internal/frontmatter"
)

const (
	// MaxFileBytes is the largest agent definition file accepted: 256 KiB.
	MaxFileBytes = 256 << 10

	// MaxNameBytes is the longest agent name accepted.
	MaxNameBytes = 128

	// MaxDescriptionRunes is the longest description kept; a longer one is
	// cut and ends in "…", since every description goes into the system
	// prompt.
	MaxDescriptionRunes = 1024

	// NoDescription is the description of a definition that gives none.
	NoDescription = "No description"

	// GeneralPurposeName is the name of the built-in agent.
	GeneralPurposeName = "general-purpose"
)

// A Source says where a definition came from.
type Source string

// The sources, in load order; a later one overrides an earlier one.
const (
	SourceBuiltin Source = "builtin" // GeneralPurpose
	SourceGlobal  Source = "global"  // <home>/agents
	SourceProject Source = "project" // <workdir>/.<namespace>/agents
	SourceExtra   Source = "extra"   // the host's extra directory
)

// A Definition describes one kind of subagent: its name (the Agent tool's
// subagent_type), what it is for, the tools and model it uses and its
// system prompt.
type Definition struct {
	// Name is the frontmatter's name, or the file name without ".md". It
	// is trimmed and holds no control characters.
	Name string
	// Description is the frontmatter's description on one line, or
	// NoDescription.
	Description string
	// Tools lists the tools the subagent may use, trimmed and without
	// empty names; nil means it inherits the parent's tools.
	Tools []string
	// Model is a tier name of the host's model catalog or a raw model id;
	// "" means the subagent inherits the parent's active model.
	Model string
	// Prompt is the Markdown body after the frontmatter, trimmed; it
	// follows the fixed subagent preamble in the child's system prompt
	// (see [SystemPrompt]).
	Prompt string
	// Path is the file the definition came from; "" for the built-in.
	Path string
	// Source says which directory the definition came from.
	Source Source
}

// GeneralPurpose returns the built-in general-purpose definition. It names
// no tools and no model, so a general-purpose subagent inherits both from
// its parent. A file defining an agent named "general-purpose" replaces it.
func GeneralPurpose() Definition {
	return Definition{
		Name:        GeneralPurposeName,
		Description: "General-purpose agent for research, multi-step tasks and code changes that can be done without further questions.",
		Prompt: "Complete the task you are given autonomously, using the tools available to you; nobody can answer questions while you work. " +
			"When you are done, return a concise final answer with what you found or changed, and state the assumptions you made.",
		Source: SourceBuiltin,
	}
}

// An Error reports an agent definition file or directory that cannot be
// used, naming its path.
type Error struct {
	// Path is the file or directory.
	Path string
	// Detail says what is wrong.
	Detail string
	// Err is the underlying I/O error, if any.
	Err error
}

// Error names the definition file and what is wrong with it.
func (e *Error) Error() string { return "invalid agent definition " + e.Path + ": " + e.Detail }

// Unwrap returns the underlying I/O error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Parse decodes the agent definition file at path from data. The path
// gives the default name (the file name without ".md") and Path; nothing
// is read from disk. Source is left empty.
//
// ok is false, with a nil error, for a file whose frontmatter has no keys
// or that has no frontmatter at all (such as a README): it defines no
// agent and is skipped. So is a file whose first line "---" has no closing
// one, or whose frontmatter is YAML but not a mapping (prose between two
// Markdown rules), unless a line of it sets name, description, tools or
// model: that is a broken definition, and an error.
//
// A file that starts with a line "---" has YAML frontmatter up to the next
// line "---"; the rest is the body. A byte order mark and CRLF line ends
// are accepted. A mapping must not repeat a key; name, description and
// model are scalars, tools a list of scalars or one comma-separated
// string, and other keys are ignored. Errors are *[Error] naming path.
func Parse(path string, data []byte) (def Definition, ok bool, err error) {
	fail := func(format string, args ...any) (Definition, bool, error) {
		return Definition{}, false, &Error{Path: path, Detail: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxFileBytes {
		return fail("larger than %d bytes", MaxFileBytes)
	}
	if !utf8.Valid(data) {
		return fail("not valid UTF-8")
	}
	// Every .md file of an agents directory is a candidate, READMEs
	// included: one that opens with a thematic break ("---") and has no
	// second one, or whose "frontmatter" is prose rather than a mapping,
	// has no keys and defines no agent. Unless it
	// names a definition's field: then it is a broken definition, and
	// skipping it would let another of the same name (with other tools)
	// stand in for it.
	head, body, err := front.Split(data)
	if errors.Is(err, front.ErrUnclosed) && !namesAField(data) {
		return Definition{}, false, nil
	}
	if err != nil {
		return fail("%v", err)
	}
	fm, err := parseFrontmatter(head)
	if errors.Is(err, front.ErrNotMapping) && !namesAField(head) {
		return Definition{}, false, nil
	}
	if err != nil {
		return fail("frontmatter: %v", err)
	}
	if fm.keys == 0 {
		return Definition{}, false, nil
	}
	name := strings.TrimSuffix(filepath.Base(path), ".md")
	if fm.name != nil {
		name = *fm.name
	}
	def = Definition{
		Name:        strings.TrimSpace(name),
		Description: front.OneLine(fm.description),
		Tools:       fm.tools,
		Model:       strings.TrimSpace(fm.model),
		Prompt:      strings.TrimSpace(string(body)),
		Path:        path,
	}
	if err := front.ValidName(def.Name, MaxNameBytes); err != nil {
		return fail("%v", err)
	}
	if strings.ContainsFunc(def.Model, unicode.IsControl) {
		return fail("the model contains a control character")
	}
	if def.Description == "" {
		def.Description = NoDescription
	}
	if utf8.RuneCountInString(def.Description) > MaxDescriptionRunes {
		def.Description = string([]rune(def.Description)[:MaxDescriptionRunes-1]) + "…"
	}
	return def, true, nil
}

// fieldLine matches text that sets a definition's field: a key, in any
// case and quoted or not, at the start of a line (after a list dash, a '{'
// or a '?'), or after a ',' or '{' in flow style, followed by ':' (on the
// same line, or the next for an explicit "? key"). It is compiled on first
// use, not at every start of a program that links this package.
var fieldLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?mi)(?:^[\t ]*(?:[-{?][\t ]*)?|[{,][\t ]*)["']?(?:name|description|tools|model)["']?[\t ]*(?::|\n[\t ]*:)`)
})

// namesAField reports whether text has a line that sets a definition's
// field.
func namesAField(text []byte) bool { return fieldLine().Match(text) }

// frontmatter holds the fields a definition uses; keys counts every key,
// used or not.
type frontmatter struct {
	keys        int
	name        *string
	description string
	tools       []string
	model       string
}

// parseFrontmatter decodes the YAML of a frontmatter block.
func parseFrontmatter(src []byte) (frontmatter, error) {
	var fm frontmatter
	keys, err := front.Fields(src, func(key string, v *yaml.Node) error {
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
		case "model":
			s, _, err := front.Scalar(v)
			if err != nil {
				return fmt.Errorf("line %d: model %v", v.Line, err)
			}
			fm.model = s
		case "tools":
			tools, err := toolList(v)
			if err != nil {
				return err
			}
			fm.tools = tools
		}
		return nil
	})
	fm.keys = keys
	return fm, err
}

// toolList decodes tools: a list of names or one comma-separated string.
// Names are trimmed and empty ones dropped; no names gives nil.
func toolList(v *yaml.Node) ([]string, error) {
	var raw []string
	if v.Kind == yaml.SequenceNode {
		for _, item := range v.Content {
			s, ok, err := front.Scalar(front.Resolve(item))
			if err != nil {
				return nil, fmt.Errorf("line %d: tools %v", item.Line, err)
			}
			if ok {
				raw = append(raw, s)
			}
		}
	} else {
		s, _, err := front.Scalar(v)
		if err != nil {
			return nil, fmt.Errorf("line %d: tools must be a string or a list of strings", v.Line)
		}
		raw = strings.Split(s, ",")
	}
	var tools []string
	for _, t := range raw {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		if strings.ContainsFunc(t, unicode.IsControl) {
			return nil, fmt.Errorf("line %d: tool name %q contains a control character", v.Line, t)
		}
		tools = append(tools, t)
	}
	return tools, nil
}
