//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound78 is gate66's attack on review65g's check (a written
// path handed to a command the analysis does not model is opaque only when
// it names an executable that exists before the line runs): a file the
// line creates executable, by a copy that takes its source's mode (cp,
// with or without -p, mv, cp -r of a tree that holds one) or by install,
// handed to hyperfine, which runs the command strings it is given, or to
// logsave, which runs its operands, is rm under another name; so is one
// chmod made executable handed by a name hyperfine builds (./t{n}).
var canaryRound78 = map[string][]string{
	"1-copy-mode": {
		`cp /bin/rm ./t && hyperfine -r1 './t c'`,
		`cp -p /bin/rm t && hyperfine -r1 './t c'`,
		`cp --remove-destination /bin/rm t && hyperfine -r1 -N './t c'`,
		`cp /bin/rm t && hyperfine -r1 --prepare='./t c' true`,
		`cp /bin/rm t && hyperfine -r1 'true; ./t c'`,
		`cp /bin/rm t && /usr/sbin/logsave /dev/null ./t c`,
		`cp bin/ls t && hyperfine -r1 ./t`,
		`mv bin/ls t && hyperfine -r1 ./t`,
		`cp -r bin b2 && hyperfine -r1 b2/ls`,
	},
	"2-mode-set": {
		`cp /bin/rm t && chmod 755 t && hyperfine -r1 './t c'`,
		`install /bin/rm t && hyperfine -r1 './t c'`,
		`ln -s /bin/rm t && hyperfine -r1 './t c'`,
	},
	// hyperfine fills in {NAME} from -P and -L: the words need not
	// spell the file they run.
	"3-built-name": {
		`cp /bin/rm t1 && hyperfine -r1 -P n 1 1 './t{n} c'`,
		`cp /bin/rm tx && hyperfine -r1 -L v x './t{v} c'`,
		`cat bin/ls > t1 && chmod +x t1 && hyperfine -r1 -P n 1 1 './t{n}'`,
		`echo '/bin/rm -f c' > bin/ls && hyperfine -r1 -L v s 'bin/l{v}'`,
	},
}

func TestCanaryRound78(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "hyperfine", "/usr/sbin/logsave")
	template := checkCanaryRound(t, canaryRound78)
	// A copy of a file that is no executable stays a data file for a
	// command the analysis does not model.
	checkOrdinary(t, template, []string{
		`cp README sub/copy.txt && mytool sub/copy.txt`,
		`cp README b.txt && mytool b.txt`,
		`cp -p README sub/ && hyperfine -r1 'wc -l sub/README'`,
		`cp -t sub README && mytool ./sub/README`,
		`hyperfine -r1 'ls -la'`,
	}, nil)
}
