package postgres_test

import (
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A *BusyError, a session another holder leases, matches both ErrBusy
// and session.ErrLeased, which the root package asks for to tell it from
// a lease that failed otherwise (an unreachable database).
func TestABusyLeaseIsLeased(t *testing.T) {
	var err error = &postgres.BusyError{SessionID: "x", Holder: "h"}
	if !errors.Is(err, session.ErrLeased) || !errors.Is(err, postgres.ErrBusy) {
		t.Errorf("%v: ErrLeased %v, ErrBusy %v", err, errors.Is(err, session.ErrLeased), errors.Is(err, postgres.ErrBusy))
	}
}
