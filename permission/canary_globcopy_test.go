//go:build linux

package permission_test

import "testing"

// A copy whose sources are a pattern (cp kit/* .) writes, in the
// directory it copies into, a file under each name the pattern matches
// when the line runs. The analysis recorded no write for such a copy
// into a directory (only the directory itself), so a program the line
// then ran from that directory ran what the copy put there while the
// gate, reading the files as they were, found no makefile to judge and
// allowed the line: real make ran kit/GNUmakefile's recipe, which wrote
// ../home/pwned. mv kit/* ., ln -s kit/* . and install -t . kit/* asked
// already; cp, scp and rsync did not. Now the copy is a written pattern
// (./*, ./G*), so the line is a write-then-run as printf … > Makefile &&
// make is.
var canaryGlobCopy = []settingsCanary{
	{tool: "make", line: `cp kit/* . && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp kit/G* . && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp kit/*file . && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp kit/?NUmakefile . && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp kit/[G]NUmakefile . && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp kit/{GNUmakefile,x} . && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp -t . kit/* && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp --target-directory=. kit/* && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp kit/* sub/ && make -C sub`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp kit/* sub/; cd sub && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp -u kit/* . && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp kit/* ./ && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "make", line: `cp kit/* sub/.. && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "scp", line: `scp kit/* . && make`, files: globCopyKit, wrote: "pwned"},
	{tool: "ninja", line: `cp kit/* . && ninja`, files: globCopyKit, wrote: "pwned"},
	{tool: "ninja", line: `cp kit/*.ninja . && ninja`, files: globCopyKit, wrote: "pwned"},
	{tool: "autoconf", line: `cp kit/*.ac . && autoconf`, files: globCopyKit, wrote: "pwned"},
}

// globCopyKit is a directory of files that run a command when copied
// where their program looks for them. The recipes write the home from
// the working directory or one level below it.
var globCopyKit = map[string]string{
	"kit/GNUmakefile":  "all:\n\ttouch ../home/pwned || touch ../../home/pwned\n",
	"kit/x":            "x\n",
	"kit/build.ninja":  "rule t\n  command = touch ../home/pwned\nbuild x: t\n",
	"kit/configure.ac": "m4_esyscmd([touch ../home/pwned])\nAC_INIT([x],[1])\n",
}

// The same copies of files that are no program's code stay allowed.
var ordinaryGlobCopy = []settingsOrdinary{
	{tool: "make", line: `cp kit/*.txt . && make`, files: map[string]string{"kit/a.txt": "a\n", "Makefile": "all:\n\t@echo ok\n"}},
	{tool: "cat", line: `cp kit/* . && cat README`, files: map[string]string{"kit/a.txt": "a\n"}},
}

// TestCanaryGlobCopy checks that a copy by pattern into the directory a
// program then runs code from asks, and that the real program runs the
// copied code; and that copies of other files stay allowed.
func TestCanaryGlobCopy(t *testing.T) {
	t.Parallel()
	checkSettingsCanaries(t, canaryGlobCopy, ordinaryGlobCopy)
}
