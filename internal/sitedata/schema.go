package sitedata

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
)

// Paths of the JSON Schemas of the data files, relative to the site root.
const (
	RunSchema         = "data/schema/run.schema.json"
	LeaderboardSchema = "data/schema/leaderboard.schema.json"
)

// JSONSchema describes a Num in a schema: a number, or null for none.
func (Num) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "number"}, {Type: "null"}}}
}

// Schema is the JSON Schema (draft 2020-12) of a data file holding a value
// like v, reflected from its Go type: the json tags name the properties,
// fields without omitempty are required, jsonschema_description tags
// describe them, and no other property is allowed. The output is the same
// for the same type on every build.
func Schema(v any, title, description string) ([]byte, error) {
	r := &jsonschema.Reflector{Anonymous: true, ExpandedStruct: true, Namer: defName}
	s := r.Reflect(v)
	s.Title, s.Description = title, description
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	// Indented like every other data file, properties in field order, and
	// without encoding/json's HTML escapes (descriptions say "<id>").
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", " "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	out := buf.Bytes()
	for _, esc := range [][2]string{{`\u003c`, "<"}, {`\u003e`, ">"}, {`\u0026`, "&"}} {
		out = bytes.ReplaceAll(out, []byte(esc[0]), []byte(esc[1]))
	}
	return out, nil
}

// defName names a type's definition in a schema: its Go name, but for the
// types of the site's own packages (internal/site/...), which are named
// with a lower-case first letter whether Go exports them or not, so that
// a published schema does not change when a type moves between packages.
func defName(t reflect.Type) string {
	if !strings.Contains(t.PkgPath(), "/internal/site/") {
		return ""
	}
	r, n := utf8.DecodeRuneInString(t.Name())
	return string(unicode.ToLower(r)) + t.Name()[n:]
}
