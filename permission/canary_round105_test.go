//go:build linux

package permission_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound105Braces are round 105's lines where bash's brace
// expansion makes printenv's name of a credential variable: the gate
// checked the word as written (GITHUB_TOKE{N,}), no such name, and
// allowed each line, also through a wrapper or bash -c.
var canaryRound105Braces = []string{
	`printenv GITHUB_TOKE{N,}`, `printenv GITHUB_TOKE{M..N}`, `printenv GITHUB_TOK{E,}N`, `printenv PATH GITHUB_TOKE{N,}`,
	`timeout 5 printenv GITHUB_TOKE{N,}`, `env printenv GITHUB_TOKE{N,}`, `nice printenv GITHUB_TOKE{N,}`,
	`bash -c 'printenv GITHUB_TOKE{N,}'`, `printenv ANTHROPIC_API_{KEY,}`, `printenv DATABASE_{URL,}`, `printenv PGPASS{WORD,}`,
}

// roundOrdinary105Braces are ordinary lines near them, which stay
// allowed.
var roundOrdinary105Braces = []string{`printenv {PATH,HOME}`, `printenv PATH`, `printenv HOME{,}`, `echo GITHUB_TOKE{N,}`}

// canaryRound105Dirs are lines whose word begins with a part the
// analysis does not know but which is the working directory (or one the
// line went to), named in another way than ~+ and $PWD before a cd: the
// directory stack's ~0, ~1, ~+1, ~-0 and dirs +1, $PWD and $OLDPWD after
// a cd, $(pwd), $(realpath .), a variable holding $(pwd). The tail after
// it (/sub/s/id_ed25519) names no secret by itself, but read from the
// working directory it is the project's link into ~/.ssh; each line was
// allowed.
var canaryRound105Dirs = []string{
	`cat ~0/sub/s/id_ed25519`, `pushd sub >/dev/null; cat ~0/s/id_ed25519`, `pushd sub >/dev/null; cat ~1/sub/s/id_ed25519`,
	`pushd sub >/dev/null; cat ~+1/sub/s/id_ed25519`, `pushd sub >/dev/null; cat ~-0/sub/s/id_ed25519`,
	`pushd sub >/dev/null; cat $(dirs +1)/sub/s/id_ed25519`, `pushd sub >/dev/null; cat $(dirs -l +0)/s/id_ed25519`,
	`cd sub; cat $OLDPWD/sub/s/id_ed25519`, `cd sub; cat "$OLDPWD"/sub/s/id_ed25519`, `cd sub; cat $PWD/s/id_ed25519`,
	`cd sub; cat ${PWD}/s/id_ed25519`, `cd sub; cat "$PWD/s/id_ed25519"`, `cat $(pwd)/sub/s/id_ed25519`,
	`cat $(pwd -P)/sub/s/id_ed25519`, `cat "$(pwd)"/sub/s/id_ed25519`, `cat $(pwd)/l2/home/.ssh/id_ed25519`,
	`cat $(echo $PWD)/sub/s/id_ed25519`, `d=$(pwd); cat $d/sub/s/id_ed25519`, `d=$(pwd)/sub; cat $d/s/id_ed25519`,
	`cat $(cd sub; pwd)/s/id_ed25519`, `cat $(realpath .)/sub/s/id_ed25519`, `cat $(readlink -f .)/sub/s/id_ed25519`,
	`cat $(cd sub && pwd)/s/id_ed25519`,
}

// roundOrdinary105Dirs are ordinary lines near canaryRound105Dirs, which
// stay allowed.
var roundOrdinary105Dirs = []string{
	`cat $(pwd)/README`, `cd sub; cat $PWD/x`, `cat ~0/README`, `pushd doc >/dev/null; cat ~0/a`, `cat $X/README`,
	`cat "$OLDPWD"/README`, `ls ~0`, `for f in doc/*; do cat "$f"; done`,
}

// canaryRound105Positional are lines whose path is made of sh -c's
// positional parameters and text around them: the gate took the word
// ($1/s/id_ed25519) for one with an unknown head and a harmless tail.
var canaryRound105Positional = []string{
	`sh -c 'cat $1/s/id_ed25519' _ sub`, `sh -c 'cat sub/$1/id_ed25519' _ s`, `sh -c 'cat ../$1' _ home/.ssh/id_ed25519`,
	`bash -c 'cat "$1"/s/id_ed25519' _ sub`, `sh -c 'cat $0/s/id_ed25519' sub`, `sh -c 'shift; cat $1/s/id_ed25519' _ x sub`,
	`timeout 5 sh -c 'cat ${1}/s/id_ed25519' _ sub`,
}

// roundOrdinary105Positional are ordinary lines near them. (Those that
// read a positional parameter ask in this project, which holds links to
// secret locations: see linkedWholeUnlinked.)
var roundOrdinary105Positional = []string{`sh -c 'echo "$1"' _ README`, `bash -c 'ls "$@"' _ doc sub`}

