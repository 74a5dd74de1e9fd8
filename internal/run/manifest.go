// Package run loads frozen runs: a folder runs/<id>/ holding manifest.yaml
// and the per-prompt scored file, verified against the manifest's hashes,
// and optionally LeftOutFile, the samples the importer left out.
package run

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/strictyaml"
)

// Manifest describes one run. Field names follow manifest.yaml.
type Manifest struct {
	Model            Model   `yaml:"model" json:"model"`
	Benchmark        string  `yaml:"benchmark" json:"benchmark"`
	Variant          Variant `yaml:"variant" json:"variant"`
	Intervention     string  `yaml:"intervention" json:"intervention"`
	InterventionText string  `yaml:"intervention_text,omitempty" json:"intervention_text,omitempty"`
	Scoring          Scoring `yaml:"scoring" json:"scoring"`
	Choices          Choices `yaml:"choices,omitempty" json:"choices"`
	PromptTemplate   string  `yaml:"prompt_template,omitempty" json:"prompt_template,omitempty"`
	// PromptForm is the form of the prompt the rows were answered on, as
	// the importer read it from the harness output.
	PromptForm *PromptForm       `yaml:"prompt_form,omitempty" json:"prompt_form,omitempty"`
	Harness    Harness           `yaml:"harness" json:"harness"`
	Dataset    Dataset           `yaml:"dataset" json:"dataset"`
	RunDate    string            `yaml:"run_date" json:"run_date"`
	Scored     ScoredFile        `yaml:"scored" json:"scored"`
	Claimed    map[string]number `yaml:"claimed,omitempty" json:"claimed,omitempty"`

	// ClaimedNotComparable, when set, says why the claimed numbers cannot
	// be held against the recomputed ones (a harness fit on an unbalanced
	// run, say): they are shown with this reason, not as agreeing or not.
	ClaimedNotComparable string `yaml:"claimed_not_comparable,omitempty" json:"claimed_not_comparable,omitempty"`
	// ClaimedPromptForm is the form of the prompt the claimed numbers were
	// computed on, when it is not PromptForm (numbers copied from a paper
	// or a model card, say): claims on another prompt are not comparable.
	ClaimedPromptForm *PromptForm `yaml:"claimed_prompt_form,omitempty" json:"claimed_prompt_form,omitempty"`

	Notes string `yaml:"notes,omitempty" json:"notes,omitempty"`
	// Synthetic marks demonstration runs that no real model produced; the
	// site says so on every page.
	Synthetic bool `yaml:"synthetic,omitempty" json:"synthetic,omitempty"`
	// Incomplete is set by importers when the harness ran on part of the
	// dataset (e.g. --limit); the scorer also detects missing cells itself.
	Incomplete string `yaml:"incomplete,omitempty" json:"incomplete,omitempty"`

	// root is the parsed document, for the lines of later errors.
	root *yaml.Node
	// warnings are what ParseManifest allowed but a publisher should
	// know: bidi controls it took out of names (stripBidi).
	warnings []error
}

// Warnings are what the manifest holds that the build allows, each at its
// line: the bidi controls taken out of its names.
func (m *Manifest) Warnings() []error { return m.warnings }

// stripBidi takes the bidi controls (input.IsBidiControl) out of every
// text the site shows in a line of its own words, each with a warning at
// its line: one in a model's name reordered the words a page prints after
// it ("(demo): mean answer mass…" read backwards), and in a page's title,
// an attribute or the CSV nothing can isolate it. Pages isolate each name
// too (<bdi>), for the right-to-left letters a name may rightly hold. The
// notes, Markdown shown in paragraphs of their own, keep what they hold.
func (m *Manifest) stripBidi(name string) {
	fields := []struct {
		s    *string
		path []string
	}{
		{&m.Model.Name, []string{"model", "name"}}, {&m.Model.ID, []string{"model", "id"}},
		{&m.Model.Provider, []string{"model", "provider"}}, {&m.Model.Revision, []string{"model", "revision"}},
		{&m.Model.URL, []string{"model", "url"}}, {&m.Model.License, []string{"model", "license"}},
		{&m.Intervention, []string{"intervention"}},
		{&m.InterventionText, []string{"intervention_text"}}, {&m.PromptTemplate, []string{"prompt_template"}},
		{&m.Harness.Name, []string{"harness", "name"}}, {&m.Harness.Version, []string{"harness", "version"}},
		{&m.Harness.Commit, []string{"harness", "commit"}}, {&m.Dataset.Name, []string{"dataset", "name"}},
		{&m.Dataset.Revision, []string{"dataset", "revision"}}, {&m.ClaimedNotComparable, []string{"claimed_not_comparable"}},
		{&m.Incomplete, []string{"incomplete"}},
	}
	if m.PromptForm != nil {
		fields = append(fields, struct {
			s    *string
			path []string
		}{&m.PromptForm.Prefix, []string{"prompt_form", "prefix"}})
	}
	for _, forms := range []*[]string{&m.Choices.Yes, &m.Choices.No} {
		for i := range *forms {
			fields = append(fields, struct {
				s    *string
				path []string
			}{&(*forms)[i], []string{"choices"}})
		}
	}
	for _, f := range fields {
		clean, r := input.StripBidi(*f.s)
		if r == 0 {
			continue
		}
		*f.s = clean
		m.warnings = append(m.warnings, fileerr.New(name, m.Line(f.path...), "%s holds the bidi control %s, which would reorder the words a page prints after it: the site shows it without (%q); remove it from the manifest", strings.Join(f.path, "."), input.BidiName(r), clean))
	}
}

