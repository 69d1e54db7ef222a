// Command decls prints, for each Go file named on the command line, the
// line range and name of every top-level declaration, so that
// scripts/coverage can say which function or function value an uncovered
// block belongs to. One JSON object per file on stdout:
//
//	{"file": PATH, "decls": [[FIRST_LINE, LAST_LINE, NAME], ...]}
//
// A method is named as Go writes its receiver, "(e *ForExpr) Value"; a
// function "getType"; a package-level variable "ElementFunc" (cty's
// functions are variables whose Type and Impl are function literals); an
// init function "init".
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"strings"
)

type fileDecls struct {
	File  string           `json:"file"`
	Decls [][3]interface{} `json:"decls"`
}

func main() {
	out := json.NewEncoder(os.Stdout)
	for _, path := range os.Args[1:] {
		fset := token.NewFileSet()
		// Line directives would move positions into the Ragel sources;
		// the coverage profile is taken from files without them.
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			fmt.Fprintln(os.Stderr, "decls:", err)
			os.Exit(1)
		}
		res := fileDecls{File: path, Decls: [][3]interface{}{}}
		line := func(p token.Pos) int { return fset.PositionFor(p, false).Line }
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				res.Decls = append(res.Decls, [3]interface{}{line(d.Pos()), line(d.End()), funcName(fset, d)})
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok {
						continue
					}
					names := make([]string, len(vs.Names))
					for i, n := range vs.Names {
						names[i] = n.Name
					}
					res.Decls = append(res.Decls, [3]interface{}{line(vs.Pos()), line(vs.End()), strings.Join(names, ", ")})
				}
			}
		}
		if err := out.Encode(res); err != nil {
			fmt.Fprintln(os.Stderr, "decls:", err)
			os.Exit(1)
		}
	}
}

// funcName is "Name" for a function, "(recv) Name" for a method.
func funcName(fset *token.FileSet, d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	field := d.Recv.List[0]
	var typ strings.Builder
	if err := printer.Fprint(&typ, fset, field.Type); err != nil {
		return d.Name.Name
	}
	recv := typ.String()
	if len(field.Names) > 0 {
		recv = field.Names[0].Name + " " + recv
	}
	return fmt.Sprintf("(%s) %s", recv, d.Name.Name)
}
