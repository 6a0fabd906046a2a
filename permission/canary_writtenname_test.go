//go:build linux

package permission_test

import "testing"

// A line may write the very file a later program of the line runs as code
// (a makefile, configure.ac, a script) through a program the analysis
// does not model, or a compiler, and not as a redirection or a copy. The
// analysis counted such a program's words as files it may write only when
// they were an output option's value, and a compiler's outputs not at all
// (a build's own step), so these lines were allowed while the real run
// wrote ../home:
//   - programs that write an operand: sponge and cpp write their standard
//     input (the line's here-string) to it, ps2ascii the text of a
//     PostScript file; also under a name a program finds by a pattern
//     (x.d for a Makefile's -include *.d, conftest.py for pytest);
//   - a compiler that only preprocesses (cc -E -P m.c -o GNUmakefile: the
//     text of m.c and of the line's -D macros), and one that writes an
//     object or assembly under a name autoconf reads (m4 runs the
//     m4_esyscmd a string constant holds);
//   - cc -MMD, which writes x.d, named by no word, whose rule's target is
//     the text of -MT: a Makefile that includes x.d ran its command.
//
// Now a word naming, in any letter case, a file a program of the line
// runs as code by that literal name (GNUmakefile, configure.ac; not a
// pattern such as *.c) counts as written whoever is given it, the operands
// such programs write count as an output option's value does, a compiler
// that writes text (-E, -S, -M, -MM) builds no program, and -MD
// and -MMD write the dependency file gcc names.
var canaryWrittenName = []settingsCanary{
	{tool: "sponge", line: `sponge GNUmakefile <<< 'all: ; touch ../home/pwned' && make`, wrote: "pwned"},
	{tool: "sponge", line: `printf 'm4_esyscmd([touch ../home/pwned])' | sponge configure.ac && autoconf`, wrote: "pwned"},
	{tool: "cpp", line: `cpp -P -DT=touch mk2.c GNUmakefile && make`, files: writtenNameKit, wrote: "pwned"},
	{tool: "cpp", line: `cpp -P mk.c Makefile && make`, files: writtenNameOrdinaryKit, wrote: "pwned"},
	{tool: "ps2ascii", line: `ps2ascii x.ps configure.ac && autoconf`, files: writtenNameKit, wrote: "pwned-ps"},
	{tool: "cc", line: `cc -E -P mk.c -o GNUmakefile && make`, files: writtenNameKit, wrote: "pwned"},
	{tool: "cc", line: `cc -E -P -DT=touch mk2.c -o GNUmakefile && make`, files: writtenNameKit, wrote: "pwned"},
	{tool: "cc", line: `cc -E -P mk.c -o x.mk && make -f x.mk`, files: writtenNameKit, wrote: "pwned"},
	{tool: "cc", line: `cc -E -P -x c py.c -o x.py && python3 x.py`, files: writtenNameKit, wrote: "pwned-py"},
	{tool: "autoconf", line: `cc -c -o configure.ac ac.c && autoconf`, files: writtenNameKit, wrote: "pwned-ac"},
	{tool: "autoconf", line: `cc -S -o configure.ac ac.c && autoconf`, files: writtenNameKit, wrote: "pwned-ac"},
	{tool: "sponge", line: `sponge x.d <<< 'all: ; touch ../home/pwned' && make`, files: writtenNameIncludes, wrote: "pwned"},
	{tool: "sponge", line: `sponge conftest.py <<< "import pathlib; pathlib.Path('../home/pwned').write_text('x')" && pytest -q test_a.py`,
		files: writtenNameTests, wrote: "pwned"},
	{tool: "pytest", line: `cpp -P py.c conftest.py && pytest -q test_a.py`, files: writtenNameTests, wrote: "pwned-py"},
	{tool: "make", line: `cc -MMD -MT 'all: ; cd && touch pwned #' -c x.c && make`, files: writtenNameDeps, wrote: "pwned"},
	{tool: "make", line: `cc -MMD -MF deps.d -MT 'all: ; cd && touch pwned #' -c x.c && make`, files: writtenNameDepsAll, wrote: "pwned"},
	{tool: "make", line: `cc -MD -MT 'all: ; cd && touch pwned #' -c x.c -o x.o && make`, files: writtenNameDeps, wrote: "pwned"},
	// python3 -m json.tool IN OUT writes OUT (modelled since stop 62).
	{tool: "npm", line: `python3 -m json.tool kit/package.json package.json && npm test`, files: writtenNameJSON, wrote: "pwned"},
	{tool: "npm", line: `python3 -m json.tool --ind=2 -- kit/package.json ./package.json && npm test`, files: writtenNameJSON, wrote: "pwned"},
	{tool: "npm", line: `python3 -m json.tool --sort kit/package.json package.json --compact && npm test`, files: writtenNameJSON, wrote: "pwned"},
	// A brace as --indent's value is more words: --indent 2
	// kit/package.json package.json (allowed until stop 62).
	{tool: "npm", line: `python3 -m json.tool --indent {2,kit/package.json} package.json && npm test`, files: writtenNameJSON, wrote: "pwned"},
	// python takes the word after -W, -X or -Q as its value whatever it
	// looks like: -m is a warning filter, and the file the line wrote
	// under the module's name is the script (allowed until stop 62).
	{tool: "python3", line: `printf 'open("../home/pwned", "w")' > json.tool; python3 -W -m json.tool package.json`, wrote: "pwned"},
	{tool: "python3", line: `printf 'open("../home/pwned", "w")' > m; python3 -bX -m m`, wrote: "pwned"},
}

