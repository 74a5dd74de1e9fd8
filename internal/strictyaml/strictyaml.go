// Package strictyaml decodes YAML settings files strictly (unknown fields
// are errors) and reports errors as file:line: message.
package strictyaml

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Decode decodes data into v, rejecting unknown fields. name prefixes errors.
func Decode(name string, data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s:%s", name, message(err))
	}
	return nil
}

// message turns yaml.v3's "yaml: line 3: …" into "3: …"; errors without a
// line are put on line 1.
func message(err error) string {
	s := err.Error()
	if te, ok := err.(*yaml.TypeError); ok && len(te.Errors) > 0 {
		s = te.Errors[0]
	}
	s = strings.TrimSpace(strings.TrimPrefix(s, "yaml: "))
	if rest, ok := strings.CutPrefix(s, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if _, err := strconv.Atoi(rest[:i]); err == nil {
				return rest[:i] + ":" + rest[i+1:]
			}
		}
	}
	if s == "EOF" {
		s = "empty file"
	}
	return "1: " + s
}