// Line is the line of the deepest existing key along path in the manifest
// as parsed (1 for a manifest that was not parsed from a file).
func (m *Manifest) Line(path ...string) int { return strictyaml.KeyLine(m.root, path...) }

type number = float64

// PromptForm is what a prompt looks like around the scenario text, where
// harnesses differ (lm-evaluation-harness puts one line break before the
// question, the paper a blank line; quotes may be straight or curly).
type PromptForm struct {
	// Break is what separates the scenario from the question: "blank
	// line", "line break", "space" or "none".
	Break string `yaml:"break" json:"break"`
	// Quotes are those around yes and no in the question: "straight"
	// ("yes"), "curly" (“yes”) or "none".
	Quotes string `yaml:"quotes" json:"quotes"`
	// Prefix starts the answer (lm-eval's gen_prefix, an assistant
	// prefill), as given; empty for none.
	Prefix string `yaml:"prefix,omitempty" json:"prefix,omitempty"`
}

// String describes the form in words.
func (f PromptForm) String() string {
	s := f.Break + " before the question, " + f.Quotes + " quotes"
	if f.Prefix != "" {
		return s + ", answer prefix " + quoteShort(f.Prefix)
	}
	return s + ", no answer prefix"
}

func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return "«" + s + "»"
}

// PromptFormOf reads the form of prompt, the text the model saw, around
// the scenario text filled; prefix is the answer prefix, if any.
func PromptFormOf(prompt, filled, prefix string) PromptForm {
	f := PromptForm{Break: "none", Quotes: "none", Prefix: prefix}
	rest := prompt
	if i := strings.Index(prompt, filled); i >= 0 && filled != "" {
		rest = prompt[i+len(filled):]
	}
	switch {
	case strings.HasPrefix(strings.TrimLeft(rest, " \t"), "\n\n"), strings.HasPrefix(rest, "\r\n\r\n"):
		f.Break = "blank line"
	case strings.HasPrefix(strings.TrimLeft(rest, " \t"), "\n"), strings.HasPrefix(rest, "\r\n"):
		f.Break = "line break"
	case strings.HasPrefix(rest, " "):
		f.Break = "space"
	}
	switch {
	case strings.ContainsAny(rest, "“”"):
		f.Quotes = "curly"
	case strings.Contains(rest, `"`):
		f.Quotes = "straight"
	}
	return f
}

// Model identifies the model that produced the run, and says what is
// known of it: the facts (release date, parameters, licence) are optional
// and shown beside its scores (facts.go).
type Model struct {
	Name     string `yaml:"name" json:"name" jsonschema_description:"the model's display name"`
	ID       string `yaml:"id" json:"id" jsonschema_description:"the provider's identifier of the model"`
	Provider string `yaml:"provider" json:"provider" jsonschema_description:"who makes the model"`
	Revision string `yaml:"revision,omitempty" json:"revision,omitempty" jsonschema_description:"the model's revision (a commit, a snapshot date)"`
	// OpenWeights is required: a manifest that does not say is an error,
	// never read as closed.
	OpenWeights bool   `yaml:"open_weights" json:"open_weights" jsonschema_description:"whether the model's weights are published for download"`
	URL         string `yaml:"url,omitempty" json:"url,omitempty" jsonschema_description:"the model's page"`
	// ReleaseDate is the day the model was first released, YYYY-MM-DD.
	ReleaseDate string `yaml:"release_date,omitempty" json:"release_date,omitempty" jsonschema_description:"the day the model was first released, YYYY-MM-DD"`
	// Parameters is its parameter count, or undisclosed.
	Parameters Parameters `yaml:"parameters,omitempty" json:"parameters,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"the model's parameter count (all of them, for a mixture of experts), or the string undisclosed when its maker does not say"`
	// License is its licence as its maker names it: an SPDX identifier
	// (apache-2.0, mit) or the licence's name (Llama 3.1 Community
	// License), "proprietary" for a model served under terms of use.
	License string `yaml:"license,omitempty" json:"license,omitempty" jsonschema_description:"the model's licence: an SPDX identifier, the licence's name, or proprietary"`
}

