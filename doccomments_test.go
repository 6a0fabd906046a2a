package liteagent_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportedNamesHaveDocComments walks the module's public packages (not
// internal/, testdata/, commands or tests) and fails for every exported
// function, method of an exported type, type, constant or variable without a
// doc comment; a constant or variable may take its group's. It only parses,
// so it costs well under a second.
func TestExportedNamesHaveDocComments(t *testing.T) {
	missing, err := undocumented(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Errorf("no doc comment: %s", m)
	}
}

// A comment group of directives alone (//go:noinline, //lint:ignore) is no
// doc comment: go doc shows nothing for the name. The check must say so, as
// for a name without any comment, in a package of its own (the walk finds
// new packages).
func TestDocCommentCheckTakesNoDirectiveForADoc(t *testing.T) {
	root := t.TempDir()
	src := `package p

//go:noinline
func Directive() {}

//lint:ignore U1000 kept
type Ignored struct{}

//go:generate true
var Generated = 1

func Bare() {}

// Documented says so.
//
//go:noinline
func Documented() {}
`
	if err := os.MkdirAll(filepath.Join(root, "p"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "p", "p.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	missing, err := undocumented(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range missing {
		names = append(names, m[strings.LastIndex(m, " ")+1:])
	}
	if got, want := strings.Join(names, ","), "Directive,Ignored,Generated,Bare"; got != want {
		t.Errorf("undocumented names %s, want %s (%q)", got, want, missing)
	}
}

// undocumented returns, as "file:line:col: what", the exported names of the
// public packages under root that have no doc comment (see
// TestExportedNamesHaveDocComments).
func undocumented(root string) ([]string, error) {
	fset := token.NewFileSet()
	var missing []string
	miss := func(pos token.Pos, what string) {
		missing = append(missing, fset.Position(pos).String()+": "+what)
	}
	err := walkPublic(root, fset, func(_ string, f *ast.File) {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if noDoc(d.Doc) && d.Name.IsExported() && exportedReceiver(d) {
					miss(d.Pos(), "func "+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() && noDoc(s.Doc) && noDoc(d.Doc) {
							miss(s.Pos(), "type "+s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && noDoc(s.Doc) && noDoc(s.Comment) && noDoc(d.Doc) {
								miss(n.Pos(), n.Name)
							}
						}
					}
				}
			}
		}
	})
	return missing, err
}

// walkPublic parses, with comments, every non-test Go file of the public
// packages under root (not internal/, testdata/, hidden or underscored
// directories, nor commands) and calls fn with the file's directory,
// relative to root, and its syntax.
func walkPublic(root string, fset *token.FileSet, fn func(dir string, f *ast.File)) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "internal" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		dir, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(dir), f)
		return nil
	})
}

// noDoc reports whether g is no doc comment: none, or directives alone
// (CommentGroup.Text drops them).
func noDoc(g *ast.CommentGroup) bool { return strings.TrimSpace(g.Text()) == "" }

// exportedReceiver reports whether d is a function or a method of an
// exported type (a method of an unexported type is not in the docs).
func exportedReceiver(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return true
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, ok := t.(*ast.Ident)
	return !ok || id.IsExported()
}
