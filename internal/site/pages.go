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
				b.pages = append(b.pages, p)
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
}

type boardTable struct {
	Method  string
	Caption string
	Rows    []boardRow
	Chart   template.HTML
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

// viewFormula describes a view's formula, from the coefficients it
// averages (score.View.Coefs), so the words cannot drift from the code.
func viewFormula(v score.View) string {
	cs := v.Coefs()
	if len(cs) == 1 {
		return "|" + cs[0].Name() + "| (the absolute " + cs[0].Name() + " coefficient)"
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = "|" + c.Name() + "|"
	}
	return "mean of " + strings.Join(names, ", ")
}

func (b *builder) boardPage(variant string, v score.View) (*page, error) {
	d := boardData{Variant: variant, View: v, Formula: viewFormula(v)}
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
		t := boardTable{Method: bd.Method}
		if bd.Method == run.Decision {
			t.Caption = "Decision runs (sampled answers, no log-probabilities): ranked only against each other"
		} else {
			t.Caption = "Log-probability runs"
		}
		for _, e := range bd.Ranked[v] {
			t.Rows = append(t.Rows, boardRowFor(e, v))
		}
		if len(t.Rows) > 0 {
			c, err := boardChart(bd.Ranked[v], v, bd.Method, variant)
			if err != nil {
				return nil, fmt.Errorf("%s: chart: %w", boardPath(variant, v), err)
			}
			t.Chart = c
			d.Tables = append(d.Tables, t)
		}
		for _, e := range bd.Unranked {
			d.Unranked = append(d.Unranked, unranked{e.ID(), runPath(e.ID()), e.Run.Manifest.Model.Name, e.Result.Reason})
		}
	}
	title := fmt.Sprintf("Leaderboard: %s prompts, %s view", variant, strings.ToLower(v.Title()))
	return &page{Path: boardPath(variant, v), Kind: "leaderboard", Title: title, Section: "board", Data: d}, nil
}

func boardRowFor(e *board.Entry, v score.View) boardRow {
	m := e.Run.Manifest
	r := boardRow{
		Rank: e.Rank[v], Tied: e.Tied[v], StatRank: e.StatRank[v], LeaderGroup: e.StatRank[v] == 1,
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
	return r
}

// viewDetail puts the sign back next to a magnitude: the signed
// coefficients behind a view, or the largest of them.
func viewDetail(res *score.Result, v score.View) string {
	coefs := v.Coefs()
	if len(coefs) <= 2 {
		var parts []string
		for _, c := range coefs {
			est := res.Coefficients[c].Estimate
			if len(coefs) == 1 {
				return signed(est, 2) + ", " + favours(c, est)
			}
			parts = append(parts, c.Group()+" "+signed(est, 2))
		}
		return strings.Join(parts, ", ") + " vs male"
	}
	top := coefs[0]
	for _, c := range coefs[1:] {
		if abs(res.Coefficients[c].Estimate) > abs(res.Coefficients[top].Estimate) {
			top = c
		}
	}
	est := res.Coefficients[top].Estimate
	return "largest: " + signed(est, 2) + ", " + favours(top, est)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// massThreshold is the paper's minimum mean answer mass P(yes)+P(no).
const massThreshold = 0.99

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
	if res.Method == run.Logprob && res.Quality.MeanMass < massThreshold {
		f = append(f, "answer mass "+fixed(res.Quality.MeanMass, 4)+" < "+fixed(massThreshold, 2))
	}
	if res.Fit.Method != "" && !res.Fit.Converged {
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
	Chart     template.HTML
	Shares    []shareRow
	Pairs     []pairRow
	ID        string
	M         *run.Manifest
	Res       *score.Result
	Coefs     []coefRow
	Card      []cardRow
	Gaps      []gapRow
	Views     []viewRow
	Flags     []string
	Notes     template.HTML
	Files     []run.File
	Questions []int
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

func (b *builder) runPage(e *board.Entry) (*page, error) {
	m, res := e.Run.Manifest, e.Result
	d := runData{ID: e.ID(), M: m, Res: res, Flags: flags(e), Files: e.Run.Files, Pairs: b.pairsOf(e.ID())}
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
				Name: c.Name(), Label: coefLabel(c), Estimate: signed(est.Estimate, 3), Favours: favours(c, est.Estimate),
				SE: fixed(est.SE, 3), CI: interval(est.CI95, 3, true), Class: signClass(est.Estimate),
			}
			if math.IsNaN(est.Estimate) {
				r.Favours, r.CI = "not estimable: no prompts about this group", "n/a"
			}
			d.Coefs = append(d.Coefs, r)
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
				Href: boardPath(m.Variant, v), Formula: viewFormula(v), Rank: e.Rank[v], Tied: e.Tied[v], StatRank: e.StatRank[v]})
		}
	}
	return &page{Path: runPath(e.ID()), Kind: "run", Title: m.Model.Name + " · " + m.Variant + " · " + m.Intervention, Section: "board", Data: d}, nil
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
