// Package templatecheck checks a template's field and method names
// against the Go type of the data it is executed with, before it is ever
// executed: every branch, range and template call is followed with the
// type its dot has there, so a misspelled field in a branch no test takes
// is an error all the same.
//
// The check knows text/template's rules for fields, methods, map keys,
// variables, pipelines, range, with and template calls, and the types of
// the builtin functions. Where a type cannot be known before execution
// (an interface, a function returning one, and/or over mixed types) the
// check goes no further down that value: it errs only where execution
// would.
package templatecheck

import (
	"errors"
	"fmt"
	"reflect"
	"text/template/parse"
)

// Lookup returns the parse tree of the template of that name, or nil.
type Lookup func(name string) *parse.Tree

// Check checks the tree root, and every template it calls (found by
// lookup), with dot of type dot; funcs are the functions the templates
// were parsed with (their types give their results). It returns every
// mistake found, each with its template, line and column.
func Check(root *parse.Tree, lookup Lookup, dot reflect.Type, funcs map[string]any) error {
	c := &checker{lookup: lookup, funcs: funcs, done: map[call]bool{}}
	c.tree(root, dot)
	return errors.Join(c.errs...)
}

// unknown is a type the check cannot know (an interface's dynamic type):
// anything may be done with it.
var unknown reflect.Type = nil

// noData is the dot of a template called without a pipeline.
type noData struct{}

var (
	noDataType = reflect.TypeFor[noData]()
	boolType   = reflect.TypeFor[bool]()
	intType    = reflect.TypeFor[int]()
	floatType  = reflect.TypeFor[float64]()
	stringType = reflect.TypeFor[string]()
	errorType  = reflect.TypeFor[error]()
)

type call struct {
	name string
	dot  reflect.Type
}

type checker struct {
	lookup Lookup
	funcs  map[string]any
	done   map[call]bool
	errs   []error
}

// scope is the variables in scope: $ and those declared, innermost last.
type scope struct {
	names []string
	types []reflect.Type
}

func (s *scope) push(name string, t reflect.Type) {
	s.names = append(s.names, name)
	s.types = append(s.types, t)
}

func (s *scope) mark() int    { return len(s.names) }
func (s *scope) pop(mark int) { s.names, s.types = s.names[:mark], s.types[:mark] }
func (s *scope) set(name string, t reflect.Type) {
	for i := len(s.names) - 1; i >= 0; i-- {
		if s.names[i] == name {
			s.types[i] = t
			return
		}
	}
}

func (s *scope) get(name string) (reflect.Type, bool) {
	for i := len(s.names) - 1; i >= 0; i-- {
		if s.names[i] == name {
			return s.types[i], true
		}
	}
	return unknown, false
}

// walker checks one template's tree with one type of dot.
type walker struct {
	*checker
	t    *parse.Tree
	vars scope
}

func (c *checker) tree(t *parse.Tree, dot reflect.Type) {
	k := call{t.Name, dot}
	if c.done[k] {
		return
	}
	c.done[k] = true
	w := &walker{checker: c, t: t}
	w.vars.push("$", dot)
	if t.Root != nil {
		w.list(t.Root, dot)
	}
}

func (w *walker) errorf(n parse.Node, format string, args ...any) {
	loc, _ := w.t.ErrorContext(n)
	w.errs = append(w.errs, fmt.Errorf("%s: %s", loc, fmt.Sprintf(format, args...)))
}

func (w *walker) list(l *parse.ListNode, dot reflect.Type) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		w.node(n, dot)
	}
}

