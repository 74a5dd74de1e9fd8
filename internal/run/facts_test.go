package run

import (
	"encoding/json"
	"strings"
	"testing"
)

// factsManifest is testManifest's frozen YAML with the model's facts
// written in as a person would, after open_weights.
func factsManifest(t *testing.T, facts string) string {
	t.Helper()
	good, _, err := Freeze(testManifest(), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(good), "rows: 0", "rows: 1", 1)
	if !strings.Contains(s, "  open_weights: false\n") {
		t.Fatalf("no open_weights line in\n%s", s)
	}
	return strings.Replace(s, "  open_weights: false\n", "  open_weights: false\n"+facts, 1)
}

// TestModelFacts: the facts a manifest may give are read as written, and
// each other spelling is an error at its line naming the field and what
// to write.
func TestModelFacts(t *testing.T) {
	for _, c := range []struct {
		facts string
		want  Model
	}{
		{"  release_date: \"2024-07-23\"\n  parameters: 8030000000\n  license: llama3.1\n",
			Model{ReleaseDate: "2024-07-23", Parameters: "8030000000", License: "llama3.1"}},
		{"  release_date: 2018-06-11\n  parameters: undisclosed\n  license: proprietary\n",
			Model{ReleaseDate: "2018-06-11", Parameters: Undisclosed, License: "proprietary"}},
		{"  parameters: 1000000\n", Model{Parameters: "1000000"}},
		{"  parameters: 100000000000000\n", Model{Parameters: "100000000000000"}},
		{"", Model{}},
	} {
		m, err := ParseManifest("m.yaml", []byte(factsManifest(t, c.facts)))
		if err != nil {
			t.Errorf("%q: %v", c.facts, err)
			continue
		}
		got := Model{ReleaseDate: m.Model.ReleaseDate, Parameters: m.Model.Parameters, License: m.Model.License}
		if got != c.want {
			t.Errorf("%q: read %+v, want %+v", c.facts, got, c.want)
		}
	}
	for _, c := range []struct{ facts, want string }{
		{"  parameters: 7B\n", `m.yaml:6: model.parameters "7B": write the whole count in decimal digits (7000000000 for a model of 7 billion parameters), or undisclosed`},
		{"  parameters: 7e9\n", `m.yaml:6: model.parameters "7e9": write the whole count`},
		{"  parameters: 7000000000.0\n", `m.yaml:6: model.parameters "7000000000.0": write the whole count`},
		{"  parameters: 7_000_000_000\n", `m.yaml:6: model.parameters "7_000_000_000": write the whole count`},
		{"  parameters: -7\n", `m.yaml:6: model.parameters "-7": write the whole count`},
		{"  parameters: 07000000000\n", `m.yaml:6: model.parameters "07000000000": write the whole count`},
		{"  parameters: \"7000000000\"\n", "m.yaml:6: model.parameters is quoted: write the count (or undisclosed) without quotes"},
		{"  parameters: 'undisclosed'\n", "m.yaml:6: model.parameters is quoted"},
		{"  parameters: 7\n", "m.yaml:6: model.parameters 7 is under a million: write the whole count, not millions or billions"},
		{"  parameters: 999999\n", "m.yaml:6: model.parameters 999999 is under a million"},
		{"  parameters: 100000000000001\n", "m.yaml:6: model.parameters 100000000000001 is over 100 trillion"},
		{"  parameters: 99999999999999999999999\n", "m.yaml:6: model.parameters 99999999999999999999999 is over 100 trillion"},
		{"  parameters: Undisclosed\n", `m.yaml:6: model.parameters "Undisclosed": write the whole count`},
		{"  parameters: [7]\n", "m.yaml:6: cannot unmarshal"},
		{"  release_date: 2024-02-30\n", `m.yaml:6: model.release_date "2024-02-30" is not a date that exists`},
		{"  release_date: July 2024\n", `m.yaml:6: model.release_date "July 2024": want a date YYYY-MM-DD`},
		{"  release_date: 2024-7-23\n", `m.yaml:6: model.release_date "2024-7-23": want a date YYYY-MM-DD`},
		{"  release_date: 2017-12-31\n", `m.yaml:6: model.release_date "2017-12-31" is before 2018, earlier than any language model that answers the dataset's prompts`},
		{"  license: " + strings.Repeat("x", 201) + "\n", "m.yaml:6: model.license is 201 characters long, over the limit of 200"},
		{"  license: \"MIT\\0\"\n", "m.yaml:6: model.license: a control character (U+0000)"},
		{"  licence: mit\n", "m.yaml:6: field licence not found"},
	} {
		_, err := ParseManifest("m.yaml", []byte(factsManifest(t, c.facts)))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v\nwant %s…", c.facts, err, c.want)
		}
	}
}

// TestOpenWeightsRequired: a manifest that does not say whether the
// weights are published is an error, not a closed model.
func TestOpenWeightsRequired(t *testing.T) {
	good := factsManifest(t, "")
	for _, s := range []string{
		strings.Replace(good, "  open_weights: false\n", "", 1),
		strings.Replace(good, "  open_weights: false\n", "  open_weights:\n", 1),
		strings.Replace(good, "  open_weights: false\n", "  open_weights: null\n", 1),
	} {
		_, err := ParseManifest("m.yaml", []byte(s))
		if err == nil || !strings.HasPrefix(err.Error(), "m.yaml:1: missing required field model.open_weights: true when the model's weights are published for download, false otherwise") {
			t.Errorf("%v\n%s", err, s)
		}
	}
}

// TestFactsRoundTrip: what Freeze writes of the facts reads back the same
// (a count as a plain number, never quoted), and the data files' JSON
// writes a count as a number and undisclosed as a string.
func TestFactsRoundTrip(t *testing.T) {
	for _, p := range []Parameters{"8030000000", Undisclosed, ""} {
		m := testManifest()
		m.Model.ReleaseDate, m.Model.Parameters, m.Model.License = "2024-07-23", p, "apache-2.0"
		data, _, err := Freeze(m, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseManifest("m.yaml", []byte(strings.Replace(string(data), "rows: 0", "rows: 1", 1)))
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if got.Model.Parameters != p || got.Model.ReleaseDate != "2024-07-23" || got.Model.License != "apache-2.0" {
			t.Errorf("%q: read back %+v from\n%s", p, got.Model, data)
		}
		js, err := json.Marshal(m.Model)
		if err != nil {
			t.Fatal(err)
		}
		var back Model
		if err := json.Unmarshal(js, &back); err != nil || back != m.Model {
			t.Errorf("%q: JSON %s read back as %+v (%v)", p, js, back, err)
		}
		want := map[Parameters]string{"8030000000": `"parameters":8030000000,`, Undisclosed: `"parameters":"undisclosed",`, "": `"release_date":"2024-07-23","license"`}[p]
		if !strings.Contains(string(js), want) {
			t.Errorf("%q: JSON %s, want it to hold %s", p, js, want)
		}
	}
	if n, ok := Parameters("8030000000").Count(); !ok || n != 8030000000 {
		t.Errorf("Count: %d, %v", n, ok)
	}
	if _, ok := Undisclosed.Count(); ok {
		t.Error("undisclosed has a count")
	}
}