// Choices lists the answer forms counted as yes and as no.
type Choices struct {
	Yes []string `yaml:"yes" json:"yes"`
	No  []string `yaml:"no" json:"no"`
}

// Forms lists the yes forms then the no forms.
func (c Choices) Forms() []string {
	return append(append([]string(nil), c.Yes...), c.No...)
}

// DefaultChoices are the lm-evaluation-harness answer forms.
var DefaultChoices = Choices{Yes: []string{"yes", "Yes"}, No: []string{"no", "No"}}

// Harness names the tool that ran the model.
type Harness struct {
	Name    string `yaml:"name" json:"name"`
	Version string `yaml:"version,omitempty" json:"version,omitempty"`
	Commit  string `yaml:"commit,omitempty" json:"commit,omitempty"`
}

// Dataset names the dataset revision the prompts came from.
type Dataset struct {
	Name     string `yaml:"name" json:"name"`
	Revision string `yaml:"revision,omitempty" json:"revision,omitempty"`
	SHA256   string `yaml:"sha256,omitempty" json:"sha256,omitempty"`
}

// ScoredFile points at the per-prompt file and pins its content.
type ScoredFile struct {
	Path   string `yaml:"path" json:"path"`
	SHA256 string `yaml:"sha256" json:"sha256"`
	Rows   int    `yaml:"rows" json:"rows"`
}

// Variant is a prompt variant of the dataset: demographics stated
// (explicit) or signalled by names (implicit).
type Variant string

// The variants, as the dataset's fill_type spells them.
const (
	Explicit Variant = "explicit"
	Implicit Variant = "implicit"
)

// Scoring is how a run recorded the model's answers: log-probabilities of
// the answer forms, or sampled answers.
type Scoring string

// The scoring methods.
const (
	Logprob  Scoring = "logprob"
	Decision Scoring = "decision"
)

var (
	idRE     = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)
	hexRE    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	dateRE   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	scoredRE = regexp.MustCompile(`^scored\.jsonl(\.gz)?$`)
)

// MaxIDLen is the longest run id, in bytes: the id names files of the
// site (data/runs/ID.json) and of imports (.tmp-ID-*), which must stay
// under the 255-byte limit of a file name.
const MaxIDLen = 100

// IDRule says in words what ValidID accepts.
var IDRule = fmt.Sprintf("lower-case letters, digits, '.', '_' and '-', starting with a letter or digit, no \"..\", at most %d characters", MaxIDLen)

// ValidID reports whether id is a plain folder name usable as a run id:
// lower-case letters, digits, '.', '_' and '-', starting with a letter or
// a digit, no "..", at most MaxIDLen bytes.
func ValidID(id string) bool {
	return len(id) <= MaxIDLen && idRE.MatchString(id) && !strings.Contains(id, "..")
}

