//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound107 are round 107's lines: each printed the key in real bash
// and was allowed in a project that holds no link. A command that takes a
// format or a prefixed value (date +FMT, stat -c, ls and du
// --time-style=+FMT, numfmt, seq -f), a sed or awk program or a jq filter
// printed a text of the author's choosing that no word of the line is:
// the path behind a prefix, between directives or escapes, or in pieces
// put together when the line runs.
var canaryRound107 = map[string][]string{
	// The path behind date's '+', whatever runs date and wherever its
	// format is.
	"1-date-prefix": {
		`date +../home/.ssh/id_ed25519 | xargs cat`, `cat $(date +../home/.ssh/id_ed25519)`,
		`cat $(date -d @0 +../home/.ssh/id_ed25519)`, `cat $(date --date=@0 +../home/.ssh/id_ed25519)`,
		`cat $(date "+../home/.ssh/id_ed25519")`, `cat $(TZ=UTC date +../home/.ssh/id_ed25519)`,
		`cat $(date +../home/.ssh/id_ed25519 -d now)`, `cat $(date +..//home/.ssh/id_ed25519)`,
		`env date +../home/.ssh/id_ed25519 | xargs cat`, `/bin/date +../home/.ssh/id_ed25519 | xargs cat`,
		`command date +../home/.ssh/id_ed25519 | xargs cat`,
	},
	// The path between directives: %% and %n a filter removes, %n and %t
	// that split it into words, %Z the letters TZ gives.
	"2-directives": {
		`cat $(date +%%../home/.ssh/id_ed25519 | cut -c2-)`, `cat $(date +..%n/home/.ssh/id_ed25519 | tr -d '\n')`,
		`cat $(date +..%n/home/.ssh/id_ed25519 | paste -sd '')`, `cat $(date +.%n./home/.ssh/id_ed25519 | tr -d '\n')`,
		`date +README%n../home/.ssh/id_ed25519 | xargs cat`, `date +README%t../home/.ssh/id_ed25519 | xargs cat`,
		`cat $(date +@..%n/home/.ssh/id_ed25519 | tr -d '@\n')`, `cat $(TZ=ssh0 date +../home/.%Z/id_ed25519)`,
		`cat $(TZ=ssh0 date +../home/.%Z/id_ed25519 | tr A-Z a-z)`,
	},
	// stat's format, also joined to -c, and the name it prints (%n)
	// before a tail the format spells.
	"3-stat": {
		`cat $(stat -c../home/.ssh/id_ed25519 README)`, `cat $(stat -c..%%/home/.ssh/id_ed25519 README | tr -d %)`,
		`cat $(stat -c..%%/home/.ssh/id_ed25519 README | tr % /)`, `cat $(stat -c%%../home/.ssh/id_ed25519 README | cut -c2-)`,
		`cat $(stat -c %n/.ssh/id_ed25519 ../home)`,
	},
	// ls -l and du --time print the time in the style given after '+'.
	"4-time-style": {
		`ls -l --time-style=+../home/.ssh/id_ed25519 README | cut -d' ' -f6 | xargs cat`,
		`du --time --time-style=+../home/.ssh/id_ed25519 README | cut -f2 | xargs cat`,
		`cat $(du --time --time-style=+../home/.ssh/id_ed25519 README | cut -f2)`,
	},
	// seq's and numfmt's formats and numfmt's suffix, beside the number
	// they print (which a filter may make the head of the path).
	"5-numbers": {
		`cat $(seq -f%%../home/.ssh/id_ed2551%g 9 9 | cut -c2-)`, `cat $(numfmt --format=%f../home/.ssh/id_ed25519 0 | cut -c2-)`,
		`cat $(numfmt --format=%f/home/.ssh/id_ed25519 0 | sed s/0/../)`, `cat $(numfmt --suffix=/home/.ssh/id_ed25519 0 | sed s/0/../)`,
		`cat $(date +0/home/.ssh/id_ed25519 | sed s/0/../)`,
	},
	// The text of sed's a, i and c commands; the string literals of awk
	// and jq programs, joined or escaped.
	"6-programs": {
		`cat $(sed -n '1c../home/.ssh/id_ed25519' README)`, `sed -n '1c../home/.ssh/id_ed25519' README | xargs cat`,
		`sed '1!d;s/.*/x/;a../home/.ssh/id_ed25519' README | tail -1 | xargs cat`, `cat $(sed -n 1i../home/.ssh/id_ed25519 README)`,
		`cat $(awk 'BEGIN{print "..""/home/.ssh/id_ed25519"}')`, `cat $(awk 'BEGIN{print ".." "/home/.ssh/id_ed25519"}')`,
		`cat $(awk 'BEGIN{printf "%s%s", "..", "/home/.ssh/id_ed25519"}')`, `cat $(awk 'BEGIN{printf "..%s", "/home/.ssh/id_ed25519"}')`,
		`cat $(jq -rn '"../home/.s" + "sh/id_ed25519"')`, `cat $(jq -rn '"..\u002fhome\u002f.ssh\u002fid_ed25519"')`,
		`cat $(jq -rn '["..","home",".ssh","id_ed25519"]|join("/")')`,
	},
	// Pieces printed by two commands, or by a substitution inside a word.
	"7-pieces": {
		`cat $(printf '%s' ../home/.s; printf sh/id_ed25519)`, `cat $(echo -n ../home/.s; echo sh/id_ed25519)`,
		`cat $(printf "%s\n" ../home/.s | tr -d '\n'; echo sh/id_ed25519)`,
		`cat $(date +../home/.s | tr -d '\n'; date +sh/id_ed25519)`, `cat $(date +../home/)$(date +.ssh/id_ed25519)`,
		`cat ../home/$(date +.ssh)/id_ed25519`, `cat ../home/.ss$(date +h)/id_ed25519`,
		`x=$(date +.ssh); cat ../home/$x/id_ed25519`,
	},
	// bash's \u and \U escapes, which printf, echo -e and %b decode; an
	// option's value given as the next word.
	"8-unicode-and-values": {
		`cat $(printf '..\u002fhome\u002f.ssh\u002fid_ed25519')`, `cat $(echo -e '..\u002fhome\u002f.ssh\u002fid_ed25519')`,
		`cat $(printf '..\U0000002fhome\U0000002f.ssh\U0000002fid_ed25519')`,
		`cat $(printf '%b' '..\u002fhome\u002f.ssh\u002fid_ed25519')`, `cat $(seq -s /home/.ssh/id_ed2551 8 9 | sed s/^8/../)`,
	},
	// The strftime format of bash's printf %(FMT)T, its directives
	// removed.
	"9-printf-time": {`cat $(command printf '%(..%%/home/.ssh/id_ed25519)T' | tr -d %)`},
}

