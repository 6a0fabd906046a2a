package shellscan

import "testing"

// A push that deletes or rewrites what the remote holds asks, as gh's and
// the cloud tools' deletions do: the remote's old commits may exist nowhere
// else. --force-with-lease and --force-if-includes stay allowed (they refuse
// to overwrite commits this clone has not seen), and so do plain pushes.
func TestGitPushThatDeletesOrRewritesAsks(t *testing.T) {
	opaque := []string{
		`git push origin --delete feature`, `git push --delete origin feature`, `git push -d origin x`,
		`git push origin -d x`, `git push --del origin x`, `git push origin :feature`, `git push origin :refs/heads/x`,
		`git push origin +main`, `git push origin +HEAD:main`, `git push origin main +dev`,
		`git push --force`, `git push -f`, `git push -f origin main`, `git push origin main -f`,
		`git push -qf origin main`, `git push --force origin main`, `git push --forc origin main`,
		`git push --mirror`, `git push --mirror origin`, `git push --prune origin`, `git push origin --prune 'refs/heads/*:refs/heads/*'`,
		`git push origin "$ref"`, `git push origin $(cat ref)`, `git push origin --force-with-lease --force main`,
		`git --no-pager push -f origin main`, `git push --no-verify --force origin main`,
	}
	clean := []string{
		`git push`, `git push origin main`, `git push origin HEAD:refs/heads/feature`, `git push --tags`,
		`git push --force-with-lease`, `git push --force-with-lease origin main`, `git push --force-with-lease=main:abc123 origin main`,
		`git push --force-if-includes --force-with-lease origin main`, `git push --no-force origin main`,
		`git push --dry-run origin main`, `git push --atomic origin main dev`, `git push -q origin main`,
		`git push --follow-tags origin main`, `git push origin v1.0`,
	}
	checkRT57Lines(t, opaque, clean)
}