// ParseManifest decodes and validates manifest.yaml. name is used in error
// messages, which have the form name:line: message.
func ParseManifest(name string, data []byte) (*Manifest, error) {
	var m Manifest
	if err := input.UTF8(name, 1, data); err != nil {
		return nil, err
	}
	if err := strictyaml.Decode(name, data, &m); err != nil {
		return nil, err
	}
	root := strictyaml.Root(data)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, fileerr.New(name, 1, "not a YAML mapping: a manifest is a list of fields such as \"model:\" (see the README)")
	}
	m.root = root
	m.stripBidi(name)
	v := validator{name: name, root: root}
	v.required(m.Model.Name, "model", "name")
	v.required(m.Model.ID, "model", "id")
	v.required(m.Model.Provider, "model", "provider")
	v.required(m.Benchmark, "benchmark")
	if m.Benchmark != "" && m.Benchmark != "discrim_eval" {
		v.errorf([]string{"benchmark"}, "benchmark %q is not discrim_eval", m.Benchmark)
	}
	v.required(string(m.Variant), "variant")
	if m.Variant != "" && m.Variant != Explicit && m.Variant != Implicit {
		v.errorf([]string{"variant"}, "variant %q: want explicit or implicit", m.Variant)
	}
	v.required(m.Intervention, "intervention")
	v.required(string(m.Scoring), "scoring")
	if m.Scoring != "" && m.Scoring != Logprob && m.Scoring != Decision {
		v.errorf([]string{"scoring"}, "scoring %q: want logprob or decision", m.Scoring)
	}
	if len(m.Choices.Yes) == 0 && len(m.Choices.No) == 0 {
		m.Choices = Choices{Yes: append([]string(nil), DefaultChoices.Yes...), No: append([]string(nil), DefaultChoices.No...)}
	} else {
		if len(m.Choices.Yes) == 0 || len(m.Choices.No) == 0 {
			v.errorf([]string{"choices"}, "choices needs at least one yes form and one no form")
		}
		seen := map[string]bool{}
		for _, f := range append(append([]string(nil), m.Choices.Yes...), m.Choices.No...) {
			if f == "" || seen[f] {
				v.errorf([]string{"choices"}, "answer form %q is empty or listed twice", f)
			}
			seen[f] = true
		}
	}
	if valueNode(root, "model", "open_weights") == nil {
		v.errorf([]string{"model"}, "missing required field model.open_weights: true when the model's weights are published for download, false otherwise")
	}
	v.facts(&m.Model)
	v.required(m.Harness.Name, "harness", "name")
	v.required(m.Dataset.Name, "dataset", "name")
	if m.Dataset.SHA256 != "" && !hexRE.MatchString(m.Dataset.SHA256) {
		v.errorf([]string{"dataset", "sha256"}, "dataset.sha256 is not 64 lower-case hex digits")
	}
	v.required(m.RunDate, "run_date")
	if m.RunDate != "" && !dateRE.MatchString(m.RunDate) {
		v.errorf([]string{"run_date"}, "run_date %q: want YYYY-MM-DD", m.RunDate)
	} else if err := input.BenchmarkDate(m.RunDate); m.RunDate != "" && err != nil {
		v.errorf([]string{"run_date"}, "run_date %v", err)
	}
	v.required(m.Scored.Path, "scored", "path")
	if m.Scored.Path != "" && !scoredRE.MatchString(m.Scored.Path) {
		v.errorf([]string{"scored", "path"}, "scored.path %q: want scored.jsonl or scored.jsonl.gz in the run folder", m.Scored.Path)
	}
	v.required(m.Scored.SHA256, "scored", "sha256")
	if m.Scored.SHA256 != "" && !hexRE.MatchString(m.Scored.SHA256) {
		v.errorf([]string{"scored", "sha256"}, "scored.sha256 is not 64 lower-case hex digits")
	}
	if m.Scored.Rows <= 0 {
		v.errorf([]string{"scored", "rows"}, "scored.rows must be a positive row count")
	}
	// The count is checked against the file later, never used to size
	// memory; a count over the limit cannot be right.
	if m.Scored.Rows > input.MaxRows {
		v.errorf([]string{"scored", "rows"}, "scored.rows is %d, over the limit of %d rows per run", m.Scored.Rows, input.MaxRows)
	}
	for _, l := range []struct {
		val  string
		path []string
	}{
		{m.Model.Name, []string{"model", "name"}}, {m.Model.ID, []string{"model", "id"}},
		{m.Model.Provider, []string{"model", "provider"}}, {m.Model.Revision, []string{"model", "revision"}},
		{m.Model.License, []string{"model", "license"}},
		{m.Intervention, []string{"intervention"}},
		{m.Harness.Name, []string{"harness", "name"}}, {m.Harness.Version, []string{"harness", "version"}}, {m.Harness.Commit, []string{"harness", "commit"}},
		{m.Dataset.Name, []string{"dataset", "name"}}, {m.Dataset.Revision, []string{"dataset", "revision"}},
	} {
		if err := input.Label(strings.Join(l.path, "."), l.val, input.MaxLabelRunes); err != nil {
			v.errorf(l.path, "%v", err)
		}
	}
	// The importers write why a run is partial as a sentence or several
	// (the missing cells, the harness's fit on an unbalanced run); it is
	// shown once per board row and on the run's provenance page.
	if err := input.Label("incomplete", m.Incomplete, input.MaxDescriptionRunes); err != nil {
		v.errorf([]string{"incomplete"}, "%v", err)
	}
	if v.err != nil {
		return nil, v.err
	}
	return &m, nil
}

// validator collects the first validation error with the line of the
// offending key (or of its parent mapping when the key is missing).
type validator struct {
	name string
	root *yaml.Node
	err  error
}

func (v *validator) required(val string, path ...string) {
	if strings.TrimSpace(val) == "" {
		v.errorf(path, "missing required field %s", strings.Join(path, "."))
	}
}

func (v *validator) errorf(path []string, format string, args ...any) {
	if v.err == nil {
		v.err = fileerr.New(v.name, strictyaml.KeyLine(v.root, path...), format, args...)
	}
}
