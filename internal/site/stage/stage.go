package stage

import (
	"io"
	"io/fs"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/static"
	"github.com/discrimeval/leaderboard/templates"
)

// Config says where the inputs are.
type Config struct {
	Content      fs.FS
	ContentLabel string // how the user names the folder, for messages ("content")
	Runs         fs.FS
	RunsLabel    string
	// Methodology is METHODOLOGY.md.
	Methodology      []byte
	MethodologyLabel string
	// Templates and Static default to the embedded ones.
	Templates fs.FS
	Static    fs.FS
	// Version identifies the generator (module version and VCS revision).
	Version string
	// RunsURL, when set, is where the runs folder is published, in place
	// of site.yaml's runs_url (build -runs-url: the Pages workflow gives
	// the repository's raw files at the commit it publishes).
	RunsURL string
	// Progress, when set, hears one line per phase with counts and the
	// time taken (never part of the site).
	Progress io.Writer
	// Warnings, when set, hears what a build allows but a publisher
	// should know, a line each ("build: warning: …").
	Warnings io.Writer
	// Cache, when set, keeps each run's scores and its own pages between
	// builds, keyed by their inputs (runcache.go), and with Build the list
	// of the site's files under the whole-build key (unchanged.go); the
	// site is the same with or without it. After a Build the cache is
	// trimmed to the site's size, least recently used first.
	Cache *cache.Cache
	// PageRows is the most places a page of a listing (a board, the
	// pairwise, changes, downloads and compare pages) shows, and the most
	// runs a part of data/leaderboard.json's runs holds; 0 is 100.
	// Tests set it small to see more than one page.
	PageRows int
	// more, when set (by tests), adds runs after the runs phase (load.go).
	More *MoreRuns
	// checkWritten, when set (by tests), is given each page that Go
	// writes instead of a template (scenario pages) and its bytes.
	CheckWritten func(r *render.Renderer, p *layout.Page, data []byte) error
	// defaulted says WithDefaults made it.
	defaulted bool
}

// WithDefaults is cfg with every field it leaves empty given its default:
// the one place for them, which a build's entry (site.Build, Generate,
// Stream) goes through once; the phases take its result (HasDefaults).
func (cfg Config) WithDefaults() Config {
	cfg.defaulted = true
	if cfg.Templates == nil {
		cfg.Templates = templates.FS
	}
	if cfg.Static == nil {
		cfg.Static = static.FS
	}
	cfg.ContentLabel = or(cfg.ContentLabel, "content")
	cfg.RunsLabel = or(cfg.RunsLabel, "runs")
	cfg.MethodologyLabel = or(cfg.MethodologyLabel, "METHODOLOGY.md")
	if cfg.PageRows <= 0 {
		cfg.PageRows = DefaultPageRows
	}
	return cfg
}

// HasDefaults says cfg came from WithDefaults.
func (cfg Config) HasDefaults() bool { return cfg.defaulted }

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// defaultPageRows is a listing page's places unless Config.PageRows says.
const DefaultPageRows = 100

// moreRuns adds runs at the end of the runs phase, before it returns
// (Config.more, set by tests): a
// test of a site of hundreds of runs clones a few scored ones rather than
// scoring hundreds.
type MoreRuns struct {
	// n is how many runs add adds, for the decisions made at load from
	// the number of runs (siteInfo.splitRuns).
	N   int
	Add func(in *Loaded, rs *Runs)
}

// count is how many runs m adds.
func (m *MoreRuns) Count() int {
	if m == nil {
		return 0
	}
	return m.N
}

// loaded is what the load phase reads: the content, METHODOLOGY.md and
// the runs' manifests; the runs' rows are read run by run later.
type Loaded struct {
	Content     *content.Content
	Methodology []byte
	Runs        []*run.Run // by id, manifests only
	// RunsURL is where the runs folder is published: Config.RunsURL, else
	// site.yaml's runs_url; empty when neither says. The site links the
	// runs' files there when their copies would pass its Pages budget.
	RunsURL string
	// texts keeps one copy of each prompt text per variant, filled as runs
	// are committed.
	Texts *layout.DatasetTexts
}

