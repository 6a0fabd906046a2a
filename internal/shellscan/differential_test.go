package shellscan

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// differentialWorkers is how many lines
// TestBashAgreesWhereTheAnalysisSeesNoCommand analyses and runs at once.
const differentialWorkers = 4

// differentialBatch is how many lines one bash process of
// TestBashAgreesWhereTheAnalysisSeesNoCommand runs, each in a subshell.
const differentialBatch = 64

// differentialScript runs each of its arguments as bash -c would, in a
// subshell of its own with no positional parameters (eval parses and runs
// its string with the same parse_and_execute as -c does, and a subshell
// keeps an exit, a cd or a set from reaching the next line), after making
// the canary c afresh; it prints the index of every line after which c is
// gone, and "done" once it ran them all. A subshell costs a fork, not the
// exec and start-up of a bash: a few thousand lines take a third of the CPU.
const differentialScript = `i=0
for __line in "$@"; do
	: >c || exit 3
	( set --; eval "$__line" ) </dev/null >/dev/null 2>&1
	[ -e c ] || echo "$i"
	i=$((i+1))
done
echo done`

// TestBashAgreesWhereTheAnalysisSeesNoCommand is a differential test of the
// parser against bash: it puts short runs of the characters that end,
// quote, escape, continue or comment a command into templates whose last
// line is "rm -f c", and whenever the analysis neither sees an rm nor calls
// the line opaque, runs the line with bash and checks that c survived.
// Round 10 of the canary tests found three such lines (a comment ending in
// a backslash, backslash-CR-LF, a here-document's backslash-newline).
func TestBashAgreesWhereTheAnalysisSeesNoCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash a few thousand times")
	}
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	parts := []string{"\\", "\r", "\n", "\t", "\f", " ", "#", ";", "&", "|", "'", "\"", "$", "(", ")", "`", "EOF", "-"}
	var seqs []string
	for _, a := range parts {
		seqs = append(seqs, a)
		for _, b := range parts {
			seqs = append(seqs, a+b)
		}
	}
	// The lines are analysed in a few workers at once, each in a directory
	// of its own (the analysis's workdir too), and those the analysis lets
	// through are run in batches of differentialBatch by one bash each:
	// most of a bash run is waiting for the child.
	lines := make(chan string)
	var runs atomic.Int64
	var wg sync.WaitGroup
	for range differentialWorkers {
		dir := t.TempDir()
		wg.Go(func() {
			var batch []string
			units := map[string][]unit{}
			run := func() {
				if len(batch) == 0 {
					return
				}
				for _, i := range runBatch(t, dir, batch) {
					t.Errorf("bash ran rm in %q, which the analysis neither saw nor called opaque (units %v)", batch[i], units[batch[i]])
				}
				runs.Add(int64(len(batch)))
				batch = batch[:0]
				clear(units)
			}
			for line := range lines {
				a := analyzeBash(line, "/home/u", dir)
				if len(a.reasons) > 0 {
					continue
				}
				seen := false
				for _, u := range a.units {
					seen = seen || u.name == "rm"
				}
				if seen {
					continue
				}
				batch = append(batch, line)
				units[line] = a.units
				if len(batch) == differentialBatch {
					run()
				}
			}
			run()
		})
	}
	for _, s := range seqs {
		for _, line := range []string{
			"echo hi " + s + "rm -f c", "echo hi" + s + "\nrm -f c", "echo hi # " + s + "\nrm -f c",
			"echo hi " + s + " \\\nrm -f c", "echo hi\\" + s + "\nrm -f c",
			"cat <<EOF" + s + "\nx\nEOF\nrm -f c\nEOF\n", "cat <<EOF\nx" + s + "\nEOF\nrm -f c\nEOF\n",
			"cat <<-EOF\n" + s + "EOF\nrm -f c\nEOF\n", "cat <<'EOF'\n" + s + "\nEOF\nrm -f c\nEOF\n",
			"sh -c 'echo hi " + s + "rm -f c'", "bash -c 'echo hi # " + s + "\nrm -f c'",
			"echo 'a" + s + "' rm -f c", "echo \"a" + s + "\" rm -f c", "echo $'a" + s + "' rm -f c",
		} {
			lines <- line
		}
	}
	close(lines)
	wg.Wait()
	t.Logf("%d lines run with bash", runs.Load())
}

// runBatch runs lines with differentialScript in dir and returns the
// indexes of the lines after which the canary dir/c was gone.
func runBatch(t *testing.T, dir string, lines []string) []int {
	t.Helper()
	// $0 is /bin/bash, as for exec.Command("/bin/bash", "-c", line): a
	// line that runs $0 runs bash in both.
	cmd := exec.Command("/bin/bash", append([]string{"-c", differentialScript, "/bin/bash"}, lines...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	fields := strings.Fields(string(out))
	if err != nil || len(fields) == 0 || fields[len(fields)-1] != "done" {
		t.Errorf("a batch of %d lines did not run to its end (%v): %q; its first line: %q", len(lines), err, out, lines[0])
		return nil
	}
	var gone []int
	for _, f := range fields[:len(fields)-1] {
		i, err := strconv.Atoi(f)
		if err != nil || i < 0 || i >= len(lines) {
			t.Errorf("batch printed %q", f)
			continue
		}
		gone = append(gone, i)
	}
	return gone
}
