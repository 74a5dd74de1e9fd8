// Package strictyaml decodes YAML settings files strictly (unknown fields
// are errors, so is a second document after "---"; merge keys, anchors,
// tags, values written otherwise than the one way their type reads and
// control characters are refused, see check.go) and reports errors as
// file:line: message (a *fileerr.Error).
package strictyaml

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

// Decode decodes data into v, rejecting unknown fields and any document
// after the first (which yaml.v3 would otherwise ignore, even when it is
// invalid). name prefixes errors.
func Decode(name string, data []byte, v any) error {
	if bytes.HasPrefix(data, []byte("\uFEFF")) {
		return fileerr.New(name, 1, "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one")
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		line, msg := message(err)
		return fileerr.New(name, line, "%s", hint(msg))
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil // decoded above: cannot fail
		}
		return check(name, &doc, reflect.TypeOf(v), "")
	case err != nil:
		line, msg := message(err)
		return fileerr.New(name, line, "a second YAML document, which is not valid either (%s): a settings file holds one document; remove the \"---\" and what follows", msg)
	default:
		return fileerr.New(name, docStart(data, next.Line), "a second YAML document: a settings file holds one document; remove the \"---\" and what follows, or merge it into the first")
	}
}

// docStart finds the "---" line that starts the document whose first node
// is on line, or line itself.
func docStart(data []byte, line int) int {
	lines := strings.Split(string(data), "\n")
	for l := min(line, len(lines)); l >= 1; l-- {
		if strings.HasPrefix(lines[l-1], "---") {
			return l
		}
	}
	return line
}

// message turns yaml.v3's "yaml: line 3: …" into line 3 and "…"; errors
// without a line are put on line 1.
func message(err error) (int, string) {
	s := err.Error()
	if te, ok := err.(*yaml.TypeError); ok && len(te.Errors) > 0 {
		s = te.Errors[0]
	}
	s = strings.TrimSpace(strings.TrimPrefix(s, "yaml: "))
	if rest, ok := strings.CutPrefix(s, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				return n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	if s == "EOF" {
		s = "empty file"
	}
	return 1, s
}

// hint says what to do about the errors yaml.v3 reports most often.
func hint(msg string) string {
	if strings.HasPrefix(msg, "field ") && strings.Contains(msg, " not found in type ") {
		return msg + ": unknown fields are errors; remove it or fix its spelling (the README lists the fields)"
	}
	return msg
}

// Root parses data into a node tree for KeyLine; nil when it is not a
// YAML mapping.
func Root(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// KeyLine finds the line of the deepest existing key along path in the
// mapping n (its own line when the first key is missing, 1 for a nil n).
func KeyLine(n *yaml.Node, path ...string) int {
	if n == nil {
		return 1
	}
	line := n.Line
	for _, key := range path {
		if n.Kind != yaml.MappingNode {
			break
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line = n.Content[i].Line
				next = n.Content[i+1]
				break
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return line
}
