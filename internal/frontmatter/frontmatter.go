// Package frontmatter holds what the skill and subagent loaders share:
// splitting a Markdown file into YAML frontmatter and body, decoding the
// frontmatter as a strict mapping, cleaning names and descriptions for the
// system prompt, and walking a directory of such files without following
// links inside it.
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// ErrUnclosed is the error of Split for a document whose first line is
// "---" and that has no second such line.
var ErrUnclosed = errors.New("frontmatter has no closing --- line")

// ErrNotMapping is the error of Fields for YAML that is not a mapping.
var ErrNotMapping = errors.New("must be a mapping of keys to values")

// Split returns the YAML between a first line "---" and the next line
// "---", and the body after it. Without a first line "---" the whole
// document is body. A leading byte order mark is dropped and CRLF line
// ends become LF; a delimiter line may end in spaces or tabs.
func Split(data []byte) (front, body []byte, err error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if !isDelimiter(first) {
		return nil, data, nil
	}
	for off := 0; off <= len(rest); {
		line, _, _ := bytes.Cut(rest[off:], []byte("\n"))
		if isDelimiter(line) {
			end := min(off+len(line)+1, len(rest))
			return rest[:off], rest[end:], nil
		}
		off += len(line) + 1
	}
	return nil, nil, ErrUnclosed
}

func isDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t")) == "---"
}

// Fields decodes the YAML of a frontmatter block and calls field for each
// key of its top-level mapping, in order, with aliases resolved; an error
// from field stops the decoding and is returned as is. Empty input, only
// comments or a null document have no keys. The document must be a
// mapping whose keys are scalars, each once. keys counts the keys seen.
// Errors name lines, and a YAML syntax error loses its "yaml: " prefix.
func Fields(src []byte, field func(key string, value *yaml.Node) error) (keys int, err error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return 0, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return 0, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return 0, nil // only comments
	}
	root := Resolve(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return 0, nil
	}
	if root.Kind != yaml.MappingNode {
		return 0, ErrNotMapping
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := Resolve(root.Content[i]), Resolve(root.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return keys, fmt.Errorf("line %d: keys must be scalars", k.Line)
		}
		if seen[k.Value] {
			return keys, fmt.Errorf("line %d: duplicate key %q", k.Line, k.Value)
		}
		seen[k.Value] = true
		keys++
		if err := field(k.Value, v); err != nil {
			return keys, err
		}
	}
	return keys, nil
}

// Resolve follows an alias to the node it names.
func Resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// Scalar returns the text of a scalar node; ok is false for null, and a
// node that is not a scalar is the error "must be a string".
func Scalar(n *yaml.Node) (s string, ok bool, err error) {
	if n.Kind != yaml.ScalarNode {
		return "", false, errors.New("must be a string")
	}
	if n.Tag == "!!null" {
		return "", false, nil
	}
	return n.Value, true, nil
}

// ValidName checks a trimmed name: not empty, at most maxBytes long, and
// without control characters or line breaks.
func ValidName(name string, maxBytes int) error {
	switch {
	case name == "":
		return errors.New("the name is empty")
	case len(name) > maxBytes:
		return fmt.Errorf("the name is longer than %d bytes", maxBytes)
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return errors.New("the name contains a control character or line break")
		}
	}
	return nil
}

// OneLine trims s, turns every run of white space into one space and drops
// other control characters, so that s fits on one line of the prompt.
func OneLine(s string) string {
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