// writtenNameJSON is a node project beside a kit whose package.json's
// test script writes the home.
var writtenNameJSON = map[string]string{
	"package.json":     `{"name": "p", "scripts": {"test": "echo ok"}}`,
	"kit/package.json": `{"name": "p", "scripts": {"test": "touch ../home/pwned"}}`,
}

// writtenNameKit holds the project files the lines turn into code: a C
// file that preprocesses to a makefile (mk2.c with the line's -DT), one
// that preprocesses to Python, one whose string constant autoconf's m4
// runs, and a PostScript page whose text is m4.
var writtenNameKit = map[string]string{
	"mk.c":  "all: ; touch ../home/pwned\n",
	"mk2.c": "all: ; T ../home/pwned\n",
	"py.c":  "import pathlib; pathlib.Path('../home/pwned-py').write_text('x')\n",
	"ac.c":  "const char s[] = \"\\n m4_esyscmd([touch ../home/pwned-ac])\\n\";\n",
	"x.ps":  "%!PS\n/Courier findfont 10 scalefont setfont\n72 720 moveto (m4_esyscmd\\(\\[touch ../home/pwned-ps\\]\\)) show\nshowpage\n",
}

// writtenNameDeps is a C project whose Makefile includes the dependency
// file cc -MMD writes, as most do.
var writtenNameDeps = map[string]string{
	"Makefile": "all: app\napp: x.o\n\tcc -o app x.o\n-include x.d\n",
	"x.c":      "int main(void) { return 0; }\n",
}

// writtenNameDepsAll is writtenNameDeps with a Makefile that includes
// every .d file (review of round 126: -MF's file went unseen).
var writtenNameDepsAll = map[string]string{
	"Makefile": "all: app\napp: x.o\n\tcc -o app x.o\n-include *.d\n",
	"x.c":      writtenNameDeps["x.c"],
}

// writtenNameIncludes is a project whose Makefile includes every .d file,
// and writtenNameTests one with a test pytest runs and a C file that
// preprocesses to Python.
var (
	writtenNameIncludes = map[string]string{"Makefile": "all: ; @echo ok\n-include *.d\n"}
	writtenNameTests    = map[string]string{"test_a.py": "def test_a():\n    pass\n", "py.c": writtenNameKit["py.c"]}
)

// writtenNameOrdinaryKit is writtenNameKit in a project with a Makefile
// of its own, which the line overwrites.
var writtenNameOrdinaryKit = map[string]string{"Makefile": "all: ; @echo ok\n", "mk.c": writtenNameKit["mk.c"]}

// The builds and reads such lines are made of stay allowed: a program a
// compiler built and ran, objects linked, a makefile read before make.
var ordinaryWrittenName = []settingsOrdinary{
	{tool: "cc", line: `cc -o app x.c && ./app`, files: writtenNameDeps},
	{tool: "cc", line: `cc -c x.c -o x.o && cc x.o -o app && ./app`, files: writtenNameDeps},
	{tool: "cc", line: `cc -MMD -c x.c && ls`, files: writtenNameDeps},
	{tool: "make", line: `cat Makefile && make`, files: writtenNameDeps},
	{tool: "make", line: `cc -E -P x.c -o x.i && make`, files: writtenNameDeps},
	// json.tool reads the file it is given by name and writes only its
	// second operand.
	{tool: "npm", line: `python3 -m json.tool package.json && npm test`, files: writtenNameJSON},
	{tool: "npm", line: `python3 -m json.tool --indent 2 --sort-keys package.json && npm test`, files: writtenNameJSON},
	{tool: "npm", line: `python3 -m json.tool package.json /dev/null && npm test`, files: writtenNameJSON},
	{tool: "python3", line: `python3 -W ignore -m json.tool package.json`, files: writtenNameJSON},
	{tool: "npm", line: `python3 -m json.tool --indent 2 package.json && npm test`, files: writtenNameJSON},
	{tool: "python3", line: `echo x > m; python3 -W -W -m json.tool package.json`, files: writtenNameJSON},
}

// TestCanaryWrittenName checks that each line of canaryWrittenName asks
// and writes the home when run, and that the ordinary builds stay allowed
// and leave it alone.
func TestCanaryWrittenName(t *testing.T) {
	t.Parallel()
	checkSettingsCanaries(t, canaryWrittenName, ordinaryWrittenName)
}
