package shellscan

import "testing"

// Round 40: make searches the directories of -I and --include-dir for
// the files a makefile includes, under any name: a file the line writes
// below one is a makefile fragment. MAKEFLAGS and GNUMAKEFLAGS, which
// could add such a directory, are opaque however they are set.
func TestMakeIncludeDirs(t *testing.T) {
	for _, line := range []string{
		"printf x > inc/common && make -I inc", "printf x > inc/rules.txt && make --include-dir=inc",
		"printf x > inc/rules.txt && make --include-dir inc", "printf x > inc/rules.txt && make -Iinc",
		"printf x > inc/rules.txt && make --inc=inc", "cp README inc/common && make -I inc",
		"printf x > inc/sub/common && make -I inc", "printf x > inc/common; make -I ./inc/",
		"printf x > sub/inc/common && make -C sub -I inc", "printf x > /w/inc/common && make -I /w/inc",
		"printf x > inc/common && make -sI inc", "printf x > inc/common && gmake -I inc",
		"cp -r kit inc && make -I inc", "make -I $d", "printf x > notes.txt && make -I .",
		"MAKEFLAGS=-Iinc make", "export MAKEFLAGS=-Iinc; make", "GNUMAKEFLAGS=-Iinc make", "env MAKEFLAGS=-Iinc make",
		"make MAKEFLAGS=-Iinc", "make GNUMAKEFLAGS=-Iinc", "declare -x MAKEFLAGS=-Iinc; make", "MFLAGS=-Iinc make",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"make -I inc", "make -I include test", "echo x > out.txt && make -I inc", "mkdir -p build && make -I include",
		"make --include-dir=inc all", "printf x > other/common && make -I inc", "make -I inc test && echo x > inc/common",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
