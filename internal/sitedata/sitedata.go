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
	"fmt"
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

// ReplicatesFile is the path of a REML run's bootstrap replicates
// (ReplicatesCSV).
func ReplicatesFile(id string) string { return "data/replicates/" + id + ".csv" }

// RunCopy is where the site keeps a copy of one of a run's input files,
// named by its path in the runs folder ("<id>/scored.jsonl.gz"): the run
// folder is mirrored under data/runs/<id>/.
func RunCopy(runsPath string) string { return runsDir + runsPath }

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
	Estimate Num     `json:"estimate" jsonschema_description:"the estimate, in logits"`
	SE       *Num    `json:"se,omitempty" jsonschema_description:"its standard error"`
	CI95     *[2]Num `json:"ci95,omitempty" jsonschema_description:"its 95% interval, low and high"`
}

// File is one of a run's input files with its SHA-256, and where the site
// offers it for download.
type File struct {
	Path   string `json:"path" jsonschema_description:"the file's path in the runs folder, <id>/<name>"`
	SHA256 string `json:"sha256" jsonschema_description:"SHA-256 of the file as stored, in hex"`
	Size   int64  `json:"size" jsonschema_description:"size in bytes"`
	// Download is a path relative to the site root (a copy in the site) or
	// an absolute URL (site.yaml's runs_url).
	Download string `json:"download,omitempty" jsonschema_description:"where to download the file: a path relative to the site root, or a URL"`
}

// Fit says how a run's coefficients were obtained.
type Fit struct {
	Method     string `json:"method" jsonschema_description:"how the coefficients were fitted"`
	Converged  bool   `json:"converged" jsonschema_description:"whether the fit converged"`
	Singular   bool   `json:"singular" jsonschema_description:"whether the fit is singular (a variance component estimated as zero)"`
	Iterations int    `json:"iterations" jsonschema_description:"iterations the fit took"`
}

// Quality holds a run's data-quality figures.
type Quality struct {
	Rows         int  `json:"rows" jsonschema_description:"rows (prompts) scored"`
	Questions    int  `json:"questions" jsonschema_description:"decision questions with at least one row"`
	MissingCells int  `json:"missing_cells" jsonschema_description:"prompts of the dataset with no row"`
	MeanMass     *Num `json:"mean_answer_mass,omitempty" jsonschema_description:"mean P(yes)+P(no) over the rows (log-probability runs)"`
	MinMass      *Num `json:"min_answer_mass,omitempty" jsonschema_description:"smallest P(yes)+P(no) of a row (log-probability runs)"`
	Decisions    int  `json:"decisions,omitempty" jsonschema_description:"sampled answers in all (decision runs)"`
	Unparsed     int  `json:"unparsed_decisions,omitempty" jsonschema_description:"sampled answers that were neither a yes nor a no"`
}

// RunRubric is what of the rubric is the run's own: how its answers were
// read and its numbers obtained.
type RunRubric struct {
	YesForms       []string        `json:"yes_forms" jsonschema_description:"the answer forms counted as yes"`
	NoForms        []string        `json:"no_forms" jsonschema_description:"the answer forms counted as no"`
	PromptTemplate string          `json:"prompt_template,omitempty" jsonschema_description:"the manifest's prompt template, when it gives one"`
	IntervalDF     int             `json:"interval_df,omitempty" jsonschema_description:"degrees of freedom of the coefficients' t intervals"`
	ViewIntervals  string          `json:"view_intervals,omitempty" jsonschema_description:"how the views' intervals were obtained"`
	Incomplete     []QuestionCount `json:"incomplete_questions,omitempty" jsonschema_description:"the decision questions missing some of their prompts, with the prompts present"`
	LeftOut        []int           `json:"questions_left_out,omitempty" jsonschema_description:"decision questions left out of a decision run's regression: every answer was the same"`
}

// QuestionCount is a decision question with a count of its prompts.
type QuestionCount struct {
	ID      int `json:"id" jsonschema_description:"the decision question id"`
	Prompts int `json:"prompts" jsonschema_description:"its prompts present"`
}

// Question is one decision question's own coefficients.
type Question struct {
	ID           int               `json:"id" jsonschema_description:"the decision question id"`
	Rows         int               `json:"rows" jsonschema_description:"rows (prompts) scored"`
	MeanLogit    Num               `json:"mean_logit" jsonschema_description:"mean logit of yes over the question's rows"`
	Coefficients map[string]Num    `json:"coefficients" jsonschema_description:"signed coefficients by name, in logits: positive favours the named group; age per 10 years older"`
	Views        map[string][3]Num `json:"views,omitempty" jsonschema_description:"per view, [estimate, 95% interval low, 95% interval high], to 4 decimals: the run's view computed from this question's prompts alone (its own least squares or Firth fit) with an interval from its own sampling variation, starting at 0 unless the Wald F test that its coefficients behind the view are all zero rejects at 0.05"`
	Outlier      *QuestionOutlier  `json:"outlier,omitempty" jsonschema_description:"whether the question's coefficients stand out of the other questions' spread (complete log-probability runs only): Hotelling's test of its seven coefficients against the others' mean and covariance, corrected by Holm's procedure over the run's questions"`
}

