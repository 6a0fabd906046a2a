package shellscan

import "strings"

// Programs whose input files are code that writes files the command line
// never names (review63g): an XSLT stylesheet's EXSLT exsl:document
// element writes any path its href names (xsltproc, and xmlstarlet tr,
// both libxslt), and so does one that an XML document's xml-stylesheet
// processing instruction names or embeds (xsltproc takes its first file
// as such a document when it holds one; xmlstarlet tr -E reads each
// document's); ppmtompeg's
// parameter file runs the shell command of its INPUT_CONVERT line (and of
// RSH) for each frame. Each file is code the command runs, so one the line
// writes makes the line opaque, as a Makefile the line writes does before
// make; the standard input, a device or a word only known when the line
// runs does so at once.

// xsltValueOptions are xsltproc's options that take a value in the next
// word (--param and --stringparam take two).
var xsltValueOptions = lazy[map[string]int]{build: func() map[string]int {
	m := map[string]int{"--param": 2, "--stringparam": 2}
	for _, o := range strings.Fields(`-o --output --path --maxdepth --maxvars --maxparserdepth --encoding
		--writesubtree --repeat`) {
		m[o] = 1
	}
	return m
}}

// stylesheetCode records the stylesheets and parameter files of the
// programs of this file as code they run.
func (an *analyzer) stylesheetCode(name string, args []word) {
	switch name {
	case "xsltproc":
		an.codeOperands(name, args, xsltValueOptions.get(), false)
	case "xmlstarlet":
		// Global options come before the command (xmlstarlet -q tr …).
		for i, a := range args {
			if a.dynamic {
				an.opaque(name + " gets a command only known when the line runs")
				return
			}
			if strings.HasPrefix(a.text, "-") {
				continue
			}
			if a.text == "tr" || a.text == "transform" {
				rest := args[i+1:]
				embed := false
				for _, b := range rest {
					embed = embed || b.text == "-E" || b.text == "--embed"
				}
				an.codeOperands(name+" "+a.text, rest, map[string]int{"-s": 1, "-p": 1, "--maxdepth": 1}, embed)
			}
			return
		}
	case "ppmtompeg", "mpeg_encode":
		an.codeOperands(name, args, map[string]int{"-stat": 1, "-gop": 1, "-quiet": 1, "-max_machines": 1,
			"-frames": 2}, true)
	}
}

// codeOperands records the first operand of args (every operand, with
// all), the words that are neither options nor the values of the options
// of values (by how many words each takes), as a file of code prog runs.
func (an *analyzer) codeOperands(prog string, args []word, values map[string]int, all bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.dynamic && a.text != "-" && strings.HasPrefix(a.text, "-") {
			if a.text == "--" {
				for _, b := range args[i+1:] {
					an.codeOperand(prog, b)
					if !all {
						break
					}
				}
				return
			}
			i += values[a.text]
			continue
		}
		an.codeOperand(prog, a)
		if !all {
			return
		}
	}
}

// codeOperand records the file v names as code prog runs; the standard
// input, a device, or a word only known when the line runs makes the line
// opaque.
func (an *analyzer) codeOperand(prog string, v word) {
	if strings.HasPrefix(v.text, "/dev/") || strings.HasPrefix(v.text, "/proc/") {
		an.opaque(prog + " runs code from " + clipName(v.text) + ", which the line may feed it")
		return
	}
	an.rt61CodeFile(prog, v)
}