// canaryRound105Strings are lines whose command string a runner hands to
// sh expands a variable with an operator: a default or an alternative
// that names the path (or its head, read from the working directory), a
// default assigned (: ${x:=sub}), or a prefix or suffix removed from a
// value the string binds or the gate knows (PWD, HOME). In a string the
// analysis kept such a word as one unknown part; on the line it is
// opaque.
var canaryRound105Strings = []string{
	`hyperfine -r1 --show-output 'cat ${x:-sub/s/id_ed25519}'`, `hyperfine -r1 --show-output 'cat ${PAGER:-sub/s/id_ed25519}'`,
	`hyperfine -r1 --show-output 'x=${PAGER:-sub/s/id_ed25519}; cat $x'`, `hyperfine -r1 --show-output 'cat ${PAGER:-sub}/s/id_ed25519'`,
	`hyperfine -r1 --show-output 'cat ${PAGER:-$PWD/sub}/s/id_ed25519'`, `hyperfine -r1 --show-output 'head ${x:-sub/s/id_ed25519}'`,
	`hyperfine -r1 --show-output 'cat ${OLDPWD:-sub}/s/id_ed25519'`, `hyperfine -r1 --show-output 'cat ${X:-.}/sub/s/id_ed25519'`,
	`hyperfine -r1 --show-output 'cat ${X:-$PWD}/sub/s/id_ed25519'`, `hyperfine -r1 --show-output ': ${x:=sub}; cat $x/s/id_ed25519'`,
	`hyperfine -r1 --show-output ': ${x=sub}; cat $x/s/id_ed25519'`, `hyperfine -r1 --show-output 'echo ${x:=sub} >/dev/null; cat $x/s/id_ed25519'`,
	`hyperfine -r1 --show-output 'x=xxsub/s/id_ed25519; cat ${x#xx}'`, `hyperfine -r1 --show-output 'x=xxsub/s/id_ed25519; cat ${x##*x}'`,
	`hyperfine -r1 --show-output 'for f in xxsub/s/id_ed25519; do cat ${f#xx}; done'`, `hyperfine -r1 --show-output 'f=xxsub; cat ${f#xx}/s/id_ed25519'`,
	`hyperfine -r1 --show-output 'f=subx; cat ${f%x}/s/id_ed25519'`, `hyperfine -r1 --show-output 'x=sub; cat ${x%/}/s/id_ed25519'`,
	`hyperfine -r1 --show-output 'cat ${PWD%/}/sub/s/id_ed25519'`, `hyperfine -r1 --show-output 'cat ${HOME%home}work/sub/s/id_ed25519'`,
	`hyperfine -r1 --show-output 'cat ${PWD%/*}/work/sub/s/id_ed25519'`, `hyperfine -r1 --show-output 'for f in xxsub; do cat ${f#xx}/s/id_ed25519; done'`,
	// A filter in a string (see canaryRound105Filters).
	`hyperfine -r1 --show-output 'echo SUB/S/ID_ED25519 | tr A-Z a-z | xargs cat'`,
}

// roundOrdinary105Strings are ordinary lines near them, which stay
// allowed.
var roundOrdinary105Strings = []string{
	`hyperfine -r1 '${PAGER:-cat} README'`, `hyperfine -r1 'sleep ${N:-0}'`, `hyperfine -r1 ': ${N:=3}; echo $N'`,
	`hyperfine -r1 'cat ${x:-README}'`, `hyperfine -r1 'echo ${#PATH}'`, `hyperfine -r1 ': ${d:=doc}; cat $d/a'`,
	`hyperfine -r1 'cat ${x:-doc}/a'`,
}

// canaryRound105Printf are lines where printf's format makes the name of
// its operands: the gate checked each word printf is given (and decoded
// its escapes) but did not apply the format, so sub, s and id_ed25519
// were three harmless words; cat $(…) and xargs cat read what it printed.
var canaryRound105Printf = []string{
	`cat $(printf '%s/%s/%s' sub s id_ed25519)`, `printf '%c%s' s ub/s/id_ed25519 | xargs cat`,
	`printf '%.3s/s/id_ed25519' subway | xargs cat`, `printf 'sub/%s/id_ed%d\n' s 25519 | xargs cat`,
	`printf '%s%s\n' su b/s/id_ed25519 | xargs cat`, `printf '%5.3s/s/id_ed25519' subway | xargs cat`,
	`printf '%-3s/s/id_ed25519' sub | xargs cat`, `printf '%*s/s/id_ed25519' 3 sub | xargs cat`,
	`cat "$(printf %s/%s sub s/id_ed25519)"`,
}

// roundOrdinary105Printf are ordinary lines near them.
var roundOrdinary105Printf = []string{
	`printf '%s\n' README doc/a | xargs cat`, `printf 'x=%d\n' 5`, `printf '%s\n' "hello world"`, `cat $(printf '%s\n' README)`,
	`printf '%05.1f %s\n' 3.14159 ok`,
}