// canaryRound107Ordinary stay allowed in that project: formats of dates,
// sizes and commits, numbers, sed and awk programs, pieces that name the
// project's files.
var canaryRound107Ordinary = []string{
	`date +%s`, `date '+%Y-%m-%d %H:%M:%S'`, `date +%Y/%m/%d`, `date -u +%Y-%m-%dT%H:%M:%SZ`,
	`date --date='1 day ago' +%F`, `TZ=UTC date +%H:%M`, `git log --format=%H -1`,
	`git log --pretty=format:'%h %an %s' -5`, `git for-each-ref --format='%(refname:short)' refs/heads`,
	`stat -c %s README`, `stat -c '%n %s %y' README doc/a`, `stat --printf '%s\n' README`, `stat -c %n/x doc`,
	`ls -l --time-style=+%F doc`, `ls -l --time-style=long-iso doc`, `du --time --time-style=+%F doc`,
	`seq 1 3`, `seq -f 'file-%03g.txt' 1 3`, `seq -s, 1 5`, `numfmt --to=iec 123456`, `numfmt --format=%.2f 3.14159`,
	`printf '%s\n' doc/a | xargs wc -l`, `paste -d, README doc/a`, `nl -s': ' README`,
	`cat $(date +%F).log 2>/dev/null; true`, `cat $(date +doc/a)`, `date +doc/a | xargs cat`, `cat $(stat -c %n doc/a)`,
	`echo -n 'building '; echo done`, `awk '{print $1 "/" $2}' README`, `awk -F, '{printf "%s,%s\n", $2, $1}' README`,
	`jq -rn '"config" + ".json"'`, `jq -rn '[".", "doc", "a"] | join("/")'`, `sed '$a\footer' README`,
	`sed -n '/start/,/end/p' README`, `cat doc/$(echo a)`, `x=$(date +%s); echo $x`, `echo ".ssh is where keys live"`,
	`cat $(echo doc)/a`, `echo README; echo doc/a`, `printf '\u00e9t\u00e9\n'`, `seq -s ' ' 1 3`,
	`grep -e readme -r doc`, `sort -t: -k2 README`, `printf '%(%F)T\n'`, `printf '%(%Y-%m-%d)T %s\n' -1 done`,
	`git commit -m "fix ~/.ssh/config handling" --dry-run; true`, `sed '1i see ~/.ssh/config' README`,
	`awk 'BEGIN{print "see ~/.ssh/config"}'`, `echo 'he said "see ~/.ssh/config"'`,
}

// canaryRound107NotSecretAsked print no key and are not asked about as a
// secret read (they may ask for another reason: a write to a path only
// known when the line runs).
var canaryRound107NotSecretAsked = []string{
	`mkdir -p backup-$(date +%F)`, `tar czf backup-$(date +%Y%m%d).tgz doc`, `date +%F | xargs mkdir -p`,
}

// TestCanaryRound107 checks that each line of round 107 prints the key in
// real bash and asks in a project that holds no link, and that the
// ordinary lines print none and stay allowed (or at least are not taken
// for secret reads).
func TestCanaryRound107(t *testing.T) {
	t.Parallel()
	home, wd := unlinkedFixture(t)
	decide := secretDecider(t, home, wd)
	for _, lines := range canaryRound107 {
		wantPrintedAndAsked(t, decide, lines, nil)
	}
	wantQuietAndAllowed(t, decide, canaryRound107Ordinary)
	for _, line := range canaryRound107NotSecretAsked {
		if v := decide(line); v.RuleID == permission.RuleBashSecretRead {
			t.Errorf("ordinary line %q: asked as a secret read (%s)", line, v.Reason)
		}
	}
}
