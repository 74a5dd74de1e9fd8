// Package sitedata is the public data format of a built site: the files
// under data/ (data/runs/<id>.json, data/leaderboard.json,
// data/leaderboard.csv). The generator writes them with these types, and
// internal/changes (the changes page against a previous release, and
// build -diff against another site) and -verify (explaining a difference)
// read them back with the same types, so the format is declared once.
package sitedata

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// Paths of the data files, relative to the site root.
const (
	LeaderboardJSON = "data/leaderboard.json"
	LeaderboardCSV  = "data/leaderboard.csv"
	runsDir         = "data/runs/"
)

// RunFile is the path of a run's data file.
func RunFile(id string) string { return runsDir + id + ".json" }

// IsRunFile reports whether a site path is a run's data file.
func IsRunFile(p string) bool { return strings.HasPrefix(p, runsDir) && strings.HasSuffix(p, ".json") }

// ViewsVersion numbers the definition of the views: scores of releases
// with different versions are not comparable. Version 1 (absent from older
// files) was the paper's mean |coefficient|.
const ViewsVersion = 2

// Num is a float written to 10 decimal places (numfmt.Decimal); NaN and
// infinities are null, and null reads back as NaN.
type Num float64

func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return []byte(numfmt.Decimal(f)), nil
}

func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*n = Num(f)
	return err
}

// NumPtr returns a pointer to f as a Num.
func NumPtr(f float64) *Num { n := Num(f); return &n }

// Interval returns an interval as Nums, nil for the zero interval (none).
func Interval(ci [2]float64) *[2]Num {
	if ci == [2]float64{} {
		return nil
	}
	return IntervalOf(ci)
}

// IntervalOf returns an interval as Nums, whatever its value.
func IntervalOf(ci [2]float64) *[2]Num { return &[2]Num{Num(ci[0]), Num(ci[1])} }

// Estimate is a number with its standard error and 95% interval.
type Estimate struct {
	Estimate Num     `json:"estimate"`
	SE       *Num    `json:"se,omitempty"`
	CI95     *[2]Num `json:"ci95,omitempty"`
}

// Fit says how a run's coefficients were obtained.
type Fit struct {
	Method     string `json:"method"`
	Converged  bool   `json:"converged"`
	Singular   bool   `json:"singular"`
	Iterations int    `json:"iterations"`
}

// Quality holds a run's data-quality figures.
type Quality struct {
	Rows         int  `json:"rows"`
	Questions    int  `json:"questions"`
	MissingCells int  `json:"missing_cells"`
	MeanMass     *Num `json:"mean_answer_mass,omitempty"`
	MinMass      *Num `json:"min_answer_mass,omitempty"`
	Decisions    int  `json:"decisions,omitempty"`
	Unparsed     int  `json:"unparsed_decisions,omitempty"`
}

// Question is one decision question's own coefficients.
type Question struct {
	ID           int            `json:"id"`
	Rows         int            `json:"rows"`
	MeanLogit    Num            `json:"mean_logit"`
	Coefficients map[string]Num `json:"coefficients"`
}

// Ranking says which board a run is on and how it is ranked there: the
// ranks belong to that board only.
type Ranking struct {
	Board    string          `json:"board"`
	Ranked   bool            `json:"ranked"`
	Unranked string          `json:"unranked_reason,omitempty"`
	Parent   string          `json:"intervention_of,omitempty"`
	Rank     map[string]int  `json:"rank,omitempty"`
	Tied     map[string]bool `json:"tied,omitempty"`
	StatRank map[string]int  `json:"statistical_rank,omitempty"`
	DefRank  map[string]int  `json:"composite_rank_by_definition,omitempty"`
}

// Run is data/runs/<id>.json: everything computed for one run.
type Run struct {
	ID               string              `json:"id"`
	Variant          string              `json:"variant"`
	Intervention     string              `json:"intervention"`
	InterventionText string              `json:"intervention_text,omitempty"`
	Scoring          string              `json:"scoring"`
	Synthetic        bool                `json:"synthetic"`
	Model            run.Model           `json:"model"`
	Scored           bool                `json:"scored"`
	Reason           string              `json:"reason,omitempty"`
	Complete         bool                `json:"complete"`
	Fit              *Fit                `json:"fit,omitempty"`
	Coefficients     map[string]Estimate `json:"coefficients,omitempty"`
	Card             map[string]Num      `json:"card,omitempty"`
	MaxGap           map[string]Num      `json:"max_gap,omitempty"`
	Views            map[string]Estimate `json:"views,omitempty"`
	Definitions      map[string]Num      `json:"composite_definitions,omitempty"`
	Ranking
	Compat    map[string]Num `json:"lm_eval_compat,omitempty"`
	AgeMean   *Num           `json:"age_mean,omitempty"`
	AgeSD     *Num           `json:"age_sd,omitempty"`
	Quality   Quality        `json:"quality"`
	Questions []Question     `json:"questions,omitempty"`
	Files     []run.File     `json:"files"`
	// Claims sets the manifest's claimed numbers beside the recomputed
	// ones (score.Claims).
	Claims []Claim `json:"claims,omitempty"`
}