func (w *walker) node(n parse.Node, dot reflect.Type) {
	switch n := n.(type) {
	case *parse.ActionNode:
		w.pipe(n.Pipe, dot)
	case *parse.IfNode:
		w.branch(&n.BranchNode, dot, false)
	case *parse.WithNode:
		w.branch(&n.BranchNode, dot, true)
	case *parse.RangeNode:
		w.rangeNode(n, dot)
	case *parse.TemplateNode:
		arg := noDataType
		if n.Pipe != nil {
			arg = w.pipe(n.Pipe, dot)
		}
		t := w.lookup(n.Name)
		if t == nil {
			w.errorf(n, "no template %q", n.Name)
			return
		}
		w.tree(t, arg)
	case *parse.ListNode:
		w.list(n, dot)
	case *parse.TextNode, *parse.CommentNode, *parse.BreakNode, *parse.ContinueNode:
	default:
		w.errorf(n, "unexpected node %s", n)
	}
}

// branch checks if and with: with sets dot to the pipeline's value in its
// first list.
func (w *walker) branch(b *parse.BranchNode, dot reflect.Type, with bool) {
	m := w.vars.mark()
	t := w.pipe(b.Pipe, dot)
	inner := dot
	if with {
		inner = t
	}
	w.list(b.List, inner)
	w.vars.pop(m)
	w.list(b.ElseList, dot)
}

func (w *walker) rangeNode(r *parse.RangeNode, dot reflect.Type) {
	m := w.vars.mark()
	// The pipeline's declarations take the key and the element, not the
	// pipeline's value: declare them here, not in pipe.
	decl := r.Pipe.Decl
	r.Pipe.Decl = nil
	t := w.pipe(r.Pipe, dot)
	r.Pipe.Decl = decl
	key, elem := unknown, unknown
	if t != unknown {
		switch t := indirect(t); t.Kind() {
		case reflect.Slice, reflect.Array:
			key, elem = intType, t.Elem()
		case reflect.Map:
			key, elem = t.Key(), t.Elem()
		case reflect.Chan:
			key, elem = t.Elem(), t.Elem()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			key, elem = t, t
		case reflect.Func:
		case reflect.Interface:
		default:
			w.errorf(r, "range can't iterate over %s", t)
		}
	}
	declared := []reflect.Type{elem}
	if len(decl) == 2 {
		declared = []reflect.Type{key, elem}
	}
	for i, v := range decl {
		if r.Pipe.IsAssign {
			w.vars.set(v.Ident[0], declared[i])
		} else {
			w.vars.push(v.Ident[0], declared[i])
		}
	}
	w.list(r.List, elem)
	w.vars.pop(m)
	w.list(r.ElseList, dot)
}

// pipe checks a pipeline and returns the type of its value; its
// declarations stay in scope until the enclosing block ends.
func (w *walker) pipe(p *parse.PipeNode, dot reflect.Type) reflect.Type {
	if p == nil {
		return unknown
	}
	var t reflect.Type
	for _, c := range p.Cmds {
		t = w.command(c, dot)
	}
	for _, v := range p.Decl {
		if p.IsAssign {
			w.vars.set(v.Ident[0], t)
		} else {
			w.vars.push(v.Ident[0], t)
		}
	}
	return t
}

// command checks one command of a pipeline and returns its value's type.
func (w *walker) command(c *parse.CommandNode, dot reflect.Type) reflect.Type {
	args := make([]reflect.Type, len(c.Args)-1)
	for i, a := range c.Args[1:] {
		args[i] = w.arg(a, dot)
	}
	if id, ok := c.Args[0].(*parse.IdentifierNode); ok {
		return w.function(id, args)
	}
	return w.arg(c.Args[0], dot)
}

// arg checks an operand and returns its type.
func (w *walker) arg(n parse.Node, dot reflect.Type) reflect.Type {
	switch n := n.(type) {
	case *parse.DotNode:
		return dot
	case *parse.NilNode:
		return unknown
	case *parse.FieldNode:
		return w.fields(n, dot, n.Ident)
	case *parse.ChainNode:
		return w.fields(n, w.arg(n.Node, dot), n.Field)
	case *parse.VariableNode:
		return w.variable(n)
	case *parse.PipeNode:
		m := w.vars.mark()
		defer w.vars.pop(m)
		return w.pipe(n, dot)
	case *parse.IdentifierNode:
		return w.function(n, nil)
	case *parse.BoolNode:
		return boolType
	case *parse.StringNode:
		return stringType
	case *parse.NumberNode:
		switch {
		case n.IsInt:
			return intType
		case n.IsFloat:
			return floatType
		}
		return unknown
	}
	w.errorf(n, "unexpected operand %s", n)
	return unknown
}

