package runpage

// A run's page: its views, ranks and why it is or is not ranked, how the
// views are computed, the coefficients, the dataset card's differences,
// paired comparisons, data quality and how the run was made.

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/datapage"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

type RunData struct {
	// Summary is the page's answer first (package vocab's RunSummary).
	Summary vocab.Summary
	Chart   template.HTML
	Shares  []shareRow
	Pairs   []boards.PairRow
	// Ranked says the run is ranked on its board and the board has ranks;
	// otherwise Why says why it has no rank.
	Ranked bool
	Why    string
	// Pair is pair.html with this run as A: it beside any other run.
	Pair string
	// CoefTitle and CoefText say what the coefficients are for this run's
	// kind of fit.
	CoefTitle, CoefText string
	// AttrGaps show how each attribute view is computed.
	AttrGaps []attrGaps
	// Unparsed lists a decision run's answers that were neither yes nor
	// no, per group and as written.
	UnparsedBy []countRow
	Answers    []countRow
	AnswerRule string
	// BoundTolerance is how far a bound may move a logit before it matters.
	BoundTolerance string
	// Display values prepared here: the data-quality figures, the rule
	// they are held to, counts written out in the prose, links.
	Decision                    bool
	MeanMass, MinMass, MassRule string
	MissingShare, MaxMissing    string // the share of the dataset's prompts missing, and the rule
	AgeCoding                   string
	AgeAlt                      []string       // the age coefficient in the other units, as alternatives
	Harness                     []harnessRow   // lm-evaluation-harness's numbers, recomputed
	History                     []historyPoint // the model's run in every earlier release, then this one
	ViewsVersion                int
	// BoardRuns names the runs of the run's board (vocab.BoardRuns), as
	// its summary does, and BoardRun one of them.
	BoardRuns, BoardRun      string
	Definitions              []definitionRow // the composite under each documented definition
	CoefCount                string
	Cells                    int
	DataHref, ProvenanceHref string
	ScenariosHref            string
	ID                       string
	M                        *run.Manifest
	Facts                    show.ModelFacts // the model's facts, as shown
	Res                      *score.Result
	Coefs                    []coefRow
	Structure                []structureLine
	Variation                string // how the effects vary between scenarios, in words
	Card                     []cardRow
	Gaps                     []gapRow
	Views                    []viewRow
	Flags                    []boards.QualityFlag
	Notes                    template.HTML
	// Files are the run's input files with where they are (Where; Budget
	// is the site's Pages budget, which linked files would have passed).
	Files     []datapage.DownloadLink
	Where     paths.RunFiles
	Budget    string
	Questions []int
	// Scoring is the run's own part of the rubric.
	Scoring runScoring
	// Other is the same model's default-prompt run of the other prompt
	// variant with the same scoring method, if there is one, and
	// VariantDiff the paired difference of the two per view.
	Other       *stage.VariantLink
	VariantDiff []boards.VariantDiffRow
	VariantQs   int // the decision questions the difference is on
	// Contrib lists, per view, the scenarios that contribute most.
	Contrib    []grid.ContribView
	ContribMax int
}

// runScoring is what of the rubric is the run's own, as the run page
// shows it (data/runs/<id>.json has it as the field rubric).
type runScoring struct {
	Fit, DF, ViewCI string
	Incomplete      []layout.QuestionLink
	LeftOut         []layout.QuestionLink
}

type coefRow struct {
	Name, Label, Estimate, Favours, SE, CI, Class string
	// Between is the SD between scenarios and Predict the 95% prediction
	// interval for a new scenario.
	Between, Predict string
}

type cardRow struct {
	Name, Describe, Value, Favours, Class string
}

type gapRow struct {
	Attribute, Value, Groups string
}

type viewRow struct {
	Title, Value, CI, Href string
	Scale                  string // the score's plain scale (words.go)
	Rank                   int
	Set, BoardSet          string
	Tied                   bool
}

// attrGaps is the worked computation of one attribute view.
type attrGaps struct {
	Title, Describe string
	Rows            []gapValueRow
	View            string
}

type countRow struct {
	Label string
	Count int
}

type gapValueRow struct {
	Label, Gap, SE, Magnitude, Words, Class string
}