// Claim is a number another tool reported for the run, beside ours.
type Claim struct {
	Metric     string `json:"metric"`
	Claimed    Num    `json:"claimed"`
	Recomputed *Num   `json:"recomputed,omitempty"`
	// Verdict is "agrees" or "disagrees" (within the tolerance of the
	// rubric), "not comparable" or "not recomputed", with Why.
	Verdict string `json:"verdict"`
	Why     string `json:"why,omitempty"`
}

// Leaderboard is data/leaderboard.json: the boards, and a summary of every
// run. A later release's changes page reads it.
type Leaderboard struct {
	Title        string       `json:"title"`
	ViewsVersion int          `json:"views_version,omitempty"`
	Release      Release      `json:"release"`
	Generator    string       `json:"generator"`
	Synthetic    bool         `json:"synthetic"`
	Boards       []Board      `json:"boards"`
	Runs         []RunSummary `json:"runs"`
}

// Release names a release of the site.
type Release struct {
	Label string `json:"label"`
	Date  string `json:"date"`
}

// Board is one board: its ranked runs per view, and the runs it lists
// without a rank.
type Board struct {
	ID       string              `json:"id"`
	Variant  string              `json:"variant"`
	Method   string              `json:"method"`
	Ranks    bool                `json:"has_ranks"`
	Views    map[string][]Ranked `json:"views"`
	Unranked []Unranked          `json:"unranked,omitempty"`
}

// Ranked is a run's place in one view of a board.
type Ranked struct {
	Rank     int    `json:"rank,omitempty"`
	Tied     bool   `json:"tied"`
	StatRank int    `json:"statistical_rank,omitempty"`
	ID       string `json:"id"`
	Value    string `json:"value"` // as displayed: ranks are decided on it
}

// Unranked is a run a board lists without a rank, and why.
type Unranked struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// RunSummary is a run's entry in leaderboard.json.
type RunSummary struct {
	ID           string              `json:"id"`
	Model        string              `json:"model"`
	ModelID      string              `json:"model_id"`
	Variant      string              `json:"variant"`
	Intervention string              `json:"intervention"`
	Scoring      string              `json:"scoring"`
	Scored       bool                `json:"scored"`
	Complete     bool                `json:"complete"`
	Synthetic    bool                `json:"synthetic"`
	Views        map[string]Estimate `json:"views,omitempty"`
	Definitions  map[string]Num      `json:"composite_definitions,omitempty"`
	Ranking
}

// Summary is a run's leaderboard.json entry.
func (r *Run) Summary() RunSummary {
	return RunSummary{r.ID, r.Model.Name, r.Model.ID, r.Variant, r.Intervention, r.Scoring, r.Scored, r.Complete, r.Synthetic, r.Views, r.Definitions, r.Ranking}
}

// Marshal writes v as indented JSON without HTML escaping, as every data
// file is written.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// CSV is data/leaderboard.csv: one row per run, from its data file.
func CSV(runs []Run) ([]byte, error) {
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
	rows := [][]string{header}
	for _, r := range runs {
		row := []string{r.ID, r.Model.Name, r.Model.ID, r.Variant, r.Intervention, r.Scoring, strconv.FormatBool(r.Synthetic), strconv.FormatBool(r.Scored), strconv.FormatBool(r.Complete),
			r.Board, strconv.FormatBool(r.Ranked && r.Rank != nil), r.Unranked, r.Parent}
		for _, v := range score.Views {
			rank, stat := "", ""
			if r.Rank != nil {
				rank, stat = strconv.Itoa(r.Rank[v.Name()]), strconv.Itoa(r.StatRank[v.Name()])
			}
			ve, ok := r.Views[v.Name()]
			if !ok {
				row = append(row, rank, stat, "", "", "")
				continue
			}
			lo, hi := "", ""
			if ve.CI95 != nil {
				lo, hi = csvNum(ve.CI95[0]), csvNum(ve.CI95[1])
			}
			row = append(row, rank, stat, csvNum(ve.Estimate), lo, hi)
		}
		for _, d := range score.Definitions[1:] {
			if r.Definitions == nil {
				row = append(row, "")
				continue
			}
			row = append(row, csvNum(r.Definitions[d.Name()]))
		}
		for _, c := range design.Coefs {
			ce, ok := r.Coefficients[c.Name()]
			if !ok {
				row = append(row, "", "")
				continue
			}
			se := ""
			if ce.SE != nil {
				se = csvNum(*ce.SE)
			}
			row = append(row, csvNum(ce.Estimate), se)
		}
		rows = append(rows, row)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// csvNum is a Num as the CSV writes it: empty for a missing number.
func csvNum(n Num) string {
	if math.IsNaN(float64(n)) {
		return ""
	}
	return numfmt.Decimal(float64(n))
}
