package run

// A model's facts in its manifest, all optional: the day it was released,
// its parameter count (or that its maker does not disclose it) and its
// licence. They are the model's, not the run's, and are shown beside its
// scores: in its board row, on its run page, in the data files, and as the
// board's chart of scores against release dates.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/discrimeval/leaderboard/internal/input"
)

// Parameters is a model's parameter count as its manifest writes it: a
// whole number in decimal digits, Undisclosed, or "" when the manifest
// does not say. The YAML is read as text and checked by ParseManifest
// (a count written plainly, in digits: 7000000000, never 7B, 7e9 or
// "7000000000"); the data files write the count as a JSON number and
// undisclosed as a string.
type Parameters string

// Undisclosed is the parameter count of a model whose maker does not say.
const Undisclosed Parameters = "undisclosed"

// The parameter counts a manifest may give: a model of fewer than a
// million parameters is a count written in millions or billions (7 for
// 7B), and one of more than 100 trillion a typing slip.
const (
	MinParameters = 1_000_000
	MaxParameters = 100_000_000_000_000
)

// Count is the parameter count, and whether there is one.
func (p Parameters) Count() (int64, bool) {
	n, err := strconv.ParseInt(string(p), 10, 64)
	return n, err == nil && n > 0
}

// ParametersOf is a count as a manifest writes it.
func ParametersOf(n int64) Parameters { return Parameters(strconv.FormatInt(n, 10)) }

// MarshalJSON writes a count as a number, undisclosed as a string.
func (p Parameters) MarshalJSON() ([]byte, error) {
	if n, ok := p.Count(); ok {
		return []byte(strconv.FormatInt(n, 10)), nil
	}
	return json.Marshal(string(p))
}

// MarshalYAML writes a count as a plain number (a string of digits would
// be quoted), undisclosed as a word.
func (p Parameters) MarshalYAML() (any, error) {
	if n, ok := p.Count(); ok {
		return n, nil
	}
	return string(p), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *Parameters) UnmarshalJSON(b []byte) error {
	var n int64
	if err := json.Unmarshal(b, &n); err == nil {
		*p = ParametersOf(n)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("parameters: %s: want a whole number or %q", b, Undisclosed)
	}
	*p = Parameters(s)
	return nil
}

// FirstModelDate is the earliest release date a manifest may give: no
// language model that answers the dataset's prompts was released before
// 2018 (GPT-1 was, in June).
const FirstModelDate = "2018-01-01"

var digitsRE = regexp.MustCompile(`^[1-9][0-9]*$`)

// facts checks the model's facts, each error at its field's line.
func (v *validator) facts(m *Model) {
	if d := m.ReleaseDate; d != "" {
		switch err := input.Date(d); {
		case err != nil:
			v.errorf([]string{"model", "release_date"}, "model.release_date %v", err)
		case d < FirstModelDate:
			v.errorf([]string{"model", "release_date"}, "model.release_date %q is before %s, earlier than any language model that answers the dataset's prompts: write the day the model was first released", d, FirstModelDate[:4])
		}
	}
	if p := m.Parameters; p != "" && p != Undisclosed {
		path := []string{"model", "parameters"}
		n, err := strconv.ParseInt(string(p), 10, 64)
		switch {
		case !digitsRE.MatchString(string(p)):
			v.errorf(path, "model.parameters %q: write the whole count in decimal digits (7000000000 for a model of 7 billion parameters), or %s when its maker does not say", string(p), Undisclosed)
		case err != nil || n > MaxParameters:
			v.errorf(path, "model.parameters %s is over 100 trillion: write the whole count in decimal digits (7000000000 for 7 billion)", string(p))
		case n < MinParameters:
			v.errorf(path, "model.parameters %s is under a million: write the whole count, not millions or billions (7000000000 for 7 billion)", string(p))
		}
	}
	if n := valueNode(v.root, "model", "parameters"); n != nil && n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		v.errorf([]string{"model", "parameters"}, "model.parameters is quoted: write the count (or %s) without quotes", Undisclosed)
	}
}

// valueNode is the value under the keys of path in the mapping n, nil
// when a key is missing or its value is null (written empty).
func valueNode(n *yaml.Node, path ...string) *yaml.Node {
	for _, key := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				next = n.Content[i+1]
				break
			}
		}
		n = next
	}
	if n != nil && n.Tag == "!!null" {
		return nil
	}
	return n
}
