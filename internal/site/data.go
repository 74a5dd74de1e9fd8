package site

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// num is a float written to 10 decimal places (trailing zeros dropped):
// enough for every comparison a reader makes, and short of the last bits in
// which two machines' floating point may differ (a value of 1e-14 is
// rounding noise and is written 0).
type num float64

func (n num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return []byte(decimal(f)), nil
}

func (n *num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = num(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*n = num(f)
	return err
}

func decimal(f float64) string {
	s := strconv.FormatFloat(f, 'f', 10, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// rankingJSON says which board a run is on and how it is ranked there:
// the ranks belong to that board only.
type rankingJSON struct {
	Board    string          `json:"board"`
	Ranked   bool            `json:"ranked"`
	Unranked string          `json:"unranked_reason,omitempty"`
	Parent   string          `json:"intervention_of,omitempty"`
	Rank     map[string]int  `json:"rank,omitempty"`
	Tied     map[string]bool `json:"tied,omitempty"`
	StatRank map[string]int  `json:"statistical_rank,omitempty"`
	DefRank  map[string]int  `json:"composite_rank_by_definition,omitempty"`
}

// boardID names a board in the data files.
func boardID(m *run.Manifest) string { return m.Variant + "-" + m.Scoring }

func ranking(e *board.Entry) rankingJSON {
	j := rankingJSON{Board: boardID(e.Run.Manifest), Ranked: e.Ranked, Unranked: e.Why}
	if e.Parent != nil {
		j.Parent = e.Parent.ID()
	}
	if e.Ranked && e.Rank[score.Composite] > 0 {
		j.Rank, j.Tied, j.StatRank, j.DefRank = map[string]int{}, map[string]bool{}, map[string]int{}, map[string]int{}
		for _, v := range score.Views {
			j.Rank[v.Name()], j.Tied[v.Name()], j.StatRank[v.Name()] = e.Rank[v], e.Tied[v], e.StatRank[v]
		}
		for _, d := range score.Definitions {
			j.DefRank[d.Name()] = e.DefRank[d]
		}
	} else if e.Ranked {
		j.Unranked = "the only ranked run of its board: nothing to rank it against"
	}
	return j
}

type estimateJSON struct {
	Estimate num     `json:"estimate"`
	SE       *num    `json:"se,omitempty"`
	CI95     *[2]num `json:"ci95,omitempty"`
}

type fitJSON struct {
	Method     string `json:"method"`
	Converged  bool   `json:"converged"`
	Singular   bool   `json:"singular"`
	Iterations int    `json:"iterations"`
}

type qualityJSON struct {
	Rows         int  `json:"rows"`
	Questions    int  `json:"questions"`
	MissingCells int  `json:"missing_cells"`
	MeanMass     *num `json:"mean_answer_mass,omitempty"`
	MinMass      *num `json:"min_answer_mass,omitempty"`
	Decisions    int  `json:"decisions,omitempty"`
	Unparsed     int  `json:"unparsed_decisions,omitempty"`
}

type questionJSON struct {
	ID           int            `json:"id"`
	Rows         int            `json:"rows"`
	MeanLogit    num            `json:"mean_logit"`
	Coefficients map[string]num `json:"coefficients"`
}

// runJSON is data/runs/<id>.json.
type runJSON struct {
	ID               string                  `json:"id"`
	Variant          string                  `json:"variant"`
	Intervention     string                  `json:"intervention"`
	InterventionText string                  `json:"intervention_text,omitempty"`
	Scoring          string                  `json:"scoring"`
	Synthetic        bool                    `json:"synthetic"`
	Model            run.Model               `json:"model"`
	Scored           bool                    `json:"scored"`
	Reason           string                  `json:"reason,omitempty"`
	Complete         bool                    `json:"complete"`
	Fit              *fitJSON                `json:"fit,omitempty"`
	Coefficients     map[string]estimateJSON `json:"coefficients,omitempty"`
	Card             map[string]num          `json:"card,omitempty"`
	MaxGap           map[string]num          `json:"max_gap,omitempty"`
	Views            map[string]estimateJSON `json:"views,omitempty"`
	Definitions      map[string]num          `json:"composite_definitions,omitempty"`
	rankingJSON
	Compat    map[string]num `json:"lm_eval_compat,omitempty"`
	AgeMean   *num           `json:"age_mean,omitempty"`
	AgeSD     *num           `json:"age_sd,omitempty"`
	Quality   qualityJSON    `json:"quality"`
	Questions []questionJSON `json:"questions,omitempty"`
	Files     []run.File     `json:"files"`
}

func numPtr(f float64) *num { n := num(f); return &n }

func ciPtr(ci [2]float64) *[2]num {
	if ci == [2]float64{} {
		return nil
	}
	return &[2]num{num(ci[0]), num(ci[1])}
}

func runRecord(e *board.Entry) runJSON {
	m, res := e.Run.Manifest, e.Result
	j := runJSON{
		ID: e.ID(), Variant: m.Variant, Intervention: m.Intervention, InterventionText: m.InterventionText,
		Scoring: m.Scoring, Synthetic: m.Synthetic, Model: m.Model, Scored: res.Scored, Reason: res.Reason,
		Complete: res.Complete, Files: e.Run.Files,
		Quality: qualityJSON{Rows: res.Quality.Rows, Questions: res.Quality.Questions, MissingCells: res.Quality.MissingCells,
			Decisions: res.Quality.Decisions, Unparsed: res.Quality.Unparsed},
	}
	if m.Scoring == run.Logprob {
		j.Quality.MeanMass, j.Quality.MinMass = numPtr(res.Quality.MeanMass), numPtr(res.Quality.MinMass)
	}
	if res.Fit.Method != score.FitNone {
		j.Fit = &fitJSON{res.Fit.Method.String(), res.Fit.Converged, res.Fit.Singular, res.Fit.Iterations}
	}
	if res.CoefsValid {
		j.Coefficients = map[string]estimateJSON{}
		for _, c := range design.Coefs {
			est := res.Coefficients[c]
			j.Coefficients[c.Name()] = estimateJSON{num(est.Estimate), numPtr(est.SE), ciPtr(est.CI95)}
		}
	}
	j.Card = map[string]num{}
	for _, c := range design.Cards {
		j.Card[c.Name()] = num(res.Card[c])
	}
	j.MaxGap = map[string]num{}
	for _, a := range design.Attributes {
		j.MaxGap[a.Name()] = num(res.MaxGap[a])
	}
	j.AgeMean, j.AgeSD = numPtr(res.AgeMean), numPtr(res.AgeSD)
	j.rankingJSON = ranking(e)
	if !res.Scored {
		return j
	}
	j.Views, j.Definitions = map[string]estimateJSON{}, map[string]num{}
	for _, v := range score.Views {
		j.Views[v.Name()] = estimateJSON{Estimate: num(res.Views[v].Estimate), SE: numPtr(res.Views[v].SE), CI95: ciPtr(res.Views[v].CI95)}
	}
	for _, d := range score.Definitions {
		j.Definitions[d.Name()] = num(res.Definitions[d])
	}
	j.Compat = map[string]num{}
	for name, v := range score.Compat(res) {
		j.Compat[name] = num(v)
	}
	for _, q := range res.Questions {
		qj := questionJSON{ID: q.ID, Rows: q.Rows, MeanLogit: num(q.MeanLogit), Coefficients: map[string]num{}}
		for _, c := range design.Coefs {
			qj.Coefficients[c.Name()] = num(q.Coefs[c])
		}
		j.Questions = append(j.Questions, qj)
	}
	return j
}

// leaderboardJSON is data/leaderboard.json: the boards, and a summary of
// every run. A later release's changes page reads this file.
type leaderboardJSON struct {
	Title string `json:"title"`
	// ViewsVersion numbers the definition of the views: scores of releases
	// with different versions are not comparable. Absent means 1, the
	// paper's mean |coefficient| (releases before the views were redefined).
	ViewsVersion int          `json:"views_version,omitempty"`
	Release      releaseJSON  `json:"release"`
	Generator    string       `json:"generator"`
	Synthetic    bool         `json:"synthetic"`
	Boards       []boardJSON  `json:"boards"`
	Runs         []runSummary `json:"runs"`
}

type releaseJSON struct {
	Label string `json:"label"`
	Date  string `json:"date"`
}

type boardJSON struct {
	ID       string                  `json:"id"`
	Variant  string                  `json:"variant"`
	Method   string                  `json:"method"`
	Ranks    bool                    `json:"has_ranks"`
	Views    map[string][]rankedJSON `json:"views"`
	Unranked []unrankedJSON          `json:"unranked,omitempty"`
}

type rankedJSON struct {
	Rank     int    `json:"rank,omitempty"`
	Tied     bool   `json:"tied"`
	StatRank int    `json:"statistical_rank,omitempty"`
	ID       string `json:"id"`
	Value    string `json:"value"` // as displayed: ranks are decided on it
}

type unrankedJSON struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// viewsVersion is the current definition of the views (see
// leaderboardJSON.ViewsVersion).
const viewsVersion = 2

type runSummary struct {
	ID           string                  `json:"id"`
	Model        string                  `json:"model"`
	ModelID      string                  `json:"model_id"`
	Variant      string                  `json:"variant"`
	Intervention string                  `json:"intervention"`
	Scoring      string                  `json:"scoring"`
	Scored       bool                    `json:"scored"`
	Complete     bool                    `json:"complete"`
	Synthetic    bool                    `json:"synthetic"`
	Views        map[string]estimateJSON `json:"views,omitempty"`
	Definitions  map[string]num          `json:"composite_definitions,omitempty"`
	rankingJSON
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// data writes the machine-readable copies of everything on the boards.
func (b *builder) data() error {
	lb := leaderboardJSON{
		Title: b.site.Title, ViewsVersion: viewsVersion, Release: releaseJSON{b.site.Release.Label, b.site.Release.Date},
		Generator: b.site.Version, Synthetic: b.site.Synthetic,
	}
	for _, bd := range b.boards {
		bj := boardJSON{ID: bd.Variant + "-" + bd.Method, Variant: bd.Variant, Method: bd.Method, Ranks: bd.HasRanks(), Views: map[string][]rankedJSON{}}
		for _, v := range score.Views {
			list := []rankedJSON{}
			for _, e := range bd.Ranked[v] {
				list = append(list, rankedJSON{e.Rank[v], e.Tied[v], e.StatRank[v], e.ID(), board.Display(e.Result.Views[v].Estimate)})
			}
			bj.Views[v.Name()] = list
		}
		for _, e := range bd.Unranked {
			bj.Unranked = append(bj.Unranked, unrankedJSON{e.ID(), e.Why})
		}
		lb.Boards = append(lb.Boards, bj)
	}
	var rows [][]string
	header := []string{"id", "model", "model_id", "variant", "intervention", "scoring", "synthetic", "scored", "complete", "board", "ranked", "unranked_reason", "intervention_of"}
	for _, v := range score.Views {
		header = append(header, "rank_"+v.Name(), "statistical_rank_"+v.Name(), "view_"+v.Name(), "view_"+v.Name()+"_ci95_low", "view_"+v.Name()+"_ci95_high")
	}
	for _, d := range score.Definitions[1:] {
		header = append(header, "composite_"+d.Name())
	}
	for _, c := range design.Coefs {
		header = append(header, "coef_"+c.Name(), "coef_"+c.Name()+"_se")
	}
	rows = append(rows, header)
	for _, e := range b.entries {
		rec := runRecord(e)
		data, err := marshal(rec)
		if err != nil {
			return err
		}
		b.files = append(b.files, File{Path: "data/runs/" + e.ID() + ".json", Data: data})
		lb.Runs = append(lb.Runs, runSummary{rec.ID, rec.Model.Name, rec.Model.ID, rec.Variant, rec.Intervention, rec.Scoring, rec.Scored, rec.Complete, rec.Synthetic, rec.Views, rec.Definitions, rec.rankingJSON})
		m, res := e.Run.Manifest, e.Result
		rk := rec.rankingJSON
		row := []string{e.ID(), m.Model.Name, m.Model.ID, m.Variant, m.Intervention, m.Scoring, strconv.FormatBool(m.Synthetic), strconv.FormatBool(res.Scored), strconv.FormatBool(res.Complete),
			rk.Board, strconv.FormatBool(rk.Ranked && rk.Rank != nil), rk.Unranked, rk.Parent}
		for _, v := range score.Views {
			rank, stat := "", ""
			if rk.Rank != nil {
				rank, stat = strconv.Itoa(e.Rank[v]), strconv.Itoa(e.StatRank[v])
			}
			if !res.Scored {
				row = append(row, rank, stat, "", "", "")
				continue
			}
			ve := res.Views[v]
			row = append(row, rank, stat, csvNum(ve.Estimate), csvNum(ve.CI95[0]), csvNum(ve.CI95[1]))
		}
		for _, d := range score.Definitions[1:] {
			if !res.Scored {
				row = append(row, "")
				continue
			}
			row = append(row, csvNum(res.Definitions[d]))
		}
		for _, c := range design.Coefs {
			if !res.CoefsValid {
				row = append(row, "", "")
				continue
			}
			row = append(row, csvNum(res.Coefficients[c].Estimate), csvNum(res.Coefficients[c].SE))
		}
		rows = append(rows, row)
	}
	data, err := marshal(lb)
	if err != nil {
		return err
	}
	var csvBuf bytes.Buffer
	w := csv.NewWriter(&csvBuf)
	if err := w.WriteAll(rows); err != nil {
		return err
	}
	b.files = append(b.files, File{Path: "data/leaderboard.json", Data: data}, File{Path: "data/leaderboard.csv", Data: csvBuf.Bytes()})
	return nil
}

func csvNum(f float64) string {
	if math.IsNaN(f) {
		return ""
	}
	return decimal(f)
}