// RunPage is a run's page, on a site whose runs' files are where says,
// under a Pages budget written as budget.
func RunPage(cfg stage.Config, rs *stage.Runs, rk *stage.Ranked, e *board.Entry, hist []historyPoint, where paths.RunFiles, budget string) (*layout.Page, error) {
	m, res := e.Run.Manifest, e.Result
	d := RunData{History: hist, ViewsVersion: sitedata.ViewsVersion, ID: e.ID(), M: m, Facts: show.FactsOf(m.Model), Res: res, Flags: boards.Flags(e),
		Files: datapage.DownloadLinks(where, e.Run.Files), Where: where, Budget: budget, Pairs: boards.PairsOf(rk.Pairs, e.ID()), Why: e.Why, Pair: paths.PairAnchor(e.ID(), "")}
	d.Ranked = layout.IsRanked(e)
	d.Summary = vocab.RunSummary(boards.RunFacts(rk, e))
	if o, ok := rk.Variants[e.ID()]; ok {
		d.Other = &o
		if vd := boards.DiffOf(rk, e.ID()); vd != nil {
			d.VariantDiff = boards.VariantDiffRows(vd, score.Views[:])
			if vd.C != nil {
				d.VariantQs = vd.C.Questions
			}
		}
	}
	if e.Ranked && !d.Ranked {
		d.Why = "it is the only run of its board, so there is nothing to rank it against"
	}
	d.CoefTitle, d.CoefText = coefText(res)
	for _, st := range res.Structure {
		d.Structure = append(d.Structure, structureLine{st.Title, show.StructureVerdict(st, len(res.Structure))})
	}
	d.Variation = variationText(res)
	coefs := show.CountWord(int(design.NumCoefs))
	d.CoefCount, d.Cells = strings.ToUpper(coefs[:1])+coefs[1:], design.NumCells
	d.DataHref, d.ProvenanceHref, d.ScenariosHref = paths.RunDataPath(e.ID()), paths.RunProvenancePath(e.ID()), paths.ScenariosPath(e.ID())
	d.quality(m, res)
	d.scoring(e, datapage.IncompleteQuestions(rs, e.ID()))
	if m.Notes != "" {
		notes, err := content.Markdown([]byte(m.Notes))
		if err != nil {
			return nil, fmt.Errorf("%s/%s: notes: %v", cfg.RunsLabel, e.ID(), err)
		}
		d.Notes = notes
	}
	if res.CoefsValid {
		c, err := boards.CoefChart(m, res)
		if err != nil {
			return nil, fmt.Errorf("%s: chart: %w", paths.RunPath(e.ID()), err)
		}
		d.Chart = c
		d.coefficients(res)
	}
	if res.Scored {
		d.views(rk, e)
		d.otherTools(e)
		d.Contrib, d.ContribMax = grid.Contributions(e.ID(), res), grid.MaxContributors
	}
	if res.Method != "" { // scored or not, a run has card differences
		d.card(res)
	}
	return &layout.Page{Path: paths.RunPath(e.ID()), Title: m.Model.Name + " · " + string(m.Variant) + " · " + m.Intervention, Section: layout.SecBoard, Body: d}, nil
}

// quality prepares the data-quality section.
func (d *RunData) quality(m *run.Manifest, res *score.Result) {
	d.BoundTolerance = show.Decimal(run.BoundTolerance)
	d.Decision = m.Scoring == run.Decision
	d.BoardRuns = vocab.BoardRuns(string(m.Variant), d.Decision)
	d.BoardRun = strings.TrimSuffix(d.BoardRuns, "s")
	d.MeanMass, d.MinMass, d.MassRule = show.Fixed(res.Quality.MeanMass, 4), show.Fixed(res.Quality.MinMass, 4), show.Fixed(board.MinMass, 2)
	d.MissingShare, d.MaxMissing = show.Fixed(100*board.MissingShare(res.Quality), 1)+"%", show.Fixed(100*board.MaxMissing, 0)+"%"
	if res.AgeSD != 0 {
		d.AgeCoding = "age_z = (age − " + show.Fixed(res.AgeMean, 4) + ") / " + show.Fixed(res.AgeSD, 4) + " (mean and sample SD over the rows present); the fit’s age coefficient is per SD of age, and every page shows it " + show.AgeUnit + ": × " + show.Itoa(show.AgeUnitYears) + " / " + show.Fixed(res.AgeSD, 4)
	}
	q := res.Quality
	if q.Unparsed == 0 {
		return
	}
	d.AnswerRule = run.AnswerRule
	for i, a := range design.Ages {
		d.UnparsedBy = append(d.UnparsedBy, countRow{"age " + show.Itoa(a), q.UnparsedBy.Age[i]})
	}
	for _, g := range design.Genders {
		d.UnparsedBy = append(d.UnparsedBy, countRow{g.String(), q.UnparsedBy.Gender[g]})
	}
	for _, r := range design.Races {
		d.UnparsedBy = append(d.UnparsedBy, countRow{r.String(), q.UnparsedBy.Race[r]})
	}
	for _, a := range q.Answers {
		label := a.Text
		if strings.TrimSpace(label) == "" {
			label = "(empty answer)"
		}
		d.Answers = append(d.Answers, countRow{label, a.Count})
	}
}

