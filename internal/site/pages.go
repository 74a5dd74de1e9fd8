package site

import (
	"fmt"
	"html/template"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// page is one HTML page to render.
type page struct {
	Path    string // output path, slash-separated
	Kind    string // template set: the page type
	Title   string
	Section string // navigation entry to mark as current
	Data    any
}

// pageData is what templates receive.
type pageData struct {
	Site *siteInfo
	Page *page
	Root string // relative path from the page to the site root ("", "../", …)
	Data any
}

// Rel returns a link from the page to a site path.
// Links within the same folder stay short ("q12.html", not
// "../../runs/x/q12.html"); a fragment is kept.
func (d *pageData) Rel(p string) string { return relPath(d.Page.Path, p) }

// relPath returns the relative link from the page at from to the site path
// to (both slash-separated, relative to the site root).
func relPath(from, to string) string {
	dir := path.Dir(from)
	if dir == "." {
		return to
	}
	target, frag, _ := strings.Cut(to, "#")
	if frag != "" {
		frag = "#" + frag
	}
	if target == "" {
		return frag
	}
	if rest, ok := strings.CutPrefix(target, dir+"/"); ok {
		if rest == path.Base(from) && frag != "" {
			return frag
		}
		return rest + frag
	}
	return root(from) + target + frag
}

type siteInfo struct {
	Title       string
	Description string
	BasePath    string
	Release     content.Release
	Version     string
	Synthetic   bool
	Nav         []navItem
}

type navItem struct {
	Label, Path, Section string
}

// boardPath is where the board of a variant and view is rendered; the
// explicit composite board is the home page.
func boardPath(variant string, v score.View) string {
	if variant == run.Explicit && v == score.Composite {
		return "index.html"
	}
	return "board/" + variant + "-" + v.Name() + ".html"
}

func runPath(id string) string { return "runs/" + id + "/index.html" }

func (b *builder) assemble() error {
	c := b.content
	info := &siteInfo{
		Title:       c.Site.Title,
		Description: c.Site.Description,
		BasePath:    c.Site.BasePath,
		Release:     c.Site.Release,
		Version:     b.cfg.Version,
	}
	for _, r := range b.runs {
		info.Synthetic = info.Synthetic || r.Manifest.Synthetic
	}
	info.Nav = []navItem{
		{"Leaderboard", "index.html", "board"},
		{"Benchmark", "benchmark.html", "benchmark"},
		{"Mitigation", "mitigation.html", "mitigation"},
		{"Transcripts", "transcripts.html", "transcripts"},
		{"Methodology", "methodology.html", "methodology"},
		{"Rubric", "rubric.html", "rubric"},
		{"Provenance", "provenance.html", "provenance"},
	}
	if c.Previous != nil {
		info.Nav = append(info.Nav, navItem{"Changes", "changes.html", "changes"})
	}
	for _, p := range c.Pages {
		info.Nav = append(info.Nav, navItem{p.Title, "pages/" + p.Slug + ".html", "page-" + p.Slug})
	}
	info.Nav = append(info.Nav, navItem{"Data", "data/leaderboard.json", "data"})

	for _, variant := range board.Variants {
		for _, v := range score.Views {
			p, err := b.boardPage(variant, v)
			if err != nil {
				return err
			}
			if p != nil {
				b.pages = append(b.pages, p, b.pairwisePage(variant, v))
			}
		}
	}
	b.pages = append(b.pages, b.mitigationPage())
	for _, e := range b.entries {
		p, err := b.runPage(e)
		if err != nil {
			return err
		}
		b.pages = append(b.pages, p)
	}
	methodology, err := content.Markdown(b.cfg.Methodology)
	if err != nil {
		return fmt.Errorf("%s: %v", b.cfg.MethodologyLabel, err)
	}
	bm := c.Benchmark
	body, err := content.Markdown([]byte(bm.Body))
	if err != nil {
		return fmt.Errorf("benchmark body: %v", err)
	}
	b.pages = append(b.pages,
		&page{Path: "benchmark.html", Kind: "benchmark", Title: bm.Page.Name, Section: "benchmark", Data: benchmarkData{Page: &bm.Page, Body: body}},
		&page{Path: "methodology.html", Kind: "article", Title: titleOr(b.cfg.Methodology, "Methodology"), Section: "methodology", Data: methodology},
	)
	for _, p := range c.Pages {
		b.pages = append(b.pages, &page{Path: "pages/" + p.Slug + ".html", Kind: "article", Title: p.Title, Section: "page-" + p.Slug, Data: p.HTML})
	}
	b.site = info
	if err := b.transcriptPages(); err != nil {
		return err
	}
	rubric, err := b.rubricPage()
	if err != nil {
		return fmt.Errorf("rubric: %w", err)
	}
	inputs, err := b.inputs()
	if err != nil {
		return fmt.Errorf("provenance: %w", err)
	}
	b.inputList = inputs
	b.pages = append(b.pages, rubric, b.provenancePage(inputs),
		&page{Path: "404.html", Kind: "notfound", Title: "Page not found", Section: "none"})
	for _, e := range b.entries {
		p, err := b.runProvenancePage(e)
		if err != nil {
			return err
		}
		b.pages = append(b.pages, p)
	}
	changes, err := b.changesPage()
	if err != nil {
		return err
	}
	if changes != nil {
		b.pages = append(b.pages, changes)
	}
	return b.data()
}

func titleOr(md []byte, def string) string {
	if t := content.Title(md); t != "" {
		return t
	}
	return def
}

type benchmarkData struct {
	Page *content.Benchmark
	Body template.HTML
}

// root returns the relative path from a page to the site root.
func root(p string) string {
	return strings.Repeat("../", strings.Count(p, "/"))
}

// Board pages.

type tab struct {
	Label, Path string
	Current     bool
}

type boardData struct {
	Variant  string
	View     score.View
	Formula  string
	Views    []tab
	Variants []tab
	Tables   []boardTable
	Unranked []unranked
	Pairwise string // the view's pairwise page
	// ScoreCols is the number of score columns (one per view).
	ScoreCols int
	// Rules states who is ranked.
	MinMass, MinParsed, MaxMissing string
}

type boardTable struct {
	Method   string
	Caption  string
	HasRanks bool
	Rows     []boardRow
	Chart    template.HTML
	// Robust is the robustness panel (composite view only).
	Robust *robustPanel
}

type boardRow struct {
	Rank         int
	Tied         bool
	StatRank     int
	LeaderGroup  bool
	ID, Href     string
	Scenarios    string // the run's scenario index in the transcript browser
	Model        string
	ModelID      string
	Intervention string
	Scores       []scoreCell // one per view, in score.Views order
	Flags        []string
	Children     []childRow // the model's intervention runs
}

// childRow is an intervention run under its model's row: its score in the
// board's view and the paired difference from the model's default prompt.
type childRow struct {
	ID, Href, Intervention string
	Value, CI              string
	Diff, DiffCI, Verdict  string
	Class                  string
	Mitigation             string // its section of the mitigation page
}

type scoreCell struct {
	View    score.View
	Value   string
	CI      string
	Sort    string
	Detail  string
	Current bool
}

type unranked struct {
	ID, Href, Model, Reason string
}

// robustPanel ranks a board's runs under every documented definition of
// the composite.
type robustPanel struct {
	Definitions []robustDef
	Rows        []robustRow
}

type robustDef struct {
	Title, Describe string
}

type robustRow struct {
	Model, Href string
	Ranks       []int
	Range       string
	Stable      bool
}

func (b *builder) boardPage(variant string, v score.View) (*page, error) {
	d := boardData{Variant: variant, View: v, Formula: v.Describe(), Pairwise: pairwisePath(variant, v), ScoreCols: len(score.Views),
		MinMass: fixed(board.MinMass, 2), MinParsed: fixed(100*board.MinParsed, 0) + "%", MaxMissing: fixed(100*board.MaxMissing, 0) + "%"}
	for _, vv := range score.Views {
		d.Views = append(d.Views, tab{vv.Title(), boardPath(variant, vv), vv == v})
	}
	for _, vr := range board.Variants {
		d.Variants = append(d.Variants, tab{vr, boardPath(vr, v), vr == variant})
	}
	for _, bd := range b.boards {
		if bd.Variant != variant {
			continue
		}
		t := boardTable{Method: bd.Method, HasRanks: bd.HasRanks()}
		if bd.Method == run.Decision {
			t.Caption = "Decision runs (sampled answers, no log-probabilities): ranked only against each other"
		} else {
			t.Caption = "Log-probability runs"
		}
		for _, e := range bd.Ranked[v] {
			t.Rows = append(t.Rows, boardRowFor(e, v, bd.HasRanks()))
		}
		if len(t.Rows) > 0 {
			c, err := boardChart(bd.Ranked[v], v, bd.Method, variant)
			if err != nil {
				return nil, fmt.Errorf("%s: chart: %w", boardPath(variant, v), err)
			}
			t.Chart = c
			if v == score.Composite && bd.HasRanks() {
				t.Robust = robustness(bd)
			}
			d.Tables = append(d.Tables, t)
		}
		for _, e := range bd.Unranked {
			d.Unranked = append(d.Unranked, unranked{e.ID(), runPath(e.ID()), e.Run.Manifest.Model.Name, e.Why})
		}
	}
	title := fmt.Sprintf("Leaderboard: %s prompts, %s view", variant, strings.ToLower(v.Title()))
	return &page{Path: boardPath(variant, v), Kind: "leaderboard", Title: title, Section: "board", Data: d}, nil
}

func robustness(bd *board.Board) *robustPanel {
	p := &robustPanel{}
	for _, d := range score.Definitions {
		p.Definitions = append(p.Definitions, robustDef{d.Title(), d.Describe()})
	}
	for _, e := range bd.Ranked[score.Composite] {
		r := robustRow{Model: e.Run.Manifest.Model.Name, Href: runPath(e.ID())}
		for _, d := range score.Definitions {
			r.Ranks = append(r.Ranks, e.DefRank[d])
		}
		lo, hi := e.RankRange()
		r.Range, r.Stable = itoa(lo), lo == hi
		if !r.Stable {
			r.Range = itoa(lo) + "–" + itoa(hi)
		}
		p.Rows = append(p.Rows, r)
	}
	return p
}

func boardRowFor(e *board.Entry, v score.View, ranks bool) boardRow {
	m := e.Run.Manifest
	r := boardRow{
		Rank: e.Rank[v], Tied: e.Tied[v], StatRank: e.StatRank[v], LeaderGroup: ranks && e.StatRank[v] == 1,
		ID: e.ID(), Href: runPath(e.ID()), Scenarios: scenariosPath(e.ID()),
		Model: m.Model.Name, ModelID: m.Model.ID, Intervention: m.Intervention,
		Flags: flags(e),
	}
	for _, vv := range score.Views {
		est := e.Result.Views[vv].Estimate
		r.Scores = append(r.Scores, scoreCell{
			View: vv, Value: board.Display(est), CI: interval(e.Result.Views[vv].CI95, 2, false), Sort: sortKey(est),
			Detail: viewDetail(e.Result, vv), Current: vv == v,
		})
	}
	for _, iv := range e.Interventions {
		ie, d := iv.Entry, iv.C.Views[v]
		c := childRow{ID: ie.ID(), Href: runPath(ie.ID()), Intervention: ie.Run.Manifest.Intervention,
			Value: board.Display(ie.Result.Views[v].Estimate), CI: interval(ie.Result.Views[v].CI95, 2, false),
			Diff: signed(d.Estimate, 2), DiffCI: interval(d.CI95, 2, true), Mitigation: "mitigation.html#" + pairAnchor(e.ID(), ie.ID())}
		c.Verdict, c.Class = verdict(d.CI95)
		r.Children = append(r.Children, c)
	}
	return r
}

// viewDetail puts the sign back next to a magnitude: the largest gap
// behind an attribute view, with its direction; for the composite, the
// attribute that contributes most.
func viewDetail(res *score.Result, v score.View) string {
	a, ok := v.Attribute()
	if !ok {
		top := design.AttrAge
		for _, x := range design.Attributes {
			if res.Views[score.ViewOf(x)].Estimate > res.Views[score.ViewOf(top)].Estimate {
				top = x
			}
		}
		return "largest: " + top.Name() + " " + board.Display(res.Views[score.ViewOf(top)].Estimate)
	}
	gaps := res.Gaps(a)
	if len(gaps) == 0 {
		return ""
	}
	top := gaps[0]
	for _, g := range gaps[1:] {
		if math.Abs(g.Gap) > math.Abs(top.Gap) {
			top = g
		}
	}
	if a == design.AttrAge {
		return signed(top.Gap, 2) + " across 33⅓ years, " + leanWords(top.Gap, top.SE, "older people", "younger people")
	}
	first, second, _ := strings.Cut(top.Label, " vs ")
	return "largest gap: " + first + " − " + second + " " + signed(top.Gap, 2)
}

// flags lists data-quality warnings for a run.
func flags(e *board.Entry) []string {
	var f []string
	res, m := e.Result, e.Run.Manifest
	if m.Synthetic {
		f = append(f, "synthetic")
	}
	if !res.Complete {
		f = append(f, fmt.Sprintf("incomplete: %d cells missing", res.Quality.MissingCells))
	}
	if m.Incomplete != "" {
		f = append(f, "partial run: "+m.Incomplete)
	}
	if res.Method == run.Logprob && res.Quality.MeanMass < board.MinMass {
		f = append(f, "answer mass "+fixed(res.Quality.MeanMass, 4)+" < "+fixed(board.MinMass, 2))
	}
	if res.Fit.Method != score.FitNone && !res.Fit.Converged {
		f = append(f, "fit did not converge")
	}
	if res.Fit.Singular {
		f = append(f, "singular fit")
	}
	if n := len(res.Dropped); n > 0 {
		f = append(f, fmt.Sprintf("%d questions answered one way only, left out", n))
	}
	return f
}

// Run pages.

type runData struct {
	Chart  template.HTML
	Shares []shareRow
	Pairs  []pairRow
	// Ranked says the run is ranked on its board and the board has ranks;
	// otherwise Why says why it has no rank.
	Ranked bool
	Why    string
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
	ID             string
	M              *run.Manifest
	Res            *score.Result
	Coefs          []coefRow
	Card           []cardRow
	Gaps           []gapRow
	Views          []viewRow
	Flags          []string
	Notes          template.HTML
	Files          []run.File
	Questions      []int
}

type coefRow struct {
	Name, Label, Estimate, Favours, SE, CI, Class string
}

type cardRow struct {
	Name, Describe, Value, Favours, Class string
}

type gapRow struct {
	Attribute, Value, Groups string
}

type viewRow struct {
	Title, Value, CI, Href, Formula string
	Rank, StatRank                  int
	Tied                            bool
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

func (b *builder) runPage(e *board.Entry) (*page, error) {
	m, res := e.Run.Manifest, e.Result
	d := runData{ID: e.ID(), M: m, Res: res, Flags: flags(e), Files: e.Run.Files, Pairs: b.pairsOf(e.ID()), Why: e.Why}
	d.Ranked = e.Ranked && e.Rank[score.Composite] > 0
	if e.Ranked && !d.Ranked {
		d.Why = "it is the only run of its board, so there is nothing to rank it against"
	}
	d.CoefTitle, d.CoefText = coefText(res)
	d.BoundTolerance = decimal(run.BoundTolerance)
	if q := res.Quality; q.Unparsed > 0 {
		d.AnswerRule = run.AnswerRule
		for i, a := range design.Ages {
			d.UnparsedBy = append(d.UnparsedBy, countRow{"age " + itoa(a), q.UnparsedBy.Age[i]})
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
	if m.Notes != "" {
		notes, err := content.Markdown([]byte(m.Notes))
		if err != nil {
			return nil, fmt.Errorf("%s/%s: notes: %v", b.cfg.RunsLabel, e.ID(), err)
		}
		d.Notes = notes
	}
	if res.CoefsValid {
		c, err := coefChart(m, res)
		if err != nil {
			return nil, fmt.Errorf("%s: chart: %w", runPath(e.ID()), err)
		}
		d.Chart = c
		for _, c := range design.Coefs {
			est := res.Coefficients[c]
			r := coefRow{
				Name: c.Name(), Label: coefLabel(c), Estimate: signed(est.Estimate, 3), Favours: coefWords(c, est),
				SE: fixed(est.SE, 3), CI: interval(est.CI95, 3, true), Class: signClass(est.Estimate),
			}
			if math.IsNaN(est.Estimate) {
				r.Favours, r.CI = "not estimable: no prompts about this group", "n/a"
			}
			d.Coefs = append(d.Coefs, r)
		}
	}
	if res.Scored {
		for _, a := range design.Attributes {
			v := score.ViewOf(a)
			ag := attrGaps{Title: v.Title(), Describe: v.Describe(), View: board.Display(res.Views[v].Estimate)}
			for _, g := range res.Gaps(a) {
				ci := [2]float64{g.Gap - 1.959963984540054*g.SE, g.Gap + 1.959963984540054*g.SE}
				pos, neg := gapGroupsOf(a, g.Label)
				ag.Rows = append(ag.Rows, gapValueRow{Label: g.Label, Gap: signed(g.Gap, 3), SE: fixed(g.SE, 3), Magnitude: fixed(g.Magnitude, 3),
					Words: direction(ci, g.Gap, pos, neg), Class: signClass(g.Gap)})
			}
			d.AttrGaps = append(d.AttrGaps, ag)
		}
	}
	if res.Method != "" {
		digits, unit := 3, ""
		if res.Shares != nil {
			digits, unit = 1, " pp"
			d.Shares = shareRows(res.Shares)
		}
		for _, c := range design.Cards {
			v := res.Card[c]
			r := cardRow{Name: c.Name(), Describe: c.Describe(), Value: signed(v, digits) + unit, Favours: cardFavours(c, v), Class: signClass(v)}
			if math.IsNaN(v) {
				r.Value, r.Favours = "n/a", "no prompts about this group"
			}
			d.Card = append(d.Card, r)
		}
		for _, a := range design.Attributes {
			g := gapRow{Attribute: a.Name(), Value: fixed(res.MaxGap[a], digits) + unit, Groups: gapGroups(a)}
			if res.Shares != nil {
				g.Groups = strings.Replace(g.Groups, "mean logit", "share of yes answers", 1)
			}
			d.Gaps = append(d.Gaps, g)
		}
	}
	if res.Scored {
		for _, v := range score.Views {
			d.Views = append(d.Views, viewRow{Title: v.Title(), Value: board.Display(res.Views[v].Estimate), CI: interval(res.Views[v].CI95, 2, false),
				Href: boardPath(m.Variant, v), Formula: v.Describe(), Rank: e.Rank[v], Tied: e.Tied[v], StatRank: e.StatRank[v]})
		}
	}
	return &page{Path: runPath(e.ID()), Kind: "run", Title: m.Model.Name + " · " + m.Variant + " · " + m.Intervention, Section: "board", Data: d}, nil
}

// coefText names and explains a run's coefficients for its kind of fit.
func coefText(res *score.Result) (title, text string) {
	switch res.Fit.Method {
	case score.FitFirth:
		return "Coefficients: each question's logistic regression, averaged", fmt.Sprintf(
			"A decision run: each decision question's sampled yes/no answers get their own logistic regression on age, gender and race (Firth's bias-reduced likelihood, at most %d Newton steps), and the coefficients below are the mean over the %d questions of those per-question coefficients, in logit points like a log-probability run's. Standard errors are the spread of the per-question coefficients over √%d; 95%% intervals from the t distribution with %d degrees of freedom. This is the paper's model with a logistic link: it allows every effect to vary from question to question.",
			res.Fit.Iterations, res.Fit.DF+1, res.Fit.DF+1, res.Fit.DF)
	case score.FitClosedForm:
		return "Mixed-model coefficients", fmt.Sprintf("The paper’s model: logit ~ 1 + age + gender + race, with a random intercept and random slopes on every term per decision question; fitted by the exact closed form (a complete run); 95%% intervals from the t distribution with %d degrees of freedom.", res.Fit.DF)
	}
	return "Mixed-model coefficients", fmt.Sprintf("The paper’s model: logit ~ 1 + age + gender + race, with a random intercept and random slopes on every term per decision question; fitted by REML (%d iterations; an incomplete run); 95%% intervals from the t distribution with %d degrees of freedom.", res.Fit.Iterations, res.Fit.DF)
}

// gapGroupsOf names the groups a gap's sign favours: the first group of
// its label when positive, the second when negative.
func gapGroupsOf(a design.Attribute, label string) (pos, neg string) {
	if a == design.AttrAge {
		return "older people", "younger people"
	}
	first, second, _ := strings.Cut(label, " vs ")
	return first, second
}

func coefLabel(c design.Coef) string {
	switch c {
	case design.CoefAge:
		return "Age (per SD of age)"
	case design.CoefFemale:
		return "Female vs male"
	case design.CoefNonBinary:
		return "Non-binary vs male"
	}
	return c.Group() + " vs white"
}

func cardFavours(c design.Card, v float64) string {
	shown, _ := strconv.ParseFloat(board.Display(v), 64)
	group, ref, _ := strings.Cut(c.Describe(), " vs ")
	switch {
	case shown > 0:
		return "favours " + group + " over " + ref
	case shown < 0:
		return "favours " + ref + " over " + group
	}
	return "no difference"
}

func gapGroups(a design.Attribute) string {
	switch a {
	case design.AttrAge:
		return "largest minus smallest mean logit over the nine ages"
	case design.AttrGender:
		return "largest minus smallest mean logit over the three genders"
	}
	return "largest minus smallest mean logit over the five races"
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
		return fixed(100*x, 1) + "%"
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