// QuestionOutlier is a question's test of standing out of the others
// (score.Outlier): the coefficient that stands out most only for a flagged
// question (a run's data file stays small).
type QuestionOutlier struct {
	Flagged     bool   `json:"flagged" jsonschema_description:"an outlier scenario: p_holm at most 0.05, so that a run whose questions all come from one distribution has one flagged with probability at most 0.05"`
	P           Num    `json:"p" jsonschema_description:"p-value of the question's seven coefficients being a draw like the other questions' (Hotelling's T² for a new observation, F(7, m − 8))"`
	PHolm       Num    `json:"p_holm" jsonschema_description:"p adjusted by Holm's procedure over the run's questions"`
	Coefficient string `json:"coefficient,omitempty" jsonschema_description:"for a flagged question, the coefficient that stands out most: the largest |z|"`
	Z           *Num   `json:"z,omitempty" jsonschema_description:"that coefficient's deviation from the other questions' mean over their standard deviation (× √(1 + 1/(m − 1)), as a new draw's)"`
	OthersMean  *Num   `json:"others_mean,omitempty" jsonschema_description:"the other questions' mean of that coefficient, in its unit (age per 10 years older)"`
}

// Contributions are a view's largest contributions.
type Contributions struct {
	Sum     Num            `json:"sum" jsonschema_description:"the contributions of every question added up: the view before debiasing"`
	Largest []Contribution `json:"largest" jsonschema_description:"the questions with the largest contributions that push the view up, largest first (at most 3)"`
}

// Contribution is one question's contribution to a view.
type Contribution struct {
	ID           int `json:"id" jsonschema_description:"the decision question id"`
	Contribution Num `json:"contribution" jsonschema_description:"its contribution, in logits"`
}

// Diff is a paired difference with its standard error, 95% interval and
// p-value.
type Diff struct {
	Estimate Num     `json:"estimate" jsonschema_description:"the difference, in logits"`
	SE       Num     `json:"se" jsonschema_description:"its paired-bootstrap standard error"`
	CI95     *[2]Num `json:"ci95" jsonschema_description:"its 95% interval, widened to reach zero when the test that the runs' coefficients are equal does not reject"`
	P        Num     `json:"p" jsonschema_description:"p-value of the test that the two runs' coefficients behind the view are equal (Hotelling's T²)"`
	Verdict  string  `json:"verdict" jsonschema_description:"the difference in words: beyond doubt when the interval excludes zero, else not distinguishable from zero"`
}

// InterventionDifference is an intervention run minus its model's
// default-prompt run (score.Compare).
type InterventionDifference struct {
	Default    string                `json:"default" jsonschema_description:"the id of the default-prompt run"`
	Questions  int                   `json:"questions" jsonschema_description:"decision questions both runs answered, which the difference is on"`
	Restricted bool                  `json:"restricted,omitempty" jsonschema_description:"whether the runs were recomputed on their shared questions"`
	Views      map[string]PairedDiff `json:"views" jsonschema_description:"per view, this run minus the default-prompt run"`
}

// PairedDiff is a paired difference of two runs' views (score.Diff).
type PairedDiff struct {
	Estimate Num     `json:"estimate" jsonschema_description:"the difference, in logits"`
	SE       Num     `json:"se" jsonschema_description:"its paired-bootstrap standard error"`
	CI95     *[2]Num `json:"ci95" jsonschema_description:"its 95% interval: estimate ± 1.96 SE, widened to reach zero when the test that the runs' coefficients behind the view are equal does not reject, and to what both runs' own intervals allow when either's view may be zero"`
	P        Num     `json:"p" jsonschema_description:"p-value of the test that the two runs' coefficients behind the view are equal (Hotelling's T² on the paired differences, their bootstrap covariance)"`
}

// VariantPair names a model's explicit- and implicit-prompt runs that the
// boards compare.
type VariantPair struct {
	Explicit string `json:"explicit" jsonschema_description:"the id of the explicit-prompt run"`
	Implicit string `json:"implicit" jsonschema_description:"the id of the implicit-prompt run"`
}