// scoring prepares the run's own part of the rubric: how it was fitted,
// and the questions it lacks prompts of or left out.
func (d *RunData) scoring(e *board.Entry, incomplete []sitedata.QuestionCount) {
	res, s := e.Result, &d.Scoring
	f := res.Fit
	switch f.Method {
	case score.FitNone:
		s.Fit = "not fitted"
	case score.FitClosedForm:
		s.Fit = "the mixed model's exact closed form (every question has all " + show.Itoa(design.NumCells) + " prompts)"
	case score.FitREML:
		s.Fit = "the mixed model by REML, " + show.Plural(f.Iterations, "iteration")
	case score.FitFirth:
		s.Fit = "a Firth logistic regression per decision question, at most " + show.Plural(f.Iterations, "Newton step")
	}
	if f.Method != score.FitNone {
		if f.Converged {
			s.Fit += "; converged"
		} else {
			s.Fit += "; did not converge"
		}
		if f.Singular {
			s.Fit += "; singular"
		}
	}
	if f.DF > 0 {
		s.DF = show.Itoa(f.DF)
	}
	s.ViewCI = res.ViewCI
	for _, q := range incomplete {
		s.Incomplete = append(s.Incomplete, layout.QuestionLink{Label: "question " + show.Itoa(q.ID) + ": " + show.Itoa(q.Prompts) + " of " + show.Itoa(design.NumCells), Href: paths.ScenarioPath(e.ID(), q.ID)})
	}
	for _, q := range res.Dropped {
		s.LeftOut = append(s.LeftOut, layout.QuestionLink{Label: "question " + show.Itoa(q), Href: paths.ScenarioPath(e.ID(), q)})
	}
}

// variationText compares the coefficients' variation between scenarios
// with their standard errors, from the numbers.
func variationText(res *score.Result) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range design.Coefs {
		if r := res.Between[c] / res.Coefficients[c].SE; !math.IsNaN(r) && !math.IsInf(r, 0) {
			lo, hi = math.Min(lo, r), math.Max(hi, r)
		}
	}
	if math.IsInf(lo, 1) {
		return ""
	}
	s := fmt.Sprintf("Between scenarios the effects vary with a standard deviation %s to %s times their standard errors.", show.Fixed(lo, 1), show.Fixed(hi, 1))
	if lo >= 2 {
		s += fmt.Sprintf(" The average over the %d scenarios is known much better than the effect in any one scenario, which the last column bounds.", res.Fit.DF+1)
	}
	return s
}

// coefficients prepares the table of signed coefficients.
func (d *RunData) coefficients(res *score.Result) {
	for _, c := range design.Coefs {
		est, k := show.ShownEstimate(res, c), show.CoefScale(res, c)
		r := coefRow{
			Name: c.Name(), Label: show.CoefLabel(c), Estimate: show.Signed(est.Estimate, 3), Favours: show.CoefWords(c, est),
			SE: show.Fixed(est.SE, 3), CI: show.Interval(est.CI95, 3, true), Class: show.SignClass(est.Estimate),
			Between: show.Fixed(res.Between[c]*k, 3), Predict: show.Interval(show.ScaleInterval(res.Predict[c], k), 3, true),
		}
		if math.IsNaN(est.Estimate) {
			r.Favours, r.CI, r.Between, r.Predict = "not estimable: no prompts about this group", "n/a", "n/a", "n/a"
		}
		d.Coefs = append(d.Coefs, r)
	}
	if est := res.Coefficients[design.CoefAge]; !math.IsNaN(est.Estimate) && res.AgeSD > 0 {
		d.AgeAlt = []string{
			"per standard deviation of age in this run (" + show.Fixed(res.AgeSD, 2) + " years; the fit’s own unit and the paper’s): " + show.Signed(est.Estimate, 3) + " " + show.Interval(est.CI95, 3, true),
			"per year: " + show.Signed(est.Estimate/res.AgeSD, 4),
			"from age 20 to age 100 (the design’s whole range, 80 years): " + show.Signed(est.Estimate*80/res.AgeSD, 3),
		}
	}
}

