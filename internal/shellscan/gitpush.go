package shellscan

import "strings"

// gitPushDestroys says why a git push may delete or rewrite what the remote
// holds ("" when it cannot): --delete, --mirror and --prune remove remote
// refs, --force and a refspec beginning with + overwrite them, and a refspec
// with nothing before its colon deletes one. The commits a deleted or
// rewritten ref held may exist nowhere else, and git cannot bring them
// back from this clone, so such a push asks, as gh's deletions do.
// --force-with-lease and --force-if-includes stay allowed: they refuse to
// overwrite commits this clone has not fetched. An operand known only when
// the line runs may be any refspec.
func gitPushDestroys(args []word) string {
	for _, a := range args {
		t := a.text
		if a.dynamic {
			return "git push of a refspec known only when the line runs may delete or overwrite a remote branch"
		}
		switch {
		case t == "--":
			continue
		case strings.HasPrefix(t, "--"):
			name, _, _ := strings.Cut(strings.TrimPrefix(t, "--"), "=")
			// git takes any unambiguous abbreviation of a long option.
			for _, d := range []string{"delete", "mirror", "prune", "force"} {
				if len(name) >= 2 && strings.HasPrefix(d, name) {
					return "git push --" + clipName(name) + " may delete or overwrite branches of the remote"
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			if strings.ContainsAny(t[1:], "fd") {
				return "git push " + clipName(t) + " may delete or overwrite branches of the remote"
			}
		default:
			// Any operand may be a refspec: --repo=origin makes the
			// first one a refspec too, and no repository's name or URL
			// begins with + or :.
			if strings.HasPrefix(t, "+") || strings.HasPrefix(t, ":") {
				return "git push " + clipName(t) + " deletes or overwrites a branch of the remote"
			}
		}
	}
	return ""
}