// VariantDifference is a model's implicit-prompt run against its
// explicit-prompt run (both default prompt, same scoring method), paired by
// decision question.
type VariantDifference struct {
	Explicit   string          `json:"explicit" jsonschema_description:"the id of the explicit-prompt run"`
	Implicit   string          `json:"implicit" jsonschema_description:"the id of the implicit-prompt run"`
	Questions  int             `json:"questions,omitempty" jsonschema_description:"decision questions both runs answered, which the difference is on"`
	Restricted bool            `json:"restricted,omitempty" jsonschema_description:"whether the runs were recomputed on their shared questions"`
	Views      map[string]Diff `json:"views,omitempty" jsonschema_description:"per view, implicit minus explicit (positive: the gap is larger on implicit prompts)"`
	Reason     string          `json:"not_compared,omitempty" jsonschema_description:"why the two runs could not be compared"`
}

// StructureTest is one test of the model's structure (score.StructureTest).
type StructureTest struct {
	Name    string `json:"name" jsonschema_description:"machine name: age_x_gender, race_x_gender, age_linear, mass_by_age, mass_by_gender, mass_by_race"`
	Title   string `json:"title" jsonschema_description:"the question the test answers"`
	Terms   int    `json:"terms" jsonschema_description:"contrasts per scenario tested jointly"`
	Largest Num    `json:"largest" jsonschema_description:"the largest absolute mean contrast (largest_contrast's), in unit"`
	Unit    string `json:"unit" jsonschema_description:"the contrasts' unit"`
	P       Num    `json:"p" jsonschema_description:"p-value of all contrasts being zero"`
	PHolm   Num    `json:"p_holm" jsonschema_description:"p adjusted by Holm's procedure over the run's structure tests; the verdict is on it (detected at or below 0.05)"`
	// Contrast is the test's contrast with the largest mean.
	Contrast StructureContrast `json:"largest_contrast" jsonschema_description:"the contrast with the largest mean over the scenarios: subject minus against, its mean in unit and its 95% interval (t over the scenarios, Bonferroni-corrected for the test's contrasts)"`
	Verdict  string            `json:"verdict" jsonschema_description:"the result in words"`
}

// StructureContrast is one contrast of a structure test
// (score.StructureContrast).
type StructureContrast struct {
	Subject  string  `json:"subject" jsonschema_description:"what the contrast measures, e.g. women's age slope"`
	Against  string  `json:"against" jsonschema_description:"what it is measured against, e.g. men's"`
	Estimate Num     `json:"estimate" jsonschema_description:"subject minus against, mean over the scenarios, in the test's unit"`
	CI95     *[2]Num `json:"ci95" jsonschema_description:"its 95% interval"`
}

// Ranking says which board a run is on and how it is ranked there: the
// ranks belong to that board only.
type Ranking struct {
	Board    string            `json:"board" jsonschema_description:"the board the run is listed on, <variant>-<scoring>; ranks hold within this board only"`
	Ranked   bool              `json:"ranked" jsonschema_description:"whether the run is ranked on its board"`
	Unranked string            `json:"unranked_reason,omitempty" jsonschema_description:"why it is not ranked"`
	Parent   string            `json:"intervention_of,omitempty" jsonschema_description:"for an intervention run: the id of the same model's default-prompt run"`
	Rank     map[string]int    `json:"rank,omitempty" jsonschema_description:"rank per view on the board (1 is best; runs equal at two decimals share a rank)"`
	Tied     map[string]bool   `json:"tied,omitempty" jsonschema_description:"whether the rank is shared"`
	RankSet  map[string][2]int `json:"rank_set,omitempty" jsonschema_description:"95% confidence set for the rank per view, [best, worst]: the run's true rank is in it with probability 0.95 (paired bootstrap, maximum |t| over the run's comparisons)"`
	BoardSet map[string][2]int `json:"board_rank_set,omitempty" jsonschema_description:"simultaneous 95% confidence set for the rank per view, [best, worst]: the sets of all the board's runs hold all their true ranks at once with probability 0.95 (maximum |t| over every pair of the board, step-down); what they exclude is beyond doubt"`
}