// canaryRound105Subst are lines whose path starts with a command
// substitution that prints a word the line spells out (echo's, printf's,
// a here-string's, or a path realpath, readlink, dirname or basename
// print of their operand): the gate took it for an unknown head before
// the harmless tail /s/id_ed25519.
var canaryRound105Subst = []string{
	`cat $(echo sub)/s/id_ed25519`, `cat $(printf sub)/s/id_ed25519`, `cat $(realpath sub)/s/id_ed25519`,
	`cat $(readlink -f sub)/s/id_ed25519`, `cat $(basename x/sub)/s/id_ed25519`, `cat $(dirname sub/x)/s/id_ed25519`,
	`cat $(cat <<< sub)/s/id_ed25519`, `x=$(echo sub); cat $x/s/id_ed25519`, `cat "$(echo sub)"/s/id_ed25519`,
	`sh -c 'cat $(echo sub)/s/id_ed25519'`,
}

// roundOrdinary105Subst are ordinary lines near them.
var roundOrdinary105Subst = []string{
	`cat $(echo doc)/a`, `cat "$(dirname README)"/doc/a`,
	`cat $(realpath doc)/a`, `x=$(echo doc); cat $x/a`,
}

// roundOrdinary105Unlinked are ordinary lines of round 105 whose head
// the line makes and may be a link the project holds (see
// TestCanaryLinkedTail): they stay allowed in a project that holds no
// link to a secret location and ask in round 84's, which does.
var roundOrdinary105Unlinked = []string{
	`wc -l "$(git rev-parse --show-toplevel)"/README`, `sh -c 'cat $1/x' _ sub`,
	`echo sub; cat $(git rev-parse --show-toplevel)/README`,
}

// canaryRound105Filters are lines where a filter (tr, sed, cut) changes a
// text the line spells out (echo's, a here-string's) into the name a
// reader takes from a command substitution, xargs or read: the gate saw
// the text before the filter (SUB/S/ID_ED25519, bus/s/id_ed25519), no
// secret, and took what came out for data only known when the line runs.
var canaryRound105Filters = []string{
	`cat $(echo SUB/S/ID_ED25519 | tr A-Z a-z)`, `cat $(echo bus/s/id_ed25519 | sed s/bus/sub/)`,
	`cat $(echo xsub/s/id_ed25519 | cut -c2-)`, `echo SUB/S/ID_ED25519 | tr A-Z a-z | xargs cat`,
	`echo bus/s/id_ed25519 | sed s/bus/sub/ | xargs cat`, `echo sub s id_ed25519 | tr ' ' / | xargs cat`,
	`cat $(echo SUB | tr A-Z a-z)/s/id_ed25519`, `cat $(tr A-Z a-z <<< SUB/S/ID_ED25519)`,
	`tr A-Z a-z <<< SUB/S/ID_ED25519 | xargs cat`,
	`echo SUB/S/ID_ED25519 | tr A-Z a-z | sort | xargs cat`, `echo SUB/S/ID_ED25519 | tr A-Z a-z | timeout 5 xargs cat`,
}

// roundOrdinary105Filters are ordinary lines near them, which stay
// allowed.
var roundOrdinary105Filters = []string{
	`ls doc | tr a-z A-Z`,
	`echo hello | tr a-z A-Z`, `cat README | tr a-z A-Z`,
}

// TestCanaryRound105 checks that each line prints the token or the key
// in real bash and asks, and that the ordinary lines stay allowed.
func TestCanaryRound105(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryRound105Braces, nil)
	wantQuietAndAllowed(t, decide, roundOrdinary105Braces)
	wantPrintedAndAsked(t, decide, canaryRound105Dirs, nil)
	wantQuietAndAllowed(t, decide, roundOrdinary105Dirs)
	wantPrintedAndAsked(t, decide, canaryRound105Positional, nil)
	wantQuietAndAllowed(t, decide, roundOrdinary105Positional)
	wantPrintedAndAsked(t, decide, canaryRound105Printf, nil)
	wantQuietAndAllowed(t, decide, roundOrdinary105Printf)
	// Many words before the one that makes the name: the variants the
	// gate would make are more than it checks, and the line asks.
	var pad strings.Builder
	for i := range 70 {
		fmt.Fprintf(&pad, "x%d ", i)
	}
	padded := []string{
		"echo " + pad.String() + "; cat $(echo sub)/s/id_ed25519",
		"sh -c 'shift 70; cat $1/s/id_ed25519' _ " + pad.String() + "sub",
	}
	wantPrintedAndAsked(t, decide, append(canaryRound105Subst, padded...), nil)
	wantQuietAndAllowed(t, decide, roundOrdinary105Subst)
	wantPrintedAndAsked(t, decide, canaryRound105Filters, nil)
	wantQuietAndAllowed(t, decide, roundOrdinary105Filters)
	wantDecisions(t, decide, roundOrdinary105Unlinked, nil)
	uhome, uwd := unlinkedFixture(t)
	wantDecisions(t, secretDecider(t, uhome, uwd), nil, roundOrdinary105Unlinked)
	wantDecisions(t, decide, canaryRound105Strings, roundOrdinary105Strings)
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine")
	wantPrintedAndAsked(t, decide, canaryRound105Strings, nil)
	wantQuietAndAllowed(t, decide, roundOrdinary105Strings)
}