// Runs is what the runs phase returns: every run's result and what the
// pages that span runs need of its rows, complete when returned.
type Runs struct {
	Entries []*board.Entry // by run id
	// Kept holds, per run, what the pages that span runs need of its
	// rows: the differences from the baseline person per question.
	Kept map[string]*KeptCells
	// Transcripts counts, per run, the prompts that have a transcript.
	Transcripts map[string]int
	// Example is the rubric's worked example: the first row of the first
	// log-prob run.
	Example *grid.RubricExample
	// Keys holds, per run, its record's key in the build cache (none
	// without the cache): what the run's own results are kept by.
	Keys map[string]string
}

// Ranked is what the boards phase returns from the runs: the boards,
// where each run stands on them, and the runs compared.
type Ranked struct {
	Boards []*board.Board
	// Places holds each ranked run's place in every view's order of its
	// board, and an intervention run's parent's (boards/places.go).
	Places map[string][score.NumViews]int
	// Per is the site's places a listing page (SiteInfo.PageRows); a
	// variant's boards and pairwise pages show BoardPer(variant).
	Per   layout.Paging
	Pairs []Pair // intervention runs against their model's default prompt
	// Adjusted holds the pairs' Holm-adjusted p-values by their runs.
	Adjusted map[PairKey][score.NumViews]float64
	// Variants maps a default-prompt run's id to its model's run of the
	// other prompt variant (boards/variants.go).
	Variants map[string]VariantLink
	// VariantDiffs holds the paired differences of the linked runs.
	VariantDiffs map[VariantDiffKey]*VariantDiff
	// Previous is the previous release's ranks (site.yaml's previous:),
	// against which the board rows show each run's rank change; nil
	// without a previous release.
	Previous *PreviousRanks
}

// PreviousRanks are a release's ranks by model run, per view: a model's
// default-prompt run of one variant and scoring method, whatever its run
// id, as the run pages' history knows it across releases.
type PreviousRanks struct {
	Release string // its label
	// Comparable is false when it defined the views otherwise (its
	// views_version, Version): its ranks are then not on this release's
	// scale and no move is shown.
	Comparable bool
	Version    int
	Ranks      map[ModelRun][score.NumViews]int // 0: not ranked in that view
}

// ModelRun names a model's default-prompt run of one variant and scoring
// method across releases.
type ModelRun struct{ ModelID, Variant, Scoring string }

// keptCells is a run's prompts reduced to what the compare, prompt and
// rubric pages show.
type KeptCells struct {
	Decision bool
	Deltas   map[int]*grid.KeptQuestion
}

// pair is a paired comparison of two runs of the same model and variant on
// the same prompts: typically the default prompt against an intervention.
type Pair struct {
	A, B *board.Entry // B − A
	C    *score.Comparison
	// Adj holds each view's p-value adjusted by Holm's procedure over
	// every verdict of the mitigation page (every pair, every view), so
	// that its "beyond doubt" means what the boards' does.
	Adj [score.NumViews]float64
}

// pairKey names a pair by its two runs' ids.
type PairKey struct{ A, B string }

// variantLink is the other variant's run of a run's model, as a run page
// and a board row link it.
type VariantLink struct {
	ID      string
	Variant run.Variant
	Href    string // site path of its run page
}

// variantDiff is the paired difference between a model's default-prompt
// runs of the two variants (implicit − explicit: positive means the
// implicit prompts show the larger gap), from score.Compare on the
// decision questions both runs answered (the same scenarios in both
// variants); C is nil when they cannot be compared, with Reason.
type VariantDiff struct {
	Explicit, Implicit *board.Entry
	C                  *score.Comparison
	Reason             string
}

// variantDiffKey is a pair's two run ids, explicit then implicit.
type VariantDiffKey struct{ Explicit, Implicit string }

// BoardPer is the places a page of a variant's boards and pairwise pages
// shows. Each of a board's tables (the log-probability runs', the decision
// runs') is sliced to the same places, so a page of Per places would hold
// up to Per rows of each, and the first page their charts beside them:
// 1.8 KB a row, over the 500 KB budget at 1,000 runs. Per less the rows of
// the tables but the longest keeps a page to at most Per rows in all, but
// never under half of Per (rounded up) places.
func (rk *Ranked) BoardPer(variant run.Variant) layout.Paging {
	longest, all := 0, 0
	for _, bd := range rk.Boards {
		if bd.Variant == variant {
			n := len(bd.Ranked[score.Composite])
			longest, all = max(longest, n), all+n
		}
	}
	return max(rk.Per-layout.Paging(all-longest), (rk.Per+1)/2)
}