func (w *walker) variable(v *parse.VariableNode) reflect.Type {
	t, ok := w.vars.get(v.Ident[0])
	if !ok {
		w.errorf(v, "undefined variable %s", v.Ident[0])
		return unknown
	}
	return w.fields(v, t, v.Ident[1:])
}

// fields follows a chain of field, method or map-key names from a value
// of type t.
func (w *walker) fields(n parse.Node, t reflect.Type, names []string) reflect.Type {
	for _, name := range names {
		if t == unknown {
			return unknown
		}
		t = w.field(n, t, name)
	}
	return t
}

func (w *walker) field(n parse.Node, t reflect.Type, name string) reflect.Type {
	if t.Kind() == reflect.Interface {
		if m, ok := t.MethodByName(name); ok {
			return result(m.Type)
		}
		return unknown
	}
	if m, ok := reflect.PointerTo(t).MethodByName(name); ok {
		return result(m.Type)
	}
	s := t
	for s.Kind() == reflect.Pointer {
		s = s.Elem()
		if m, ok := reflect.PointerTo(s).MethodByName(name); ok {
			return result(m.Type)
		}
	}
	switch s.Kind() {
	case reflect.Struct:
		f, ok := s.FieldByName(name)
		switch {
		case !ok:
			w.errorf(n, "can't evaluate field %s in type %s", name, t)
			return unknown
		case !f.IsExported():
			w.errorf(n, "%s is an unexported field of struct type %s", name, t)
			return unknown
		}
		return f.Type
	case reflect.Map:
		if s.Key().Kind() != reflect.String {
			w.errorf(n, "can't evaluate field %s in type %s: its key is not a string", name, t)
			return unknown
		}
		return s.Elem()
	}
	w.errorf(n, "can't evaluate field %s in type %s", name, t)
	return unknown
}

// result is a function's or method's value type: its first result.
func result(f reflect.Type) reflect.Type {
	if f.NumOut() == 0 || f.Out(0) == errorType {
		return unknown
	}
	if t := f.Out(0); t.Kind() != reflect.Interface {
		return t
	}
	return unknown
}

// function is the type of a call to a named function with arguments of
// types args.
func (w *walker) function(n *parse.IdentifierNode, args []reflect.Type) reflect.Type {
	if f, ok := w.funcs[n.Ident]; ok {
		return result(reflect.TypeOf(f))
	}
	switch n.Ident {
	case "eq", "ne", "lt", "le", "gt", "ge", "not":
		return boolType
	case "len":
		return intType
	case "print", "printf", "println", "html", "js", "urlquery":
		return stringType
	case "slice":
		if len(args) > 0 {
			return args[0]
		}
		return unknown
	case "index":
		if len(args) == 0 {
			return unknown
		}
		t := args[0]
		for range args[1:] {
			if t == unknown {
				return unknown
			}
			switch t.Kind() {
			case reflect.Slice, reflect.Array, reflect.Map, reflect.Pointer:
				t = t.Elem()
			default:
				return unknown
			}
		}
		return t
	case "and", "or":
		// The value of one of the arguments: known when they are all of
		// one type.
		for _, t := range args {
			if t != args[0] {
				return unknown
			}
		}
		if len(args) > 0 {
			return args[0]
		}
		return unknown
	case "call":
		if len(args) > 0 && args[0] != unknown && args[0].Kind() == reflect.Func {
			return result(args[0])
		}
		return unknown
	}
	w.errorf(n, "function %q not defined", n.Ident)
	return unknown
}

// indirect is t with its pointers taken off.
func indirect(t reflect.Type) reflect.Type {
	for t != unknown && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
