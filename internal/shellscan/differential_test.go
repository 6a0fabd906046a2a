package shellscan

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// differentialWorkers is how many lines
// TestBashAgreesWhereTheAnalysisSeesNoCommand analyses and runs at once.
const differentialWorkers = 4

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
	// The lines are analysed and run in a few workers at once, each in a
	// directory of its own (the analysis's workdir too): most of a bash run
	// is waiting for the child.
	lines := make(chan string)
	var runs atomic.Int64
	var wg sync.WaitGroup
	for range differentialWorkers {
		dir := t.TempDir()
		canary := filepath.Join(dir, "c")
		wg.Go(func() {
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
				if err := os.WriteFile(canary, nil, 0o644); err != nil {
					t.Error(err)
					continue
				}
				cmd := exec.Command("/bin/bash", "-c", line)
				cmd.Dir = dir
				_ = cmd.Run()
				runs.Add(1)
				if _, err := os.Stat(canary); err != nil {
					t.Errorf("bash ran rm in %q, which the analysis neither saw nor called opaque (units %v)", line, a.units)
				}
			}
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
