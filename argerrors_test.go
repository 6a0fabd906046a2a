package liteagent_test

import (
	"errors"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
)

// TestArgumentErrorsAreTyped checks that the refusals of Steer, Subscribe,
// SubscribeAll and a bad LITE_AGENT_CLEANUP_DAYS can be told apart with
// errors.Is and errors.As, with their texts unchanged.
func TestArgumentErrorsAreTyped(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	for _, text := range []string{"", " \n\t"} {
		if err := a.Steer(text); !errors.Is(err, liteagent.ErrEmptySteer) || err.Error() != "liteagent: Steer needs text" {
			t.Errorf("Steer(%q) = %v, want ErrEmptySteer", text, err)
		}
	}
	if _, err := a.Subscribe(nil); !errors.Is(err, liteagent.ErrNilSubscriber) || err.Error() != "liteagent: Subscribe needs a function" {
		t.Errorf("Subscribe(nil) = %v, want ErrNilSubscriber", err)
	}
	if _, err := a.SubscribeAll(nil); !errors.Is(err, liteagent.ErrNilSubscriber) {
		t.Errorf("SubscribeAll(nil) = %v, want ErrNilSubscriber", err)
	}

	t.Setenv(liteagent.CleanupDaysEnv, "soon")
	opts := f.options(nil)
	opts.Storage.Namespace = "" // the variable is read for the default namespace only
	_, err := liteagent.New(t.Context(), opts)
	oe, ok := errors.AsType[*liteagent.OptionError](err)
	if !ok || oe.Field != "Cleanup.MaxAge" || err.Error() != `liteagent: LITE_AGENT_CLEANUP_DAYS="soon": want a whole number of days, 0 to turn the sweep off` {
		t.Errorf("New with %s=soon = %v, want an *OptionError for Cleanup.MaxAge", liteagent.CleanupDaysEnv, err)
	}
}
