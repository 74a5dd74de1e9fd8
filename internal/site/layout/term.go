package layout

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// TermLink is a link to a glossary entry, as partials.html's "term"
// writes it: {{template "term" ($.Term "logit")}}. In a summary (Said) a
// piece without Href is text, a name from the inputs when Name.
type TermLink struct {
	Href, Text string
	Name       bool
}

// Term is the link from the page to a glossary term: its name, or text
// when given, linking its entry. An unknown term is an error, which stops
// the build at the template that names it.
func (d *PageData[B]) Term(id string, text ...string) (TermLink, error) {
	t, ok := vocab.TermByID(id)
	if !ok {
		return TermLink{}, fmt.Errorf("no glossary term %q (vocab.Terms)", id)
	}
	l := TermLink{Href: d.Rel(paths.GlossaryPath) + "#" + t.ID, Text: t.Name}
	if len(text) > 0 {
		l.Text = text[0]
	}
	return l, nil
}

// Said is a summary's sentences as the page shows them, each a list of
// pieces: a piece that names a glossary term links its entry (Href), the
// others are text (partials.html's "summary").
func (d *PageData[B]) Said(s vocab.Summary) ([][]TermLink, error) {
	out := make([][]TermLink, len(s))
	for i, st := range s {
		for _, p := range st {
			l := TermLink{Text: p.Text, Name: p.Name}
			if p.Term != "" {
				t, err := d.Term(p.Term, p.Text)
				if err != nil {
					return nil, err
				}
				l = t
			}
			out[i] = append(out[i], l)
		}
	}
	return out, nil
}

// UnitNames are the site's units as a column header's second line writes
// them: {{template "unit" $.Units.Logit}} (package vocab).
type UnitNames struct{ Logit, PP, Parameters, Rank string }

// Units are the site's units (package vocab).
func (d *PageData[B]) Units() UnitNames {
	return UnitNames{Logit: vocab.Logit, PP: vocab.PP, Parameters: vocab.Parameters, Rank: vocab.Rank}
}
