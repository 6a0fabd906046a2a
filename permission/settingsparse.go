package permission

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// The YAML and JSON settings files of projectpaths.go are also read by a
// parser, as the tools read them, besides key by key: round redteam124
// found keys the pattern did not see that real mkdocs, jekyll, rubocop,
// hugo, golangci-lint, cspell, cmake and jest read, each making the tool
// write ../home while the gate allowed the line. In YAML an explicit key
// (? site_dir, then : ../home/x on the next line), a double-quoted key or
// value continued on the next line with a backslash, a value on the line
// after a comment; in JSON a newline or a comment between a key and its
// colon. A file that is not UTF-8 (PyYAML reads UTF-16 too) or holds a
// line break of Unicode's (PyYAML ends a line at U+0085, U+2028, U+2029)
// asks, and so does a YAML or JSON file the parser cannot read. What the
// parser finds adds to what the pattern finds: a line asks when either
// does.
//
// Round redteam125 found the same in TOML, which the pattern alone still
// read, and real pytest and hugo wrote ../home by it while the gate
// allowed the line: a comment holding "]" inside a multi-line array ended
// the array for the pattern, an escaped quote (\") ended a string, and an
// unquoted value of an inline table took the keys after it. TOML is now
// parsed too (BurntSushi's toml, TOML 1.0 as Python's tomllib and hugo
// read it), and a TOML file the parser cannot read asks.

// settingsEntry is a key of a settings file, at any depth, and the
// strings its value holds directly: a string, or the strings of a list.
type settingsEntry struct {
	key    string
	values []string
	tagged bool // a YAML value with a tag of the document's own (!ENV)
}

// settingsTextForm says why text is not plain UTF-8 text that every
// reader splits into the same lines, or "".
func settingsTextForm(text string) string {
	if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		return "is not UTF-8 text (YAML readers take UTF-16 too), which the gate does not read"
	}
	if strings.ContainsAny(text, "\u0085\u2028\u2029") {
		return "has a Unicode line break, which some readers take for the end of a line"
	}
	if strings.ContainsRune(strings.TrimPrefix(text, "\ufeff"), '\ufeff') {
		return "has a byte order mark inside, where a YAML document may start"
	}
	return ""
}

// settingsParsed reads the entries of a settings file: JSON when base ends
// in .json or .jsonc (with the comments and trailing commas that tsc,
// cspell and cmake take), TOML when it ends in .toml, YAML when yaml is
// set. ok is false for any other file; why says why a JSON, TOML or YAML
// file cannot be read.
func settingsParsed(base, text string, yaml bool) (entries []settingsEntry, why string, ok bool) {
	var err error
	switch {
	case yaml:
		entries, err = yamlEntries(text)
		if err != nil {
			return nil, "cannot be read as YAML (" + clip(err.Error()) + ")", true
		}
	case strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".jsonc"):
		entries, err = jsonEntries(jsonPlain(text))
		if err != nil {
			return nil, "cannot be read as JSON (" + clip(err.Error()) + ")", true
		}
	case strings.HasSuffix(base, ".toml"):
		entries, err = tomlEntries(text)
		if err != nil {
			return nil, "cannot be read as TOML (" + clip(err.Error()) + ")", true
		}
	default:
		return nil, "", false
	}
	return entries, "", true
}

// tomlEntries reads the entries of a TOML text: each key of each table,
// inline table and array of tables (see treeWalk).
func tomlEntries(text string) ([]settingsEntry, error) {
	var doc map[string]any
	if _, err := toml.Decode(text, &doc); err != nil {
		return nil, err
	}
	return treeWalk(doc, nil), nil
}

// errYAMLKey is a YAML key that is not a scalar (a list or a mapping).
var errYAMLKey = errors.New("a key that is not a scalar")

// errYAMLKeyTag is a YAML key with a tag other than the core schema's
// scalars: a reader may make another key of it (!binary decodes base64).
var errYAMLKeyTag = errors.New("a key with a tag of its own")

