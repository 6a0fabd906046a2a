package shellscan

import "testing"

// gh api requests that change GitHub (a method other than GET, fields or
// --input, a graphql mutation) and gh repo delete were allowed at stop 58.
func TestG58GhRemoteWrites(t *testing.T) {
	checkRT57Lines(t, []string{
		"gh api -X DELETE repos/o/r", "gh api -XDELETE repos/o/r", "gh api --method POST repos/o/r/issues -f title=x",
		"gh api --method=PATCH repos/o/r", "gh api repos/o/r/issues -f title=x", "gh api repos/o/r/issues -ftitle=x",
		"gh api repos/o/r/issues -F title=x", "gh api repos/o/r/issues --field title=x",
		"gh api repos/o/r/issues --raw-field=title=x", "gh api repos/o/r --input x.json", "gh api repos/o/r --input=-",
		`gh api graphql -f query="mutation { x }"`, "gh api graphql -F query=@q.graphql", "gh api -X put repos/o/r",
		`gh api -H "X-HTTP-Method-Override: DELETE" repos/o/r`, "gh repo delete myrepo --yes", "gh repo delete",
	}, []string{
		"gh api repos/o/r", "gh api -XGET repos/o/r", "gh api -X GET search/issues -f q=x", "gh api -X head repos/o/r",
		"gh api --paginate repos/o/r/issues", "gh api graphql -f query=x", `gh api graphql -f query="{ viewer { login } }"`,
		"gh pr list", "gh repo view o/r",
	})
}
