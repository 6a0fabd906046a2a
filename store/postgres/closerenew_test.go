package postgres_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A lease still held when its Store is closed stops being renewed (it
// expires after its TTL, as Close says): its renewal went on, every third
// of the TTL, against the closed pool, a goroutine left until a Release
// that may never come. A Release after Close returns at once.
func TestCloseEndsTheRenewalOfLeasesStillHeld(t *testing.T) {
	schema := freshSchema(t)
	before := runtime.NumGoroutine()
	st, err := postgres.Open(t.Context(), pgtest.URL(t), postgres.Options{Schema: schema, LeaseTTL: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	l, err := mpProject(t, st).Acquire(t.Context(), "held", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	noGoroutinesLeft(t, before)
	start := time.Now()
	_ = l.Release(t.Context()) // the pool is closed: an error
	if d := time.Since(start); d > time.Second {
		t.Errorf("Release after Close took %v", d)
	}
}