// yamlKeyTag reports whether a YAML key may have tag, resolved or given:
// the core schema's scalars.
func yamlKeyTag(tag string) bool {
	switch tag {
	case "!!str", "!!int", "!!bool", "!!float", "!!null", "!!timestamp":
		return true
	}
	return false
}

// yamlEntries reads the entries of every document of a YAML text.
func yamlEntries(text string) ([]settingsEntry, error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	var out []settingsEntry
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if out, err = yamlWalk(&doc, out); err != nil {
			return nil, err
		}
	}
}

// yamlWalk appends the entries of the mappings in n, at any depth.
func yamlWalk(n *yaml.Node, out []settingsEntry) ([]settingsEntry, error) {
	var err error
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			if out, err = yamlWalk(c, out); err != nil {
				return nil, err
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return nil, errYAMLKey
			}
			if !yamlKeyTag(k.ShortTag()) {
				// Psych reads "? !binary ZGVzdGluYXRpb24=" as the
				// key destination (round redteam125).
				return nil, errYAMLKeyTag
			}
			e := settingsEntry{key: k.Value}
			e.values, e.tagged = yamlStrings(v, nil, false)
			out = append(out, e)
			if out, err = yamlWalk(v, out); err != nil {
				return nil, err
			}
		}
	case yaml.AliasNode:
		return nil, errors.New("an alias")
	}
	return out, nil
}

// yamlStrings appends the strings n holds directly (a scalar, or the
// scalars of a list, at any depth of lists) to out, and reports whether
// any of them has a tag of the document's own rather than YAML's.
func yamlStrings(n *yaml.Node, out []string, tagged bool) ([]string, bool) {
	if n.Tag != "" && !strings.HasPrefix(n.Tag, "!!") {
		tagged = true
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!null" {
			out = append(out, n.Value)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			out, tagged = yamlStrings(c, out, tagged)
		}
	}
	return out, tagged
}

// jsonEntries reads the entries of a JSON text (see treeWalk; of keys
// given twice, the last, as JSON.parse keeps it).
func jsonEntries(data []byte) ([]settingsEntry, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return treeWalk(v, nil), nil
}

// treeWalk appends the entries of the objects in v, a decoded JSON or
// TOML document, at any depth: the keys of each object in order of their
// names (the same first key found on every run), with the strings each
// value holds directly (treeStrings).
func treeWalk(v any, out []settingsEntry) []settingsEntry {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, settingsEntry{key: k, values: treeStrings(v[k], nil)})
			out = treeWalk(v[k], out)
		}
	case []map[string]any: // TOML's arrays of tables
		for _, t := range v {
			out = treeWalk(t, out)
		}
	case []any:
		for _, c := range v {
			out = treeWalk(c, out)
		}
	}
	return out
}

// treeStrings appends the strings v holds directly (a string, or the
// strings of an array, at any depth of arrays) to out.
func treeStrings(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, c := range v {
			out = treeStrings(c, out)
		}
	}
	return out
}

// jsonPlain returns text without the comments (// and /* */) and the
// trailing commas of JSON with comments, outside strings; what it cannot
// end (an open comment or string) it leaves for the parser to refuse.
func jsonPlain(text string) []byte {
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(text))
			out = append(out, text[i:j]...)
			i = j - 1
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return append(out, text[i:]...)
			}
			out = append(out, ' ')
			i += 2 + end + 1
		default:
			out = append(out, c)
		}
	}
	// Trailing commas, now that no comment stands between.
	plain := out[:0:0]
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString:
			if c == '\\' && i+1 < len(out) {
				plain = append(plain, c, out[i+1])
				i++
				continue
			}
			inString = c != '"'
		case c == '"':
			inString = true
		case c == ',':
			rest := bytes.TrimLeft(out[i+1:], " \t\r\n")
			if len(rest) > 0 && (rest[0] == '}' || rest[0] == ']') {
				continue
			}
		}
		plain = append(plain, c)
	}
	return plain
}
