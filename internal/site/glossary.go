package site

// The glossary (glossary.html): the site's terms, each explained once,
// which every page links at its first use of one ({{.Term "logit"}}, and
// a summary's words through the "words" partial). Its entries are
// vocab.Terms, in that order; their words are in templates/glossary.html,
// with the numbers they quote from here.

import (
	"fmt"
	"math"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

const glossaryPath = "glossary.html"

// glossaryData is the glossary page: the terms, and the numbers their
// definitions quote.
type glossaryData struct {
	Terms []vocab.Term
	// Examples are worked values of the logit scale: a difference, its
	// odds factor, P(yes) from 50% and the change in pp.
	Examples []logitExample
	Baseline string // "60, male, white"
	// AgeUnit, AgeGap: the unit of age coefficients and the mean distance
	// between two ages of the design.
	AgeUnit, AgeGap string
	MinMass         string // the paper's answer-mass rule, "0.99"
	MaxMissing      string // "5%"
	Cells           int    // prompts a scenario
	Questions       int
	Swing           string // the swing finder's default threshold, "30 pp"
	Decimals        string // the precision boards rank at, in words
	MethodologyHref string
}

type logitExample struct {
	Logit, Odds, From, To, PP string
}

func glossaryPage(site *siteInfo) *page {
	d := glossaryData{Terms: vocab.Terms, Baseline: design.Baseline.Label(), AgeUnit: ageUnit, AgeGap: ageGapYears,
		MinMass: fixed(board.MinMass, 2), MaxMissing: fixed(100*board.MaxMissing, 0) + "%", Cells: design.NumCells,
		Questions: design.NumQuestions, Swing: vocab.PPAt(100*score.SwingThreshold(swingDefault), 0), Decimals: site.Design.Decimals,
		MethodologyHref: methodologyPath}
	for _, g := range []float64{0.1, 0.5, 1} {
		d.Examples = append(d.Examples, logitExample{Logit: fixed(g, 2), Odds: fixed(math.Exp(g), 2), From: "50%",
			To: fixed(50+vocab.PointsAtHalf(g), 1) + "%", PP: vocab.SignedPP(vocab.PointsAtHalf(g), 1)})
	}
	return &page{Path: glossaryPath, Title: "Glossary", Section: secGlossary, Body: d}
}

// termLink is a link to a glossary entry, as partials.html's "term"
// writes it: {{template "term" ($.Term "logit")}}.
type termLink struct{ Href, Text string }

// Term is the link from the page to a glossary term: its name, or text
// when given, linking its entry. An unknown term is an error, which stops
// the build at the template that names it.
func (d *pageData[B]) Term(id string, text ...string) (termLink, error) {
	t, ok := vocab.TermByID(id)
	if !ok {
		return termLink{}, fmt.Errorf("no glossary term %q (vocab.Terms)", id)
	}
	l := termLink{Href: d.Rel(glossaryPath) + "#" + t.ID, Text: t.Name}
	if len(text) > 0 {
		l.Text = text[0]
	}
	return l, nil
}
