package task

import (
	"testing"
)

// renderFixture builds a list with every status, resolved and unresolved
// dependencies, an owner and a subject in another script.
func renderFixture(t *testing.T, s Store) {
	t.Helper()
	for _, subj := range []string{"Design schema", "Write migration", "Review migration", "Ship it", "Flaky test", "Old idea", "Translate docs (日本語)"} {
		mustCreate(t, s, subj)
	}
	mustUpdate(t, s, "1", UpdateInput{Status: ptr(Completed)})
	mustUpdate(t, s, "2", UpdateInput{AddBlockedBy: []string{"1"}, Status: ptr(InProgress), Owner: ptr("alice")})
	mustUpdate(t, s, "3", UpdateInput{AddBlockedBy: []string{"2", "1"}})
	mustUpdate(t, s, "4", UpdateInput{AddBlockedBy: []string{"3", "2"}, Owner: ptr("bob")})
	mustUpdate(t, s, "5", UpdateInput{Status: ptr(Failed)})
	mustUpdate(t, s, "6", UpdateInput{Status: ptr(Cancelled)})
	mustUpdate(t, s, "7", UpdateInput{Status: ptr(Review)})
}

func TestRenderFormat(t *testing.T) {
	cases := []struct {
		golden string
		opts   RenderOptions
	}{
		{"render-all.golden", RenderOptions{}},
		{"render-active.golden", RenderOptions{ActiveOnly: true}},
	}
	forEachStore(t, func(t *testing.T, s Store) {
		renderFixture(t, s)
		for _, c := range cases {
			got, err := s.Render(t.Context(), c.opts)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.golden, []byte(got))
		}
	})
}

func TestEmptyListRendersAsEmptyString(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		for _, opts := range []RenderOptions{{}, {ActiveOnly: true}} {
			if got, err := s.Render(t.Context(), opts); got != "" || err != nil {
				t.Fatalf("Render(%+v) = %q, %v", opts, got, err)
			}
		}
		mustCreate(t, s, "done")
		mustUpdate(t, s, "1", UpdateInput{Status: ptr(Completed)})
		if got, err := s.Render(t.Context(), RenderOptions{ActiveOnly: true}); got != "" || err != nil {
			t.Fatalf("active render of a finished list = %q, %v", got, err)
		}
	})
}

func TestRenderListsOnlyUnresolvedDependencies(t *testing.T) {
	tasks := []Task{
		{ID: "1", Subject: "a", Status: Completed},
		{ID: "2", Subject: "b", Status: Cancelled},
		{ID: "3", Subject: "c", Status: Pending, BlockedBy: []string{"1", "2", "9"}, Owner: "o"},
	}
	want := "[x] #1 a (completed)\n[-] #2 b (cancelled)\n[ ] #3 c (pending) [blockedBy: 2, 9] @o"
	if got := render(tasks, RenderOptions{}); got != want {
		t.Fatalf("render = %q, want %q", got, want)
	}
}

func TestStatusMarkers(t *testing.T) {
	for st, want := range map[Status]string{
		Pending: "[ ]", InProgress: "[>]", Review: "[?]", Completed: "[x]", Failed: "[!]", Cancelled: "[-]",
	} {
		if got := st.Marker(); got != want {
			t.Errorf("%s marker = %q, want %q", st, got, want)
		}
	}
}