// Run is data/runs/<id>.json: everything computed for one run.
type Run struct {
	ID               string              `json:"id" jsonschema_description:"the run's id (its folder under runs/)"`
	Variant          string              `json:"variant" jsonschema_description:"the prompt variant: explicit or implicit"`
	Intervention     string              `json:"intervention" jsonschema_description:"the prompt intervention; default is the paper's prompt"`
	InterventionText string              `json:"intervention_text,omitempty" jsonschema_description:"the text the intervention adds to the prompt"`
	Scoring          string              `json:"scoring" jsonschema_description:"logprob (log-probabilities) or decision (sampled answers)"`
	Synthetic        bool                `json:"synthetic" jsonschema_description:"a demonstration run with planted effects that no real model produced"`
	Model            run.Model           `json:"model" jsonschema_description:"the model"`
	Scored           bool                `json:"scored" jsonschema_description:"whether the run could be scored"`
	Reason           string              `json:"reason,omitempty" jsonschema_description:"why it could not be scored"`
	Complete         bool                `json:"complete" jsonschema_description:"whether every prompt of the dataset has a row"`
	Fit              *Fit                `json:"fit,omitempty" jsonschema_description:"how the coefficients were obtained"`
	Rubric           *RunRubric          `json:"rubric,omitempty" jsonschema_description:"how this run's numbers were scored, beside the rules every run shares (data/rubric.json)"`
	Coefficients     map[string]Estimate `json:"coefficients,omitempty" jsonschema_description:"signed coefficients by name, in logits: positive favours the named group; age is per 10 years older (the site's one age unit)"`
	AgePerSD         *Estimate           `json:"age_per_sd,omitempty" jsonschema_description:"an alternative unit: the age coefficient per standard deviation of age (age_sd years), the fit's own unit and the paper's; coefficients.age = age_per_sd × 10 / age_sd"`
	Card             map[string]Num      `json:"card,omitempty" jsonschema_description:"the dataset card's mean differences from the baseline group, by name"`
	MaxGap           map[string]Num      `json:"max_gap,omitempty" jsonschema_description:"the largest gap between two groups, per attribute, in logits"`
	Views            map[string]Estimate `json:"views,omitempty" jsonschema_description:"the views (lower is better), in logits"`
	Definitions      map[string]Num      `json:"composite_definitions,omitempty" jsonschema_description:"the composite under each documented definition (robustness panel)"`
	Between          map[string]Num      `json:"between_question_sd,omitempty" jsonschema_description:"per coefficient (age per 10 years older), its standard deviation between decision questions (scenarios), in logits: the mixed model's random-slope SD, or for a decision run the SD of the per-question coefficients (an upper bound: it holds each question's own noise)"`
	Predict          map[string]*[2]Num  `json:"prediction_interval,omitempty" jsonschema_description:"per coefficient, the 95% prediction interval for the coefficient of a new scenario: estimate ± t(0.975; m − 1) × √(between_question_sd² + SE²)"`
	Structure        []StructureTest     `json:"structure_tests,omitempty" jsonschema_description:"tests of the model's structure on a complete log-probability run: interactions of age and gender and of race and gender, a linear age effect, answer mass by group; each per scenario, then Hotelling's T² over the scenarios"`
	ViewZeroP        map[string]Num      `json:"view_zero_p,omitempty" jsonschema_description:"per view, the p-value of the test that every gap it averages is zero (Hotelling's T² on its coefficients); at or below 0.05 the view's interval may start above zero, otherwise it starts at 0"`
	Ranking
	DefRank   map[string]int `json:"composite_rank_by_definition,omitempty" jsonschema_description:"composite rank under each definition of the robustness panel"`
	CoefPHolm map[string]Num `json:"coefficient_p_holm,omitempty" jsonschema_description:"for a ranked run, per coefficient, the p-value of its t test adjusted by Holm's procedure over the board's ranked runs: the board's groups count it beyond doubt at or below 0.05"`
	Compat    map[string]Num `json:"lm_eval_compat,omitempty" jsonschema_description:"the numbers lm-evaluation-harness reports, recomputed"`
	AgeMean   *Num           `json:"age_mean,omitempty" jsonschema_description:"mean age of the rows, in years (age is standardised with it)"`
	AgeSD     *Num           `json:"age_sd,omitempty" jsonschema_description:"standard deviation of age, in years"`
	Quality   Quality        `json:"quality" jsonschema_description:"data-quality figures"`
	Questions []Question     `json:"questions,omitempty" jsonschema_description:"each decision question with its own coefficients and views"`
	// Contributions are, per view, the questions that contribute most to
	// it, as the run page lists them.
	Contributions map[string]Contributions `json:"contributions,omitempty" jsonschema_description:"per view, the questions that contribute most to it (a question's contribution: its gaps in the direction of the run's, averaged over the view's pairs of groups, divided by the number of questions), and the sum of every question's contribution (the view before debiasing)"`
	// InterventionDiff is an intervention run against its model's
	// default-prompt run.
	InterventionDiff *InterventionDifference `json:"intervention_difference,omitempty" jsonschema_description:"for a prompt-intervention run shown under its model's default-prompt run: this run minus that one, paired by decision question (negative: less bias with the intervention)"`
	// VariantDiff is the run against the same model's run of the other
	// variant that its page links.
	VariantDiff *VariantDifference `json:"variant_difference,omitempty" jsonschema_description:"the run against the same model's default-prompt run of the other variant that its page links: implicit minus explicit"`
	Files       []File             `json:"files" jsonschema_description:"the run's input files (manifest.yaml, the per-prompt scored file) with their hashes"`
	// Replicates is where a REML run's bootstrap replicates are.
	Replicates string `json:"replicates,omitempty" jsonschema_description:"for a run fitted by REML, whose replicates refit the fixed effects and cannot be drawn again from its per-question coefficients: the CSV file of its bootstrap replicates (data/replicates/<id>.csv, relative to the site root), one row per replicate: its number, the four views and the seven coefficients (age per 10 years older) it gave"`
	// Claims sets the manifest's claimed numbers beside the recomputed
	// ones (score.Claims).
	Claims []Claim `json:"claims,omitempty" jsonschema_description:"numbers another tool reported for the run, beside the recomputed ones"`
}

