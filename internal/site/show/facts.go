package show

import (
	"strings"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// ModelFacts are a model's facts (its manifest's, run/facts.go) as the
// board rows and run pages show them; a fact the manifest does not give
// is NotStated.
type ModelFacts struct {
	// Size is the parameter count ("7B", "undisclosed"), SizeTitle the
	// count in full, SizeSort its sort key (empty, sorting last, when
	// there is none).
	Size, SizeTitle, SizeSort string
	// Released is the release date, ReleasedSort its sort key.
	Released, ReleasedSort string
	// Weights is "open weights" or "closed weights"; License the
	// licence, "" when not stated.
	Weights, License string
}

// NotStated is a fact the manifest does not give.
const NotStated = "–"

// FactsOf is a model's facts as shown.
func FactsOf(m run.Model) ModelFacts {
	f := ModelFacts{Size: NotStated, SizeTitle: "parameter count not stated", Released: NotStated, Weights: "closed weights", License: m.License}
	if m.OpenWeights {
		f.Weights = "open weights"
	}
	switch n, ok := m.Parameters.Count(); {
	case ok:
		f.Size, f.SizeTitle, f.SizeSort = vocab.ParameterCount(n), vocab.Count(int(n))+" parameters", Itoa(int(n))
	case m.Parameters == run.Undisclosed:
		f.Size, f.SizeTitle = string(run.Undisclosed), "its maker does not disclose the parameter count"
	}
	if m.ReleaseDate != "" {
		f.Released, f.ReleasedSort = m.ReleaseDate, strings.ReplaceAll(m.ReleaseDate, "-", "")
	}
	return f
}

// FactPart is one fact as a page writes it: Text, then Name, a name
// from the manifest (the licence) that the page isolates (<bdi>).
type FactPart struct{ Text, Name string }

// String is the part as plain text.
func (p FactPart) String() string { return p.Text + p.Name }

// Sentence is the facts in words, for a run page: "7B parameters
// (7,000,000,000), open weights, licence apache-2.0, released 2025-03-04",
// each fact the manifest does not give said so; a page joins the parts
// with ", ".
func (f ModelFacts) Sentence() []FactPart {
	size := f.SizeTitle
	if f.SizeSort != "" {
		size = f.Size + " parameters (" + strings.TrimSuffix(f.SizeTitle, " parameters") + ")"
	}
	lic := FactPart{Text: "licence not stated"}
	if f.License != "" {
		lic = FactPart{Text: "licence ", Name: f.License}
	}
	rel := "release date not stated"
	if f.ReleasedSort != "" {
		rel = "released " + f.Released
	}
	return []FactPart{{Text: size}, {Text: f.Weights}, lic, {Text: rel}}
}

// Short is the facts the manifest gives, for a line under a run page's
// heading: "7B parameters · open weights · apache-2.0 · released
// 2025-03-04" (what it does not give is left out; Sentence says so); a
// page joins the parts with " · ".
func (f ModelFacts) Short() []FactPart {
	var parts []FactPart
	switch {
	case f.SizeSort != "":
		parts = append(parts, FactPart{Text: f.Size + " parameters"})
	case f.Size != NotStated:
		parts = append(parts, FactPart{Text: "parameter count " + f.Size})
	}
	parts = append(parts, FactPart{Text: f.Weights})
	if f.License != "" {
		parts = append(parts, FactPart{Name: f.License})
	}
	if f.ReleasedSort != "" {
		parts = append(parts, FactPart{Text: "released " + f.Released})
	}
	return parts
}

// Join writes parts as plain text, sep between them.
func Join(parts []FactPart, sep string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.String()
	}
	return strings.Join(out, sep)
}