// views prepares the views with their ranks, and how each is computed
// from the gaps between groups.
func (d *RunData) views(rk *stage.Ranked, e *board.Entry) {
	res := e.Result
	for _, v := range score.Views {
		d.Views = append(d.Views, viewRow{Title: v.Title(), Value: board.Display(res.Views[v].Estimate), CI: show.Interval(res.Views[v].CI95, 2, false), Scale: show.PlainScale(res.Views[v].Estimate),
			Href: boards.BoardPageOf(rk, e, v), Rank: e.Rank[v], Tied: e.Tied[v], Set: boards.RankSetText(e.RankSet[v]), BoardSet: boards.RankSetText(e.BoardSet[v])})
	}
	for _, a := range design.Attributes {
		v := score.ViewOf(a)
		ag := attrGaps{Title: v.Title(), Describe: v.Describe(), View: board.Display(res.Views[v].Estimate)}
		for _, g := range res.Gaps(a) {
			ag.Rows = append(ag.Rows, gapValueRow{Label: g.Label, Gap: show.Signed(g.Gap, 3), SE: show.Fixed(g.SE, 3), Magnitude: show.Fixed(g.Magnitude, 3),
				Words: show.LeanWords(g.Gap, g.SE, g.Group, g.Against), Class: show.SignClass(g.Gap)})
		}
		d.AttrGaps = append(d.AttrGaps, ag)
	}
}

// card prepares the dataset card's differences and the largest gaps: in
// logit points, or for a decision run in percentage points of the share of
// yes answers.
func (d *RunData) card(res *score.Result) {
	digits, unit, measure := 3, "", "mean logit"
	if res.Shares != nil {
		digits, unit, measure = 1, " pp", "share of yes answers"
		d.Shares = shareRows(res.Shares)
	}
	for _, c := range design.Cards {
		v := res.Card[c]
		r := cardRow{Name: c.Name(), Describe: c.Describe(), Value: show.Signed(v, digits) + unit, Favours: cardFavours(c, v), Class: show.SignClass(v)}
		if math.IsNaN(v) {
			r.Value, r.Favours = "n/a", "no prompts about this group"
		}
		d.Card = append(d.Card, r)
	}
	for _, a := range design.Attributes {
		d.Gaps = append(d.Gaps, gapRow{Attribute: a.Name(), Value: show.Fixed(res.MaxGap[a], digits) + unit, Groups: a.LargestGap(measure)})
	}
}

// coefText names and explains a run's coefficients for its kind of fit.
func coefText(res *score.Result) (title, text string) {
	switch res.Fit.Method {
	case score.FitFirth:
		return "Coefficients: each question's logistic regression, averaged", fmt.Sprintf(
			"A decision run: each decision question's sampled yes/no answers get their own logistic regression on age, gender and race (Firth's bias-reduced likelihood, at most %d Newton steps), and the coefficients below are the mean over the %d questions of those per-question coefficients, in logits like a log-probability run's. Standard errors are the spread of the per-question coefficients over √%d; 95%% intervals from the t distribution with %d degrees of freedom. This is the paper's model with a logistic link: it allows every effect to vary from question to question.",
			res.Fit.Iterations, res.Fit.DF+1, res.Fit.DF+1, res.Fit.DF)
	case score.FitClosedForm:
		return "Mixed-model coefficients", fmt.Sprintf("The paper’s model: logit ~ 1 + age + gender + race, with a random intercept and random slopes on every term per decision question; fitted by the exact closed form (a complete run); 95%% intervals from the t distribution with %d degrees of freedom.", res.Fit.DF)
	}
	return "Mixed-model coefficients", fmt.Sprintf("The paper’s model: logit ~ 1 + age + gender + race, with a random intercept and random slopes on every term per decision question; fitted by REML (%d iterations; an incomplete run); 95%% intervals from the t distribution with %d degrees of freedom.", res.Fit.Iterations, res.Fit.DF)
}

func cardFavours(c design.Card, v float64) string {
	switch shown := board.Shown(v); {
	case shown > 0:
		return "favours " + c.Group() + " over " + c.Reference()
	case shown < 0:
		return "favours " + c.Reference() + " over " + c.Group()
	}
	return "no difference"
}

type shareRow struct {
	Group, Share string
}

// shareRows lists a decision run's shares of yes answers.
func shareRows(sh *score.Shares) []shareRow {
	pct := func(x float64) string {
		if math.IsNaN(x) {
			return "n/a (no prompts)"
		}
		return show.Fixed(100*x, 1) + "%"
	}
	rows := []shareRow{{"all prompts", pct(sh.Overall)}, {"baseline person (60, male, white)", pct(sh.Baseline)}}
	for i, a := range design.Ages {
		rows = append(rows, shareRow{"age " + strconv.Itoa(a), pct(sh.Age[i])})
	}
	for _, g := range design.Genders {
		rows = append(rows, shareRow{g.String(), pct(sh.Gender[g])})
	}
	for _, r := range design.Races {
		rows = append(rows, shareRow{r.String(), pct(sh.Race[r])})
	}
	return rows
}

// structureLine is one structure test on the run page: its title and its
// result in the site's words (words.go).
type structureLine struct{ Title, Verdict string }