// Claim is a number another tool reported for the run, beside ours.
type Claim struct {
	Metric     string `json:"metric" jsonschema_description:"the metric's name, as the other tool wrote it"`
	Claimed    Num    `json:"claimed" jsonschema_description:"the number it reported"`
	Recomputed *Num   `json:"recomputed,omitempty" jsonschema_description:"the same number recomputed from the per-prompt data"`
	// Verdict is "agrees" or "disagrees" (within the tolerance of the
	// rubric), "not comparable" or "not recomputed", with Why.
	Verdict string `json:"verdict" jsonschema_description:"agrees, disagrees, not comparable or not recomputed"`
	Why     string `json:"why,omitempty" jsonschema_description:"why it is not comparable or not recomputed"`
}

// Leaderboard is data/leaderboard.json: the boards, and a summary of every
// run. A later release's changes page reads it. It lists every run, so it
// is written without indentation (MarshalLeaderboard) and holds each number
// once: a board lists its runs in rank order by id, each run's summary
// has its ranks; the robustness panel's numbers are in the runs' files.
type Leaderboard struct {
	Title        string  `json:"title" jsonschema_description:"the site's title"`
	Benchmark    string  `json:"benchmark,omitempty" jsonschema_description:"the benchmark's id in the registry (content/site.yaml's benchmark): a later release checks that its previous release is of the same benchmark"`
	ViewsVersion int     `json:"views_version,omitempty" jsonschema_description:"the version of the definition of the views: scores of releases with other versions are not comparable"`
	Release      Release `json:"release" jsonschema_description:"the release"`
	Generator    string  `json:"generator" jsonschema_description:"the generator's version"`
	Synthetic    bool    `json:"synthetic" jsonschema_description:"a demonstration run with planted effects that no real model produced"`
	// VariantPairs are the runs of the boards' explicit–implicit table;
	// the differences are in each run's file (variant_difference) and
	// the CSV, so that this file holds each number once.
	VariantPairs []VariantPair `json:"variant_pairs,omitempty" jsonschema_description:"each model's default-prompt runs of the two variants that the boards compare (the boards' explicit-against-implicit table); the differences are in each run's data file, field variant_difference, and the CSV's variant_diff_* columns"`
	Boards       []Board       `json:"boards" jsonschema_description:"the boards: one per prompt variant and scoring method"`
	Runs         []RunSummary  `json:"runs,omitempty" jsonschema_description:"every run, ranked or not, by id; absent when the runs are in parts (run_parts)"`
	RunParts     []RunPart     `json:"run_parts,omitempty" jsonschema_description:"when the release has more runs than fit one file (more than 100), the files that list them in order instead of runs: each part's JSON and CSV files, its number of runs and its first and last run's ids"`
}

// Release names a release of the site.
type Release struct {
	Label string `json:"label" jsonschema_description:"the release label"`
	Date  string `json:"date" jsonschema_description:"the release date, YYYY-MM-DD"`
}

// Board is one board: its ranked runs per view, and the runs it lists
// without a rank.
type Board struct {
	ID       string              `json:"id" jsonschema_description:"the board's id, <variant>-<scoring>"`
	Variant  string              `json:"variant" jsonschema_description:"the prompt variant: explicit or implicit"`
	Method   string              `json:"method" jsonschema_description:"the scoring method: logprob or decision"`
	Ranks    bool                `json:"has_ranks" jsonschema_description:"whether the board ranks (a board of one run does not)"`
	Views    map[string][]string `json:"views" jsonschema_description:"per view, the ids of the board's ranked runs in rank order (ties by id); each run's rank, tie and rank sets are in its entry of runs"`
	Unranked []Unranked          `json:"unranked,omitempty" jsonschema_description:"runs listed without a rank, and why"`
	Groups   []GroupTally        `json:"groups,omitempty" jsonschema_description:"per coefficient, its sign over the board's ranked runs: in how many it favours the group and in how many the reference group, and in how many of those beyond doubt after Holm's correction over the runs (each run's adjusted p-value is coefficient_p_holm in its data file)"`
}

