package strictyaml

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

// A settings file is written one way: YAML's other spellings of a value
// are refused rather than read, each with its line, since a reader of the
// file (or of a pull request's diff) would take them for something else.
//
//   - a merge key ("<<: {name: …}" beside name: yaml.v3 lets the field
//     beside it win without a word), an anchor or an alias: each value is
//     written out where it is used;
//   - an explicit tag ("!!binary …", "!!str 5"): yaml.v3 decodes a
//     !!binary string and the tag is gone from what the build shows;
//   - a whole number written otherwise than in decimal digits ("0x10E",
//     "017", which YAML 1.1 reads as octal 15, "1_000", "+5"), or as a
//     number with a point ("270.0") where a count is wanted;
//   - a number that is not a plain decimal (".inf", ".5", "1.");
//   - a true or false written any other way ("no", "yes", "on", "True");
//   - a null written "~" or "Null";
//   - a control character in any value or key (U+0000, an escape such as
//     "\0" or "\e", DEL, U+0080–U+009F), tab and line feed apart; and a
//     byte-order mark at the start of the file.
//
// The rules follow the Go type decoded into, found by reflection, so a
// field added to a struct is checked as the others are, with nothing to
// add here.

var (
	decimalInt   = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	decimalFloat = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
)

// check walks a document's node tree against the Go type it decodes into.
// Keys that name no field are left to the decoder (KnownFields), and so are
// values of the wrong kind.
func check(name string, n *yaml.Node, t reflect.Type, path string) error {
	if n == nil {
		return nil
	}
	at := func(format string, args ...any) error {
		where := ""
		if path != "" {
			where = path + ": "
		}
		return fileerr.New(name, n.Line, "%s%s", where, fmt.Sprintf(format, args...))
	}
	// An alias needs an anchor before it, which is refused first.
	switch {
	case n.Anchor != "":
		return at("an anchor (&%s): a settings file writes each value out where it is used; remove the anchor (and any alias of it)", n.Anchor)
	case n.Style&yaml.TaggedStyle != 0:
		return at("an explicit tag (%s): a settings file holds plain values; remove the tag and write the value itself", n.Tag)
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := check(name, c, t, path); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i, c := range n.Content {
			if err := check(name, c, elem, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Tag == "!!merge" {
				return fileerr.New(name, k.Line, "a merge key (<<): a settings file writes each field out; the fields beside a merge would silently win over it. Write the merged fields in place")
			}
			if err := check(name, k, nil, join(path, k.Value)); err != nil {
				return err
			}
			if err := check(name, v, fieldType(t, k.Value), join(path, k.Value)); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		if i := strings.IndexFunc(n.Value, isControl); i >= 0 {
			r := []rune(n.Value[i:])[0]
			return at("a control character (U+%04X) at character %d: it would reach the pages and the CSV as it is; remove it", r, len([]rune(n.Value[:i]))+1)
		}
		return scalar(n, t, at)
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// isControl reports a control character other than tab and line feed.
func isControl(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' }

// scalar checks that a plain value is written the one way its type reads.
func scalar(n *yaml.Node, t reflect.Type, at func(string, ...any) error) error {
	plain := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
	if plain && n.Tag == "!!null" && n.Value != "null" && n.Value != "" {
		return at("%s for null: write null, or leave the value empty", n.Value)
	}
	if t == nil || !plain || n.Tag == "!!null" {
		return nil
	}
	switch t.Kind() {
	case reflect.Bool:
		if n.Value != "true" && n.Value != "false" {
			return at("%q for true or false: write true or false (YAML 1.1 reads yes, no, on and off as booleans, YAML 1.2 as text)", n.Value)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if !decimalInt.MatchString(n.Value) {
			return at("%s for a whole number: write it in decimal digits alone, without a sign, point, underscore or leading zero (YAML reads 0x10E as 270 and 017 as 15)", n.Value)
		}
	case reflect.Float32, reflect.Float64:
		if !decimalFloat.MatchString(n.Value) {
			return at("%s for a number: write a plain decimal number such as 0.12, -3 or 1e-05", n.Value)
		}
	}
	return nil
}

// fieldType is the type of the value under key in a value of type t: a
// struct's field named so in its yaml tag, a map's element; nil when
// there is none (an unknown field, which the decoder reports).
func fieldType(t reflect.Type, key string) reflect.Type {
	if t == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.Map:
		return t.Elem()
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if tag == "-" {
				continue
			}
			if strings.Contains(","+opts+",", ",inline,") {
				if ft := fieldType(f.Type, key); ft != nil {
					return ft
				}
				continue
			}
			if tag == "" {
				tag = strings.ToLower(f.Name)
			}
			if tag == key {
				return f.Type
			}
		}
	}
	return nil
}
