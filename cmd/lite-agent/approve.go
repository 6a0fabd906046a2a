package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/permission"
)

// A screen is the size of the terminal an approval is asked on.
type screen struct{ cols, rows int }

// defaultScreen is the size assumed when the terminal does not say.
var defaultScreen = screen{cols: 80, rows: 24}

// screenOf returns the size of the terminal w writes to.
func screenOf(w io.Writer) screen {
	if f, ok := w.(*os.File); ok {
		if c, r, err := term.GetSize(int(f.Fd())); err == nil && c >= 20 && r >= 10 {
			return screen{cols: c, rows: r}
		}
	}
	return defaultScreen
}

// Collapsed in the first view of an approval: runs of at least
// blankRun lines holding only spaces, and of at least spaceRun spaces.
const (
	blankRun = 5
	spaceRun = 24
)

// maxHeaderRows bounds the rows of the question's first line, the tool and
// the policy's reason, in its first view.
const maxHeaderRows = 3

// writeApproval writes the question about req: the tool, why the policy
// asks, and each field of the call's input on lines of its own, escaped
// for the terminal (termtext.Exact), in the order the model sent them, so
// that the person answering reads the call as it will run and not a
// clipped summary. Unless full, the question fits scr: long runs of blank
// lines and of spaces are shortened, and a call that still does not fit
// shows its start and its end and says that the rest is not shown; hidden
// reports whether anything was, and the question then offers v.
func writeApproval(w io.Writer, req permission.ApprovalRequest, full bool, scr screen) (hidden bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "allow %s?", identifier(req.Call.Name))
	switch v := req.Verdict; {
	case v.Reason != "" && v.RuleID != "" && v.Reason != v.RuleID:
		fmt.Fprintf(&b, " %s (%s)", termtext.Exact.Line(v.Reason), termtext.Exact.Line(v.RuleID))
	case v.Reason != "":
		fmt.Fprintf(&b, " %s", termtext.Exact.Line(v.Reason))
	case v.RuleID != "":
		fmt.Fprintf(&b, " (%s)", termtext.Exact.Line(v.RuleID))
	}
	header := b.String()
	if !full && rowsOf(header, scr.cols) > maxHeaderRows {
		// A reason quoting a long path would push the tool's name off.
		header = cutWidth(header, maxHeaderRows*scr.cols-4) + " …"
		hidden = true
	}
	b.Reset()
	b.WriteString(header)
	b.WriteByte('\n')
	c := &collapser{on: !full}
	lines := c.inputLines(req.Call.Input)
	if !full {
		var cut bool
		lines, cut = fit(lines, scr, scr.rows-rowsOf(header, scr.cols)-2)
		hidden = hidden || cut || c.collapsed
	}
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

// identifier shows a tool name or a field's key: every character but
// printable ASCII escaped, so that a look-alike letter (a Cyrillic "ѕ" in
// "ѕql") is seen.
func identifier(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e || s[i] == '\\' || s[i] == '"' {
			q := strconv.QuoteToASCII(s)
			return q[1 : len(q)-1]
		}
	}
	return s
}

// A collapser shortens, when on, long runs of blank lines and of spaces,
// each saying how long it was, and records whether it did.
type collapser struct{ on, collapsed bool }

// inputLines returns the lines that show a call's input: "  key: value"
// for each field of an object, a string value of several lines as
// "  key:" followed by its lines, each after "  | ", and anything else as
// one line of JSON.
func (c *collapser) inputLines(input json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(input))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return c.valueLines("input", input)
	}
	var lines []string
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		var val json.RawMessage
		if err == nil && ok {
			err = dec.Decode(&val)
		}
		if err != nil || !ok {
			// Not an object after all: show the input as it came.
			return c.valueLines("input", input)
		}
		lines = append(lines, c.valueLines(key, val)...)
	}
	if _, err := dec.Token(); err != nil {
		return c.valueLines("input", input)
	}
	if _, err := dec.Token(); err != io.EOF {
		return c.valueLines("input", input)
	}
	return lines
}

