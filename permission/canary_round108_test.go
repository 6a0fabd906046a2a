//go:build linux

package permission_test

import "testing"

// canaryRound108 read names the line made in the project and changed on
// their way to a reader of names without a filter round 107 knew: a find
// -printf format made of directives alone (%H%p prints
// ../home/.ssh/id_ed25519 for ./home/.ssh/id_ed25519), spelled in octal
// escapes (\056\056\057) or split over two actions, sort --files0-from
// reading the names it is fed, and xargs taking the quotes and
// backslashes of a name the line made ('.\.', '."".') out of it. Each
// printed the key in real bash, in a project without links, and was
// allowed.
var canaryRound108 = []string{
	`mkdir -p home/.ssh; touch home/.ssh/id_ed25519; find . -path ./home/.ssh/id_ed25519 -printf '%H%p\n' | xargs cat`,
	`mkdir -p home/.ssh; touch home/.ssh/id_ed25519; cat $(find . -name id_ed25519 -printf '%H%p\n')`,
	`mkdir -p home/.ssh; touch home/.ssh/id_ed25519; find . -name id_ed25519 -printf %H -print | xargs cat`,
	`mkdir -p home/.ssh; touch home/.ssh/id_ed25519; find . -name id_ed25519 -fprintf o %H -fprint o; xargs cat < o`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f -printf '\056\056\057home\057%P\n' | xargs cat`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; cat $(find h -type f -printf '\056\056\057home\057%P\n')`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f -printf ../home/ -printf '%P\n' | xargs cat`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; cat $(find h -type f -printf ../home/ -printf '%P\n')`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f | sed s,^h,../home, | tr '\n' '\0' | sort --files0-from=-`,
	`mkdir -p '.\.'/home/.ssh; touch '.\.'/home/.ssh/id_ed25519; find . -type f -path '*ssh*' | xargs cat`,
	`mkdir -p '.""'./home/.ssh; touch '.""'./home/.ssh/id_ed25519; find . -type f -name 'id_*' | xargs cat`,
	`mkdir -p "..''"/home/.ssh; touch "..''"/home/.ssh/id_ed25519; find . -type f -name 'id_*' | xargs cat`,
	`mkdir -p '.\.'/home/.ssh; touch '.\.'/home/.ssh/id_ed25519; find . -type f -name 'id_*' > l; xargs cat < l`,
	`mkdir -p '.\.'/home/.ssh; touch '.\.'/home/.ssh/id_ed25519; xargs cat <<< "$(find . -type f -name 'id_*')"`,
}

// round108Ordinary print names as they are, or read quotes and
// backslashes that name nothing secret; they stay allowed.
var round108Ordinary = []string{
	`find doc -type f -printf '%p\n' | xargs cat`, `find doc -type f -printf '%p\0' | xargs -0 cat`,
	`find . -name '*.md' -print0 | sort -z | xargs -0 wc -l`, `find doc -type f -printf '%P\n' | sed 's,^,doc/,' | xargs cat`,
	`find doc -type f | sort -r | xargs cat`, `find doc -type f -print0 | sort --files0-from=- -z | head`,
	`grep -rn 'a\.b' doc`, `sed -i 's/\.\.\/x/y/' doc/a`, `echo "it's" | xargs echo`,
	`find . -name '*.md' | xargs grep -l "TODO"`, `date +%Y%m%d`, `find doc -type f -printf '%s %p\n'`,
}

// TestCanaryRound108 checks that each line prints the key in real bash
// and asks, and that the ordinary lines stay allowed, in a project
// without links.
func TestCanaryRound108(t *testing.T) {
	t.Parallel()
	checkUnlinkedRound(t, canaryRound108, nil, round108Ordinary)
}
