package postgres_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// The checks after a lost reply share one connection of their own: the
// Store holds at most one more than Options.MaxConns, as documented. Each
// check dialled its own, so that writes whose replies a network blip lost
// together held as many more connections as there were writes (here two
// truncations whose COMMITs still run when their connections are cut,
// and a read on the pool meanwhile: three connections for MaxConns 1).
func TestChecksAfterLostRepliesShareOneConnection(t *testing.T) {
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: 8 * time.Second, MaxConns: 1})
	schema := st.Schema()
	p := mpProject(t, st)
	cp := p.Checkpointer()
	appendN(t, p, "s1", 4)
	appendN(t, p, "s2", 4)
	slowCommits(t, schema, "sessions", "UPDATE", 1500*time.Millisecond)
	proxy.DropCancels(true)
	errs := make(chan error, 2)
	for _, id := range []string{"s1", "s2"} {
		proxy.CutAfterRequest([]byte("commit\x00"))
		go func() { errs <- cp.Truncate(t.Context(), id, 1, 4) }()
		time.Sleep(300 * time.Millisecond) // its COMMIT went out, and was cut
	}
	if _, err := cp.Head(t.Context(), "s1"); err != nil {
		t.Fatal(err)
	}
	most := 0
	for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		most = max(most, postgres.OpenConns(st))
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("Truncate = %v; want nil (it committed)", err)
		}
	}
	if most > 2 {
		t.Errorf("the Store held %d connections while its checks ran; want at most MaxConns+1 = 2", most)
	}
}
