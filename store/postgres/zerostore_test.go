package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// Every method of a zero Store (one not made by Open) that returns an
// error, a nil *Store's too, fails with postgres.ErrNotOpen instead of
// panicking on the Store's missing pool: the Project, Checkpointer and
// stores it would hand out among them, so that none of theirs is reached.
// No database is needed: nothing may be reached.
func TestAZeroStoreFailsWithErrNotOpen(t *testing.T) {
	for _, recv := range []any{&postgres.Store{}, (*postgres.Store)(nil)} {
		v := reflect.ValueOf(recv)
		for i := range v.NumMethod() {
			m := v.Type().Method(i)
			if m.Name == "Close" || m.Type.NumOut() == 0 || m.Type.Out(m.Type.NumOut()-1) != reflect.TypeFor[error]() {
				continue // Close is TestZeroValueCloseIsHarmless's; the rest say nothing of a database
			}
			t.Run(fmt.Sprintf("%T.%s", recv, m.Name), func(t *testing.T) {
				err := callZero(v.Method(i))
				if !errors.Is(err, postgres.ErrNotOpen) {
					t.Errorf("err = %v, want postgres.ErrNotOpen", err)
				}
			})
		}
	}
}

// callZero calls f with a background context, "s1" for every string and
// zero values for the rest, and returns its last result, an error, or the
// panic it ended with.
func callZero(f reflect.Value) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	var args []reflect.Value
	for i := range f.Type().NumIn() {
		switch in := f.Type().In(i); {
		case in == reflect.TypeFor[context.Context]():
			args = append(args, reflect.ValueOf(context.Background()))
		case in.Kind() == reflect.String:
			args = append(args, reflect.ValueOf("s1").Convert(in))
		default:
			args = append(args, reflect.Zero(in))
		}
	}
	out := f.Call(args)
	e, _ := out[len(out)-1].Interface().(error)
	return e
}

// A lease released twice, the second time concurrently with itself and
// after another process took the session, returns nil each time and ends
// nothing of the other holder's: the session stays busy for a third.
func TestALeaseReleasedAgainLeavesTheNextHoldersLease(t *testing.T) {
	schema := freshSchema(t)
	opts := postgres.Options{Schema: schema, LeaseTTL: 20 * time.Second}
	first, second, third := mpProject(t, openStore(t, opts)), mpProject(t, openStore(t, opts)), mpProject(t, openStore(t, opts))
	ctx := t.Context()
	l, err := first.Acquire(ctx, "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	next, err := second.Acquire(ctx, "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatalf("Acquire after the release: %v", err)
	}
	defer next.Release(context.Background())
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if err := l.Release(ctx); err != nil {
				t.Errorf("second Release: %v", err)
			}
		})
	}
	wg.Wait()
	if _, err := third.Acquire(ctx, "s1", postgres.LeaseOptions{}); !errors.Is(err, postgres.ErrBusy) {
		t.Fatalf("Acquire while the second holder has it = %v, want ErrBusy", err)
	}
}
