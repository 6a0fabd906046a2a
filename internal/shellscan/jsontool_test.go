package shellscan

import "testing"

// TestJSONTool checks how the words after python3 -m json.tool are parsed:
// the input and output operands in every form argparse takes, and the
// forms left to the treatment of a program the analysis does not model.
func TestJSONTool(t *testing.T) {
	for _, c := range []struct {
		module  string
		words   []string
		in, out string
		ok      bool
	}{
		{"json.tool", nil, "", "", true},
		{"json.tool", []string{"a.json"}, "a.json", "", true},
		{"json", []string{"a.json", "b.json"}, "a.json", "b.json", true},
		{"json.tool", []string{"-", "b.json"}, "", "b.json", true},
		{"json.tool", []string{"--indent", "2", "a.json"}, "a.json", "", true},
		{"json.tool", []string{"--indent", "-1", "a.json", "b.json"}, "a.json", "b.json", true},
		{"json.tool", []string{"--ind=2", "--sort", "a.json"}, "a.json", "", true},
		{"json.tool", []string{"a.json", "--compact", "b.json"}, "a.json", "b.json", true},
		{"json.tool", []string{"--", "-x", "b.json"}, "-x", "b.json", true},
		{"json.tool", []string{"-h"}, "", "", true},
		// Ambiguous (--no-ensure-ascii, --no-indent), unknown, a value
		// for a flag, a third operand, another module.
		{"json.tool", []string{"--no", "a.json", "b.json"}, "", "", false},
		{"json.tool", []string{"--bogus", "a.json", "b.json"}, "", "", false},
		{"json.tool", []string{"--tab=x", "a.json"}, "", "", false},
		{"json.tool", []string{"-o", "a.json"}, "", "", false},
		{"json.tool", []string{"a.json", "b.json", "c.json"}, "", "", false},
		{"json.decoder", []string{"a.json"}, "", "", false},
	} {
		ws := make([]word, len(c.words))
		for i, s := range c.words {
			ws[i] = word{text: s}
		}
		in, out, ok := jsonTool(c.module, ws)
		text := func(w *word) string {
			if w == nil {
				return ""
			}
			return w.text
		}
		if ok != c.ok || ok && (text(in) != c.in || text(out) != c.out) {
			t.Errorf("jsonTool(%q, %q) = %q, %q, %v; want %q, %q, %v", c.module, c.words, text(in), text(out), ok, c.in, c.out, c.ok)
		}
	}
	// A word only known when the line runs, or a pattern, may be any
	// number of operands.
	if _, _, ok := jsonTool("json.tool", []word{{text: "*.json", pattern: true}}); ok {
		t.Error("jsonTool took a pattern as one operand")
	}
	if _, _, ok := jsonTool("json.tool", []word{{text: "$F", dynamic: true}}); ok {
		t.Error("jsonTool took a dynamic word as one operand")
	}
	// --indent {2,kit/package.json} package.json is --indent 2
	// kit/package.json package.json: its value may be more words.
	for _, v := range []word{{text: "{2,kit/package.json}", pattern: true}, {text: "$N", dynamic: true}, {text: "<(x)", special: true}} {
		if _, _, ok := jsonTool("json.tool", []word{{text: "--indent"}, v, {text: "package.json"}}); ok {
			t.Errorf("jsonTool took %q as the one value of --indent", v.text)
		}
	}
}
