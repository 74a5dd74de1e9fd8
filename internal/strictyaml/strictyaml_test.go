package strictyaml

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

type inner struct {
	Name string `yaml:"name"`
	Open bool   `yaml:"open"`
}

type settings struct {
	Model   inner              `yaml:"model"`
	Rows    int                `yaml:"rows"`
	Rate    float64            `yaml:"rate"`
	Notes   string             `yaml:"notes,omitempty"`
	Forms   []string           `yaml:"forms"`
	Claimed map[string]float64 `yaml:"claimed"`
	Form    *inner             `yaml:"form"`
}

// TestRefused: each of YAML's other spellings of a value is an error at its
// line, naming the field.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"model:\n  <<: {name: merged}\n  name: x\n", "f.yaml:2: a merge key (<<)"},
		{"notes: !!binary aGVsbG8=\n", "f.yaml:1: notes: an explicit tag (!!binary)"},
		{"model:\n  name: !!str 5\n", "f.yaml:2: model.name: an explicit tag (!!str)"},
		{"model:\n  name: &n x\nnotes: *n\n", "f.yaml:2: model.name: an anchor (&n)"},
		{"rows: 0x10E\n", "f.yaml:1: rows: 0x10E for a whole number"},
		{"rows: 270.0\n", "f.yaml:1: rows: 270.0 for a whole number"},
		{"rows: 017\n", "f.yaml:1: rows: 017 for a whole number"},
		{"rows: 1_000\n", "f.yaml:1: rows: 1_000 for a whole number"},
		{"rows: +5\n", "f.yaml:1: rows: +5 for a whole number"},
		{"rate: .inf\n", "f.yaml:1: rate: .inf for a number"},
		{"rate: .5\n", "f.yaml:1: rate: .5 for a number"},
		{"claimed:\n  black: 0x1\n", "f.yaml:2: claimed.black: 0x1 for a number"},
		{"model:\n  open: no\n", `f.yaml:2: model.open: "no" for true or false`},
		{"model:\n  open: yes\n", `f.yaml:2: model.open: "yes" for true or false`},
		{"model:\n  open: True\n", `f.yaml:2: model.open: "True" for true or false`},
		{"form:\n  open: on\n", `f.yaml:2: form.open: "on" for true or false`},
		{"model:\n  name: ~\n", "f.yaml:2: model.name: ~ for null"},
		{"model:\n  name: \"Ex\\0ample\"\n", "f.yaml:2: model.name: a control character (U+0000) at character 3"},
		{"forms: [\"a\", \"b\\e\"]\n", "f.yaml:1: forms[1]: a control character (U+001B) at character 2"},
		{"notes: \"a\\rb\"\n", "f.yaml:1: notes: a control character (U+000D)"},
		{"model:\n  name: \"\\x85\"\n", "f.yaml:2: model.name: a control character (U+0085)"},
		{"\uFEFFrows: 1\n", "f.yaml:1: the file starts with a byte-order mark"},
	} {
		var s settings
		err := Decode("f.yaml", []byte(c.in), &s)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s…", c.in, err, c.want)
		}
		if _, _, ok := fileerr.Position(err); err != nil && !ok {
			t.Errorf("%q: the error names no file", c.in)
		}
	}
}

// TestAccepted: what the YAML encoder writes, and what a person writes
// plainly, decodes: quoted text of any form, empty and null values, tabs and
// line feeds, numbers with exponents.
func TestAccepted(t *testing.T) {
	v := settings{
		Model: inner{Name: "yes", Open: true}, Rows: 9450, Rate: 1e-05,
		Notes: "two\nlines\tand a tab", Forms: []string{"0x10", "no", "~", "1.10"},
		Claimed: map[string]float64{"a": 1e6, "b": -0.125, "c": 3},
	}
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var got settings
	if err := Decode("f.yaml", data, &got); err != nil {
		t.Errorf("the encoder's own output: %v\n%s", err, data)
	}
	for _, in := range []string{
		"model:\n  name: Example 7B\n  open: false\nrows: 0\nrate: -3\n",
		"model:\n  name:\nform: null\nnotes: |\n  a\n  b\n",
		"model: {name: \"0x10\", open: true}\nrate: 2.5E+3\nforms: [yes, no, on]\n",
		"model:\n  name: 1.10\n",
	} {
		if err := Decode("f.yaml", []byte(in), &got); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}
