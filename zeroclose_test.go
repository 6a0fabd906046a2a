package liteagent_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/audit"
	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/subagent"
	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

// zeroClosers lists, as nil pointers, the exported types of the public
// packages that have a Close, Release or Stop method (see
// TestZeroValueCloseIsHarmless).
var zeroClosers = []any{
	(*liteagent.Agent)(nil),
	(*mcphost.Host)(nil),
	(*subagent.Pool)(nil),
	(*postgres.Store)(nil),
	(*postgres.Lease)(nil),
	(*audit.Log)(nil),
	(*bash.Background)(nil),
}

// TestZeroValueCloseIsHarmless calls every Close, Release and Stop method
// of the types in zeroClosers on a zero value and on a nil pointer (what a
// failed constructor returns, so that `defer x.Close()` after it is safe)
// twice, and checks that none panics or returns an error.
func TestZeroValueCloseIsHarmless(t *testing.T) {
	for _, nilPtr := range zeroClosers {
		typ := reflect.TypeOf(nilPtr)
		found := false
		for _, name := range []string{"Close", "Release", "Stop"} {
			m, ok := typ.MethodByName(name)
			if !ok {
				continue
			}
			found = true
			for _, kind := range []string{"zero", "nil"} {
				recv := reflect.ValueOf(nilPtr)
				if kind == "zero" {
					recv = reflect.New(typ.Elem())
				}
				t.Run(fmt.Sprintf("%s.%s/%s", typ.Elem(), name, kind), func(t *testing.T) {
					for i := range 2 {
						if err := callRecovering(m, recv); err != nil {
							t.Errorf("call %d: %v", i+1, err)
						}
					}
				})
			}
		}
		if !found {
			t.Errorf("%s has no Close, Release or Stop method", typ)
		}
	}
}

// TestZeroClosersListsEveryCloser checks that zeroClosers names every
// exported type of the public packages with a Close, Release or Stop
// method, found by parsing the sources, so that a new one cannot escape
// TestZeroValueCloseIsHarmless by not being listed.
func TestZeroClosersListsEveryCloser(t *testing.T) {
	module := reflect.TypeFor[liteagent.Agent]().PkgPath()
	listed := map[string]bool{}
	for _, nilPtr := range zeroClosers {
		typ := reflect.TypeOf(nilPtr).Elem()
		listed[typ.PkgPath()+"."+typ.Name()] = true
	}
	found := map[string]bool{}
	err := walkPublic(".", token.NewFileSet(), func(dir string, f *ast.File) {
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok || d.Recv == nil || !exportedReceiver(d) {
				continue
			}
			switch d.Name.Name {
			case "Close", "Release", "Stop":
			default:
				continue
			}
			recv := d.Recv.List[0].Type
			if s, ok := recv.(*ast.StarExpr); ok {
				recv = s.X
			}
			id, ok := recv.(*ast.Ident)
			if !ok {
				t.Errorf("%s.%s: a receiver this check does not read", dir, d.Name.Name)
				continue
			}
			pkg := module
			if dir != "." {
				pkg += "/" + dir
			}
			found[pkg+"."+id.Name] = true
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range found {
		if !listed[name] {
			t.Errorf("%s has a Close, Release or Stop method but is not in zeroClosers", name)
		}
	}
	if len(found) == 0 {
		t.Error("no closer found: the walk saw nothing")
	}
}

// callRecovering calls method m on recv with a background context for a
// context argument, and returns the panic or the error it ended with.
func callRecovering(m reflect.Method, recv reflect.Value) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	args := []reflect.Value{recv}
	for i := 1; i < m.Type.NumIn(); i++ {
		in := m.Type.In(i)
		if in == reflect.TypeFor[context.Context]() {
			args = append(args, reflect.ValueOf(context.Background()))
			continue
		}
		args = append(args, reflect.Zero(in))
	}
	for _, out := range m.Func.Call(args) {
		if e, ok := out.Interface().(error); ok && e != nil {
			return e
		}
	}
	return nil
}