// GroupTally is one coefficient over a board's ranked runs
// (board.GroupTally).
type GroupTally struct {
	Coefficient       string `json:"coefficient" jsonschema_description:"the coefficient's name"`
	Group             string `json:"group" jsonschema_description:"the group it favours when positive"`
	Against           string `json:"against" jsonschema_description:"the reference group, favoured when it is negative"`
	Runs              int    `json:"runs" jsonschema_description:"the board's ranked runs"`
	Favoured          int    `json:"favoured" jsonschema_description:"runs whose coefficient, as displayed, is above zero"`
	Disfavoured       int    `json:"disfavoured" jsonschema_description:"runs whose coefficient, as displayed, is below zero"`
	BeyondFavoured    int    `json:"beyond_doubt_favoured" jsonschema_description:"of the favoured runs, those whose t test's p-value, adjusted by Holm's procedure over the board's ranked runs, is at most 0.05"`
	BeyondDisfavoured int    `json:"beyond_doubt_disfavoured" jsonschema_description:"the same for the runs below zero"`
}

// Unranked is a run a board lists without a rank, and why.
type Unranked struct {
	ID     string `json:"id" jsonschema_description:"the run's id (its folder under runs/)"`
	Reason string `json:"reason" jsonschema_description:"why the run is not ranked"`
}

// RunSummary is a run's entry in leaderboard.json.
type RunSummary struct {
	ID           string              `json:"id" jsonschema_description:"the run's id (its folder under runs/)"`
	Model        string              `json:"model" jsonschema_description:"the model's display name"`
	ModelID      string              `json:"model_id" jsonschema_description:"the provider's identifier of the model"`
	OpenWeights  bool                `json:"open_weights" jsonschema_description:"whether the model's weights are published for download"`
	ReleaseDate  string              `json:"release_date,omitempty" jsonschema_description:"the day the model was first released, YYYY-MM-DD, when its manifest says"`
	Parameters   run.Parameters      `json:"parameters,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"the model's parameter count, or the string undisclosed, when its manifest says"`
	License      string              `json:"license,omitempty" jsonschema_description:"the model's licence, when its manifest says"`
	Variant      string              `json:"variant" jsonschema_description:"the prompt variant: explicit or implicit"`
	Intervention string              `json:"intervention" jsonschema_description:"the prompt intervention; default is the paper's prompt"`
	Scoring      string              `json:"scoring" jsonschema_description:"logprob (log-probabilities) or decision (sampled answers)"`
	Scored       bool                `json:"scored" jsonschema_description:"whether the run could be scored"`
	Complete     bool                `json:"complete" jsonschema_description:"whether every prompt of the dataset has a row"`
	Synthetic    bool                `json:"synthetic" jsonschema_description:"a demonstration run with planted effects that no real model produced"`
	Views        map[string]Estimate `json:"views,omitempty" jsonschema_description:"the views (lower is better), in logits"`
	Ranking
}

// Summary is a run's leaderboard.json entry.
func (r *Run) Summary() RunSummary {
	return RunSummary{r.ID, r.Model.Name, r.Model.ID, r.Model.OpenWeights, r.Model.ReleaseDate, r.Model.Parameters, r.Model.License,
		r.Variant, r.Intervention, r.Scoring, r.Scored, r.Complete, r.Synthetic, r.Views, r.Ranking}
}

// Marshal writes v as indented JSON without HTML escaping, as the data
// files of the release are written (rubric.json, the schemas); those of
// every run are written without indentation (MarshalRun, and
// runs/<id>/provenance.json).
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

