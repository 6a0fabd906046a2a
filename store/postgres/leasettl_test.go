package postgres_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// The lease a TTL that is not a whole number of milliseconds writes lives
// at least that TTL on the server: it was cut to whole milliseconds
// (1 s here for 1.000999 s), shorter than the bound the Store keeps on
// the client side, and an Acquire whose lost reply was checked and read
// back late within that bound could find its own row already expired
// (see leaseLanded); so could a renewal, a third of the TTL after the
// last, find it taken. A trigger records each row's expiry less the
// server's time of its transaction.
func TestALeaseLivesItsWholeTTLOnTheServer(t *testing.T) {
	const ttl = time.Second + 999*time.Microsecond
	st := openStore(t, postgres.Options{LeaseTTL: ttl})
	schema := st.Schema()
	conn := pgtest.Connect(t)
	if _, err := conn.Exec(t.Context(), fmt.Sprintf(`CREATE TABLE %[1]s.lease_lengths (length interval);
		CREATE FUNCTION %[1]s.lease_length() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN INSERT INTO %[1]s.lease_lengths VALUES (NEW.expires - now()); RETURN NEW; END $$;
		CREATE TRIGGER lease_length BEFORE INSERT OR UPDATE ON %[1]s.leases
		FOR EACH ROW WHEN (NEW.expires > 'epoch') EXECUTE FUNCTION %[1]s.lease_length()`, schema)); err != nil {
		t.Fatal(err)
	}
	p, err := st.Project(storage.Encoding{ProjectID: "ttl"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A renewal's row too (a third of the TTL on, later under load).
	for deadline := time.Now().Add(10 * time.Second); ; {
		var n int
		if err := conn.QueryRow(t.Context(), fmt.Sprintf(`SELECT count(*) FROM %s.lease_lengths`, schema)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := l.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(t.Context(), fmt.Sprintf(`SELECT (extract(epoch FROM length) * 1000000)::bigint FROM %s.lease_lengths`, schema))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var us int64
		if err := rows.Scan(&us); err != nil {
			t.Fatal(err)
		}
		n++
		if d := time.Duration(us) * time.Microsecond; d < ttl {
			t.Errorf("a lease row written to live %v on the server; the TTL is %v", d, ttl)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 2 {
		t.Errorf("%d lease rows written (the Acquire's, a renewal's); want 2", n)
	}
}
