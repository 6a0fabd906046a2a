package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/permission"
)

// How much of a call an approval prompt shows before the answer v shows
// it whole: a value of more than shownHead+shownTail+1 lines shows its
// first shownHead and last shownTail lines, and a line of more than
// shownRunes runes its first shownRunes.
const (
	shownHead  = 40
	shownTail  = 5
	shownRunes = 4000
)

// writeApproval writes the question about req: the tool, why the policy
// asks, and each field of the call's input on lines of its own, escaped
// for the terminal, in the order the model sent them, so that the person
// answering reads the whole call as it will run and not a clipped
// summary. Unless full, a long value shows its head and tail and says how
// much it left out; hidden reports whether anything was.
func writeApproval(w io.Writer, req permission.ApprovalRequest, full bool) (hidden bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "allow %s?", termtext.Line(req.Call.Name))
	switch v := req.Verdict; {
	case v.Reason != "" && v.RuleID != "":
		fmt.Fprintf(&b, " %s (%s)", termtext.Line(v.Reason), termtext.Line(v.RuleID))
	case v.Reason != "":
		fmt.Fprintf(&b, " %s", termtext.Line(v.Reason))
	case v.RuleID != "":
		fmt.Fprintf(&b, " (%s)", termtext.Line(v.RuleID))
	}
	b.WriteByte('\n')
	lines, hidden := inputLines(req.Call.Input, full)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString("[y]es, [n]o, [a]lways this call in this session")
	if hidden {
		b.WriteString(", [v]iew it all")
	}
	b.WriteString(": ")
	io.WriteString(w, b.String())
	return hidden
}

// inputLines returns the lines that show a call's input: "  key: value"
// for each field of an object, a string value of several lines as
// "  key:" followed by its lines, each after "  | ", and anything else as
// one line of compact JSON.
func inputLines(input json.RawMessage, full bool) (lines []string, hidden bool) {
	add := func(l []string, h bool) {
		lines = append(lines, l...)
		hidden = hidden || h
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return valueLines("input", input, full)
	}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		var val json.RawMessage
		if err == nil && ok {
			err = dec.Decode(&val)
		}
		if err != nil || !ok {
			// Not an object after all: show the input as it came.
			return valueLines("input", input, full)
		}
		add(valueLines(key, val, full))
	}
	if _, err := dec.Token(); err != nil {
		return valueLines("input", input, full)
	}
	if _, err := dec.Token(); err != io.EOF {
		return valueLines("input", input, full)
	}
	return lines, hidden
}

// valueLines shows one field.
func valueLines(key string, val json.RawMessage, full bool) ([]string, bool) {
	name := "  " + termtext.Line(key) + ":"
	var s string
	if err := json.Unmarshal(val, &s); err != nil {
		var c bytes.Buffer
		if json.Compact(&c, val) == nil {
			val = c.Bytes()
		}
		l, h := clipRunes(termtext.Line(string(val)), full)
		return []string{name + " " + l}, h
	}
	if s == "" || strings.TrimSpace(s) != s && !strings.Contains(s, "\n") {
		// Quoted, so that an empty value or its blanks are seen.
		return []string{name + ` "` + termtext.Line(s) + `"`}, false
	}
	parts := termtext.Lines(s)
	if len(parts) == 1 {
		l, h := clipRunes(parts[0], full)
		return []string{name + " " + l}, h
	}
	hidden := false
	out := []string{name}
	show := func(p string) {
		l, h := clipRunes(p, full)
		hidden = hidden || h
		out = append(out, "  | "+l)
	}
	if full || len(parts) <= shownHead+shownTail+1 {
		for _, p := range parts {
			show(p)
		}
		return out, hidden
	}
	for _, p := range parts[:shownHead] {
		show(p)
	}
	out = append(out, fmt.Sprintf("  … %d more lines, not shown …", len(parts)-shownHead-shownTail))
	for _, p := range parts[len(parts)-shownTail:] {
		show(p)
	}
	return out, true
}

// clipRunes cuts a line of more than shownRunes runes unless full.
func clipRunes(l string, full bool) (string, bool) {
	if full || len(l) <= shownRunes {
		return l, false
	}
	r := []rune(l)
	if len(r) <= shownRunes {
		return l, false
	}
	return fmt.Sprintf("%s … (%d more characters, not shown)", string(r[:shownRunes]), len(r)-shownRunes), true
}