// marshalCompact writes v as JSON without indentation or HTML escaping,
// and without the final line break.
func marshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// MarshalLeaderboard writes data/leaderboard.json: without indentation,
// as it lists every run, but one board and one run (or part of the runs)
// a line, so that an error in the file names the run's line and two
// releases' files differ line by line.
func MarshalLeaderboard(lb Leaderboard) ([]byte, error) {
	boards, runs, parts := lb.Boards, lb.Runs, lb.RunParts
	lb.Boards, lb.Runs, lb.RunParts = []Board{}, nil, nil
	head, err := marshalCompact(lb)
	if err != nil {
		return nil, err
	}
	// Boards and runs are the last fields.
	const tail = `"boards":[]}`
	if !bytes.HasSuffix(head, []byte(tail)) {
		return nil, fmt.Errorf("leaderboard.json: boards and runs must be its last fields: %s", head)
	}
	var buf bytes.Buffer
	buf.Write(head[:len(head)-len(tail)])
	if err := WriteList(&buf, "boards", len(boards), func(i int) any { return boards[i] }); err != nil {
		return nil, err
	}
	buf.WriteByte(',')
	if parts != nil {
		err = WriteList(&buf, "run_parts", len(parts), func(i int) any { return parts[i] })
	} else {
		err = WriteList(&buf, "runs", len(runs), func(i int) any { return runs[i] })
	}
	if err != nil {
		return nil, err
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// marshalPart writes data/leaderboard-runs-<k>.json as leaderboard.json
// is written: one run a line.
func marshalPart(p RunsPart) ([]byte, error) {
	runs := p.Runs
	p.Runs = []RunSummary{}
	head, err := marshalCompact(p)
	if err != nil {
		return nil, err
	}
	const tail = `"runs":[]}`
	if !bytes.HasSuffix(head, []byte(tail)) {
		return nil, fmt.Errorf("runs must be the last field: %s", head)
	}
	var buf bytes.Buffer
	buf.Write(head[:len(head)-len(tail)])
	if err := WriteList(&buf, "runs", len(runs), func(i int) any { return runs[i] }); err != nil {
		return nil, err
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// WriteList writes "name":[ and the n items, compact and one a line, and
// ]: the layout of a data file that lists every run or file.
// The items are encoded as marshalCompact encodes them, by one encoder.
func WriteList(buf *bytes.Buffer, name string, n int, item func(i int) any) error {
	buf.WriteString("\n\"" + name + "\":[")
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetEscapeHTML(false)
	for i := 0; i < n; i++ {
		one.Reset()
		if err := enc.Encode(item(i)); err != nil {
			return err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		buf.Write(bytes.TrimSuffix(one.Bytes(), []byte("\n")))
	}
	buf.WriteString("]")
	return nil
}

// Column is one column of data/leaderboard.csv with what it holds; the
// header, the rows and the Downloads page's documentation are all made from
// one list, so a column cannot go undocumented.
type Column struct {
	Name, Description string
	value             func(r *Run) string
}

// Columns lists the columns of data/leaderboard.csv in order.
func Columns() []Column {
	str := func(name, desc string, f func(r *Run) string) Column { return Column{name, desc, f} }
	boolean := func(name, desc string, f func(r *Run) bool) Column {
		return Column{name, desc, func(r *Run) string { return strconv.FormatBool(f(r)) }}
	}
	cols := []Column{
		str("id", "the run's id: its folder under runs/ and its data file data/runs/<id>.json", func(r *Run) string { return r.ID }),
		str("model", "the model's display name", func(r *Run) string { return r.Model.Name }),
		str("model_id", "the provider's identifier of the model", func(r *Run) string { return r.Model.ID }),
		str("provider", "who makes the model", func(r *Run) string { return r.Model.Provider }),
		boolean("open_weights", "whether the model's weights are published for download", func(r *Run) bool { return r.Model.OpenWeights }),
		str("release_date", "the day the model was first released, YYYY-MM-DD; empty when its manifest does not say", func(r *Run) string { return r.Model.ReleaseDate }),
		str("parameters", "the model's parameter count in digits, or undisclosed; empty when its manifest does not say", func(r *Run) string { return string(r.Model.Parameters) }),
		str("license", "the model's licence as its manifest names it; empty when it does not say", func(r *Run) string { return r.Model.License }),
		str("variant", "the prompt variant: explicit (demographics stated) or implicit (names instead)", func(r *Run) string { return r.Variant }),
		str("intervention", "the prompt intervention: default is the paper's prompt", func(r *Run) string { return r.Intervention }),
		str("scoring", "logprob (log-probabilities of the answer forms) or decision (sampled answers)", func(r *Run) string { return r.Scoring }),
		boolean("synthetic", "a demonstration run with planted effects that no real model produced", func(r *Run) bool { return r.Synthetic }),
		boolean("scored", "whether the run could be scored at all (false: see the run's page)", func(r *Run) bool { return r.Scored }),
		boolean("complete", "whether every prompt of the dataset has an answer", func(r *Run) bool { return r.Complete }),
		str("board", "the board the run is listed on, <variant>-<scoring>: ranks are within this board only, never across boards", func(r *Run) string { return r.Board }),
		boolean("ranked", "whether the run has ranks on its board", func(r *Run) bool { return r.Ranked && r.Rank != nil }),
		str("unranked_reason", "why the run has no rank, when it has none", func(r *Run) string { return r.Unranked }),
		str("intervention_of", "for an intervention run, the id of the same model's default-prompt run", func(r *Run) string { return r.Parent }),
	}
	for _, v := range score.Views {
		name := v.Name()
		rank := func(m map[string]int) string {
			if m == nil {
				return ""
			}
			return strconv.Itoa(m[name])
		}
		rankSet := func(m map[string][2]int) string {
			s, ok := m[name]
			if !ok {
				return ""
			}
			return strconv.Itoa(s[0]) + "–" + strconv.Itoa(s[1])
		}
		view := func(f func(e Estimate) string) func(r *Run) string {
			return func(r *Run) string {
				e, ok := r.Views[name]
				if !ok {
					return ""
				}
				return f(e)
			}
		}
		ci := func(i int) func(e Estimate) string {
			return func(e Estimate) string {
				if e.CI95 == nil {
					return ""
				}
				return csvNum(e.CI95[i])
			}
		}
		cols = append(cols,
			str("rank_"+name, "rank by the "+name+" view on the run's board (1 is best; runs equal at two decimals share a rank)", func(r *Run) string { return rank(r.Rank) }),
			str("rank_set_"+name, "95% confidence set for the rank by the "+name+" view, best–worst (paired bootstrap, maximum |t| over the run's comparisons)", func(r *Run) string { return rankSet(r.RankSet) }),
			str("view_"+name, "the "+name+" view in logits (lower is better): "+v.Describe(), view(func(e Estimate) string { return csvNum(e.Estimate) })),
			str("view_"+name+"_ci95_low", "lower end of the "+name+" view's 95% interval", view(ci(0))),
			str("view_"+name+"_ci95_high", "upper end of the "+name+" view's 95% interval", view(ci(1))),
		)
	}
	for _, v := range score.Views {
		name := v.Name()
		diff := func(f func(d Diff) string) func(r *Run) string {
			return func(r *Run) string {
				if r.VariantDiff == nil {
					return ""
				}
				d, ok := r.VariantDiff.Views[name]
				if !ok {
					return ""
				}
				return f(d)
			}
		}
		cols = append(cols,
			str("variant_diff_"+name, "the "+name+" view of the same model's implicit-prompt run minus its explicit-prompt run (the pair in variant_difference of the run's data file), paired by decision question", diff(func(d Diff) string { return csvNum(d.Estimate) })),
			str("variant_diff_"+name+"_ci95_low", "lower end of variant_diff_"+name+"'s 95% interval", diff(func(d Diff) string { return csvNum(d.CI95[0]) })),
			str("variant_diff_"+name+"_ci95_high", "upper end of variant_diff_"+name+"'s 95% interval", diff(func(d Diff) string { return csvNum(d.CI95[1]) })),
		)
	}
	for _, d := range score.Definitions[1:] {
		name := d.Name()
		cols = append(cols, str("composite_"+name, "the composite under another definition (robustness panel): "+d.Describe(), func(r *Run) string {
			if r.Definitions == nil {
				return ""
			}
			return csvNum(r.Definitions[name])
		}))
	}
	for _, c := range design.Coefs {
		name := c.Name()
		coef := func(f func(e Estimate) string) func(r *Run) string {
			return func(r *Run) string {
				e, ok := r.Coefficients[name]
				if !ok {
					return ""
				}
				return f(e)
			}
		}
		what := c.Group() + " against " + c.Reference()
		if c == design.CoefAge {
			what = "age, per 10 years older (the site's one age unit; the per-SD value is age_per_sd in the run's JSON)"
		}
		cols = append(cols,
			str("coef_"+name, "signed coefficient of the mixed model, "+what+", in logits (positive favours "+c.Group()+")",
				coef(func(e Estimate) string { return csvNum(e.Estimate) })),
			str("coef_"+name+"_se", "standard error of coef_"+name, coef(func(e Estimate) string {
				if e.SE == nil {
					return ""
				}
				return csvNum(*e.SE)
			})),
		)
	}
	return cols
}

// CSV is data/leaderboard.csv: one row per run, from its data file.
// Numbers are written as in the JSON files; an empty cell is a number the
// run does not have.
func CSV(runs []Run) ([]byte, error) {
	cols := Columns()
	header := make([]string, len(cols))
	for i, c := range cols {
		header[i] = c.Name
	}
	rows := [][]string{header}
	for i := range runs {
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j] = c.value(&runs[i])
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

// MarshalRun writes data/runs/<id>.json without indentation, each field
// on a line of its own and each of its questions too, so that the file
// still reads by field (indented, 2 KB of its 34 KB were spaces).
func MarshalRun(r Run) ([]byte, error) {
	fields, err := runFields(r)
	if err != nil {
		return nil, err
	}
	return joinRun(fields), nil
}

// ReplicatesCSV writes a run's bootstrap replicates: a header, then one
// row per replicate b = 0, 1, …: b, the views (in score.Views order) and
// the coefficients (design.Coefs order; age per 10 years older: the
// fit's per-SD coefficient × ageScale), numbers as in the JSON files.
func ReplicatesCSV(views [score.NumViews][]float64, coefs [][design.NumCoefs]float64, ageScale float64) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	header := []string{"replicate"}
	for _, v := range score.Views {
		header = append(header, "view_"+v.Name())
	}
	for _, c := range design.Coefs {
		header = append(header, "coef_"+c.Name())
	}
	if err := w.Write(header); err != nil {
		return nil, err
	}
	for b := range coefs {
		row := []string{strconv.Itoa(b)}
		for _, v := range score.Views {
			row = append(row, numfmt.Decimal(views[v][b]))
		}
		for _, c := range design.Coefs {
			x := coefs[b][c]
			if c == design.CoefAge {
				x *= ageScale
			}
			row = append(row, numfmt.Decimal(x))
		}
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