// valueLines shows one field.
func (c *collapser) valueLines(key string, val json.RawMessage) []string {
	name := "  " + identifier(key) + ":"
	val = bytes.TrimSpace(val)
	var s string
	if len(val) == 0 || val[0] != '"' || json.Unmarshal(val, &s) != nil {
		return []string{name + " " + c.shorten(termtext.Exact.Line(jsonText(val)))}
	}
	if s == "" || !strings.Contains(s, "\n") && strings.TrimSpace(s) != s {
		// Quoted, so that an empty value or its blanks are seen.
		return []string{name + " " + c.shorten(termtext.Exact.Quote(s))}
	}
	parts := termtext.Exact.Lines(s)
	if len(parts) == 1 {
		return []string{name + " " + c.shorten(parts[0])}
	}
	out := []string{name}
	for i := 0; i < len(parts); i++ {
		if c.on {
			j := i
			for j < len(parts) && strings.TrimLeft(parts[j], " ") == "" {
				j++
			}
			if j-i >= blankRun {
				out = append(out, fmt.Sprintf("  | … %d blank lines …", j-i))
				c.collapsed = true
				i = j - 1
				continue
			}
		}
		out = append(out, "  | "+c.shorten(parts[i]))
	}
	return out
}

// jsonText returns a JSON value that is not a string as compact JSON, its
// strings' escapes decoded (so that "\u0072\u006d" shows as "rm") and its
// numbers as they were written; invalid JSON as it came.
func jsonText(val json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(val))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(val)
	}
	if _, err := dec.Token(); err != io.EOF {
		return string(val) // more after the value
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return string(val)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// shorten writes, when on, each run of spaceRun or more spaces in l as
// one "… N spaces …".
func (c *collapser) shorten(l string) string {
	if !c.on || !strings.Contains(l, strings.Repeat(" ", spaceRun)) {
		return l
	}
	c.collapsed = true
	var b strings.Builder
	for l != "" {
		i := strings.Index(l, strings.Repeat(" ", spaceRun))
		if i < 0 {
			b.WriteString(l)
			break
		}
		b.WriteString(l[:i])
		n := len(l[i:]) - len(strings.TrimLeft(l[i:], " "))
		fmt.Fprintf(&b, " … %d spaces … ", n)
		l = l[i+n:]
	}
	return b.String()
}

// rowsOf returns how many rows l takes on a terminal cols wide.
func rowsOf(l string, cols int) int {
	return max(1, (termtext.Width(l)+cols-1)/cols)
}

// fit returns lines cut to at most avail rows of scr (at least 8): all
// of them when they fit, and otherwise their start, a line saying that
// the rest is not shown, and their end, a line too long cut where the
// rows end.
func fit(lines []string, scr screen, avail int) ([]string, bool) {
	avail = max(avail, 8)
	total := 0
	for _, l := range lines {
		total += rowsOf(l, scr.cols)
	}
	if total <= avail {
		return lines, false
	}
	tailRows := min(6, avail/3)
	headRows := avail - tailRows - 1
	var head []string
	i, cut := 0, -1
	for ; i < len(lines) && headRows > 0; i++ {
		r := rowsOf(lines[i], scr.cols)
		if r > headRows {
			// Its start here, its end below if the tail comes to it.
			head = append(head, cutWidth(lines[i], headRows*scr.cols-4)+" …")
			cut = i
			break
		}
		head = append(head, lines[i])
		headRows -= r
	}
	var tail []string
	for j := len(lines) - 1; j >= i && tailRows > 0; j-- {
		r := rowsOf(lines[j], scr.cols)
		if r > tailRows || j == cut {
			tail = append(tail, "… "+cutWidthEnd(lines[j], tailRows*scr.cols-4))
			break
		}
		tail = append(tail, lines[j])
		tailRows -= r
	}
	out := append(head, "  … part of the call is not shown: answer v to see it all …")
	for k := len(tail) - 1; k >= 0; k-- {
		out = append(out, tail[k])
	}
	return out, true
}

// cutWidth returns the start of l at most w columns wide.
func cutWidth(l string, w int) string {
	used := 0
	for i, r := range l {
		used += termtext.Width(string(r))
		if used > w {
			return l[:i]
		}
	}
	return l
}

// cutWidthEnd returns the end of l at most w columns wide.
func cutWidthEnd(l string, w int) string {
	used := 0
	for i := len(l); i > 0; {
		r, n := utf8.DecodeLastRuneInString(l[:i])
		used += termtext.Width(string(r))
		if used > w {
			return l[i:]
		}
		i -= n
	}
	return l
}
