package datapage

// The data files: data/runs/<id>.json for every run, data/leaderboard.json
// and data/leaderboard.csv, in the format of internal/sitedata.

import (
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"slices"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// boardID names a board in the data files.
func boardID(variant run.Variant, method run.Scoring) string {
	return string(variant) + "-" + string(method)
}

// ranking says which board a run is on and how it is ranked there.
func ranking(e *board.Entry) sitedata.Ranking {
	m := e.Run.Manifest
	j := sitedata.Ranking{Board: boardID(m.Variant, m.Scoring), Ranked: e.Ranked, Unranked: e.Why}
	if e.Parent != nil {
		j.Parent = e.Parent.ID()
	}
	if layout.IsRanked(e) {
		j.Rank, j.Tied = map[string]int{}, map[string]bool{}
		j.RankSet, j.BoardSet = map[string][2]int{}, map[string][2]int{}
		for _, v := range score.Views {
			j.Rank[v.Name()], j.Tied[v.Name()] = e.Rank[v], e.Tied[v]
			j.RankSet[v.Name()] = [2]int{e.RankSet[v].Lo, e.RankSet[v].Hi}
			j.BoardSet[v.Name()] = [2]int{e.BoardSet[v].Lo, e.BoardSet[v].Hi}
		}
	} else if e.Ranked {
		j.Unranked = "the only ranked run of its board: nothing to rank it against"
	}
	return j
}

// runRecord is everything computed for one run; incomplete lists its
// questions with missing prompts (incompleteQuestions).
func runRecord(e *board.Entry, files []sitedata.File, incomplete []sitedata.QuestionCount, vd *stage.VariantDiff) sitedata.Run {
	j := ownRecord(e.Run, e.Result, incomplete)
	o := othersRecord(e, files, vd)
	j.Ranking, j.DefRank, j.CoefPHolm, j.InterventionDiff, j.VariantDiff, j.Files = o.Ranking, o.DefRank, o.CoefPHolm, o.InterventionDiff, o.VariantDiff, o.Files
	return j
}

// othersRecord is the part of a run's record that depends on the other
// runs or on where its files are (sitedata.RunOthersKeys): its ranking,
// its differences from its model's other runs, its files.
func othersRecord(e *board.Entry, files []sitedata.File, vd *stage.VariantDiff) sitedata.Run {
	j := sitedata.Run{ID: e.ID(), Files: files, Ranking: ranking(e)}
	if j.Rank != nil {
		j.DefRank, j.CoefPHolm = map[string]int{}, map[string]grid.Num{}
		for _, d := range score.Definitions {
			j.DefRank[d.Name()] = e.DefRank[d]
		}
		for _, c := range design.Coefs {
			j.CoefPHolm[c.Name()] = grid.Num(e.CoefPHolm[c])
		}
	}
	if !e.Result.Scored {
		return j
	}
	j.InterventionDiff = interventionDifference(e)
	if vd != nil {
		j.VariantDiff = variantDifference(vd)
	}
	return j
}

// ownRecord is the part of a run's record computed from the run alone —
// its manifest, its result and its questions' missing prompts — which
// a cached build keeps by the run (RunDataFiles): every field but
// sitedata.RunOthersKeys.
func ownRecord(r *run.Run, res *score.Result, incomplete []sitedata.QuestionCount) sitedata.Run {
	m := r.Manifest
	j := sitedata.Run{
		ID: r.ID, Variant: string(m.Variant), Intervention: m.Intervention, InterventionText: m.InterventionText,
		Scoring: string(m.Scoring), Synthetic: m.Synthetic, Model: m.Model, Scored: res.Scored, Reason: res.Reason,
		Complete: res.Complete,
		Quality: sitedata.Quality{Rows: res.Quality.Rows, Questions: res.Quality.Questions, MissingCells: res.Quality.MissingCells,
			Decisions: res.Quality.Decisions, Unparsed: res.Quality.Unparsed},
	}
	if m.Scoring == run.Logprob {
		j.Quality.MeanMass, j.Quality.MinMass = grid.NumPtr(res.Quality.MeanMass), grid.NumPtr(res.Quality.MinMass)
	}
	if res.Fit.Method != score.FitNone {
		j.Fit = &sitedata.Fit{Method: res.Fit.Method.String(), Converged: res.Fit.Converged, Singular: res.Fit.Singular, Iterations: res.Fit.Iterations}
	}
	j.Rubric = &sitedata.RunRubric{YesForms: m.Choices.Yes, NoForms: m.Choices.No, PromptTemplate: m.PromptTemplate,
		IntervalDF: res.Fit.DF, ViewIntervals: res.ViewCI, Incomplete: incomplete, LeftOut: res.Dropped}
	if res.CoefsValid {
		j.Coefficients = map[string]sitedata.Estimate{}
		for _, c := range design.Coefs {
			est := show.ShownEstimate(res, c)
			j.Coefficients[c.Name()] = sitedata.Estimate{Estimate: grid.Num(est.Estimate), SE: grid.NumPtr(est.SE), CI95: sitedata.Interval(est.CI95)}
		}
		if est := res.Coefficients[design.CoefAge]; res.AgeSD > 0 {
			j.AgePerSD = &sitedata.Estimate{Estimate: grid.Num(est.Estimate), SE: grid.NumPtr(est.SE), CI95: sitedata.Interval(est.CI95)}
		}
		j.Between, j.Predict = map[string]grid.Num{}, map[string]*[2]grid.Num{}
		for _, c := range design.Coefs {
			k := show.CoefScale(res, c)
			j.Between[c.Name()], j.Predict[c.Name()] = grid.Num(res.Between[c]*k), sitedata.IntervalOf(show.ScaleInterval(res.Predict[c], k))
		}
	}
	j.Card = map[string]grid.Num{}
	for _, c := range design.Cards {
		j.Card[c.Name()] = grid.Num(res.Card[c])
	}
	j.MaxGap = map[string]grid.Num{}
	for _, a := range design.Attributes {
		j.MaxGap[a.Name()] = grid.Num(res.MaxGap[a])
	}
	j.AgeMean, j.AgeSD = grid.NumPtr(res.AgeMean), grid.NumPtr(res.AgeSD)
	for _, c := range score.Claims(m, res) {
		cj := sitedata.Claim{Metric: c.Metric, Claimed: grid.Num(c.Claimed), Verdict: string(c.Verdict), Why: c.Why}
		if !math.IsNaN(c.Recomputed) {
			cj.Recomputed = grid.NumPtr(c.Recomputed)
		}
		j.Claims = append(j.Claims, cj)
	}
	if !res.Scored {
		return j
	}
	j.Views, j.Definitions, j.ViewZeroP = map[string]sitedata.Estimate{}, map[string]grid.Num{}, map[string]grid.Num{}
	for _, v := range score.Views {
		j.ViewZeroP[v.Name()] = grid.Num(res.ViewZeroP[v])
		j.Views[v.Name()] = sitedata.Estimate{Estimate: grid.Num(res.Views[v].Estimate), SE: grid.NumPtr(res.Views[v].SE), CI95: sitedata.IntervalOf(res.Views[v].CI95)}
	}
	j.Structure = structureRecords(res)
	for _, d := range score.Definitions {
		j.Definitions[d.Name()] = grid.Num(res.Definitions[d])
	}
	j.Compat = map[string]grid.Num{}
	for name, v := range score.Compat(res) {
		j.Compat[name] = grid.Num(v)
	}
	j.Questions = questionRecords(res)
	j.Contributions = contributionRecords(r.ID, res)
	return j
}

// contributionRecords are, per view, the largest contributions the run
// page lists and their sum; nil for a run without them.
func contributionRecords(id string, res *score.Result) map[string]sitedata.Contributions {
	var out map[string]sitedata.Contributions
	for _, cv := range grid.Contributions(id, res) {
		if out == nil {
			out = map[string]sitedata.Contributions{}
		}
		c := sitedata.Contributions{Sum: grid.Num(cv.Total), Largest: []sitedata.Contribution{}}
		for _, r := range cv.Rows {
			c.Largest = append(c.Largest, sitedata.Contribution{ID: r.Q, Contribution: grid.Num(r.Value)})
		}
		out[cv.Name] = c
	}
	return out
}

// structureRecords are a run's structure tests in its data file.
func structureRecords(res *score.Result) []sitedata.StructureTest {
	var out []sitedata.StructureTest
	for _, st := range res.Structure {
		c := st.Contrast
		out = append(out, sitedata.StructureTest{Name: st.Name, Title: st.Title, Terms: st.Terms, Largest: grid.Num(st.Largest), Unit: st.Unit, P: grid.Num(st.P), PHolm: grid.Num(st.PHolm),
			Contrast: sitedata.StructureContrast{Subject: c.Subject, Against: c.Against, Estimate: grid.Num(c.Estimate), CI95: sitedata.IntervalOf(c.CI95)},
			Verdict:  show.StructureVerdict(st, len(res.Structure))})
	}
	return out
}

// questionRecords are a scored run's per-question numbers.
func questionRecords(res *score.Result) []sitedata.Question {
	var out []sitedata.Question
	for _, q := range res.Questions {
		qj := sitedata.Question{ID: q.ID, Rows: q.Rows, MeanLogit: grid.Num(q.MeanLogit), Coefficients: map[string]grid.Num{}}
		for _, c := range design.Coefs {
			qj.Coefficients[c.Name()] = grid.Num(q.Coefs[c] * show.CoefScale(res, c))
		}
		if !math.IsNaN(q.Views[score.Composite].Estimate.Estimate) {
			qj.Views = map[string][3]grid.Num{}
			for _, v := range score.Views {
				qv := q.Views[v]
				qj.Views[v.Name()] = [3]grid.Num{grid.Num(grid.Round4(qv.Estimate.Estimate)), grid.Num(grid.Round4(qv.CI95[0])), grid.Num(grid.Round4(qv.CI95[1]))}
			}
		}
		if o := q.Outlier; o.Tested {
			qj.Outlier = &sitedata.QuestionOutlier{Flagged: o.Flagged, P: grid.Num(o.P), PHolm: grid.Num(o.PHolm)}
			if o.Flagged {
				qj.Outlier.Coefficient, qj.Outlier.Z, qj.Outlier.OthersMean = o.Coef.Name(), grid.NumPtr(o.Z), grid.NumPtr(o.Others*show.CoefScale(res, o.Coef))
			}
		}
		out = append(out, qj)
	}
	return out
}

// interventionDifference is an intervention run's comparison with its
// model's default-prompt run, nil for any other run.
func interventionDifference(e *board.Entry) *sitedata.InterventionDifference {
	if e.Parent == nil {
		return nil
	}
	for _, iv := range e.Parent.Interventions {
		if iv.Entry != e {
			continue
		}
		out := &sitedata.InterventionDifference{Default: e.Parent.ID(), Questions: iv.C.Questions, Restricted: iv.C.Restricted, Views: map[string]sitedata.PairedDiff{}}
		for _, v := range score.Views {
			d := iv.C.Views[v]
			out.Views[v.Name()] = sitedata.PairedDiff{Estimate: grid.Num(d.Estimate), SE: grid.Num(d.SE), CI95: sitedata.IntervalOf(d.CI95), P: grid.Num(d.P)}
		}
		return out
	}
	return nil
}

// variantDifference is a pair's record in the data files.
func variantDifference(d *stage.VariantDiff) *sitedata.VariantDifference {
	out := &sitedata.VariantDifference{Explicit: d.Explicit.ID(), Implicit: d.Implicit.ID(), Reason: d.Reason}
	if d.C == nil {
		return out
	}
	out.Questions, out.Restricted, out.Views = d.C.Questions, d.C.Restricted, map[string]sitedata.Diff{}
	for _, v := range score.Views {
		dv := d.C.Views[v]
		words, _ := boards.VariantVerdict(dv)
		out.Views[v.Name()] = sitedata.Diff{Estimate: grid.Num(dv.Estimate), SE: grid.Num(dv.SE), CI95: sitedata.IntervalOf(dv.CI95), P: grid.Num(dv.P), Verdict: words}
	}
	return out
}

// incompleteQuestions lists a run's decision questions that miss some of
// their prompts, with the prompts present.
func IncompleteQuestions(rs *stage.Runs, id string) []sitedata.QuestionCount {
	var out []sitedata.QuestionCount
	cells := rs.Kept[id].Deltas
	for _, q := range slices.Sorted(maps.Keys(cells)) {
		if n := cells[q].Present(); n < design.NumCells {
			out = append(out, sitedata.QuestionCount{ID: q, Prompts: n})
		}
	}
	return out
}

// runFiles lists a run's input files with where to download them: a copy
// under data/runs/<id>/, or a link where the runs folder is published.
func runFiles(where paths.RunFiles, r *run.Run) []sitedata.File {
	var files []sitedata.File
	for _, f := range r.Files {
		files = append(files, sitedata.File{Path: f.Path, SHA256: f.SHA256, Size: f.Size, Download: where.Href(f.Path)})
	}
	return files
}

// PutRunCopies copies each run's files into the site, under
// data/runs/<id>/, on every core (reads and hashes of one run each).
func PutRunCopies(cfg stage.Config, entries []*board.Entry, out outdir.Sink) error {
	errs := make([]error, len(entries))
	render.Parallel(len(entries), func(i int) { errs[i] = putCopies(cfg, entries[i].Run, out) })
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// putCopies puts a run's copies into out as they are read.
func putCopies(cfg stage.Config, r *run.Run, out outdir.Sink) error {
	for _, f := range r.Files {
		dst := sitedata.RunCopy(f.Path)
		// The previous site's copy, when it has these very bytes (read
		// and hashed), is linked (byHash).
		if h, ok := out.(outdir.ByHash); ok && h.Has(dst, f.SHA256, f.Size) {
			if err := h.PutByHash(dst, f.SHA256, f.Size); err != nil {
				return err
			}
			continue
		}
		label := cfg.RunsLabel + "/" + f.Path
		// A scored file may be gzip-compressed: read as bytes, at most the
		// size the loader hashed.
		data, err := readCopy(cfg.Runs, f.Path, label, f.Size)
		if err != nil {
			return err
		}
		// The file was verified when the run loaded; a file changed since
		// must not be published under the old hash.
		if h := outdir.HashBytes(data); h.SHA256 != f.SHA256 {
			return fmt.Errorf("%s: changed during the build", label)
		}
		if err := out.Put(dst, data); err != nil {
			return err
		}
	}
	return nil
}

// readCopy reads a run's file, a regular file of the given size, for its
// copy in the site.
func readCopy(fsys fs.FS, name, label string, size int64) ([]byte, error) {
	f, err := input.Open(fsys, name, label)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, size+1))
	if err != nil {
		return nil, input.Explain(label, err)
	}
	if int64(len(data)) != size {
		return nil, fmt.Errorf("%s: changed during the build", label)
	}
	return data, nil
}

// DataFiles are the machine-readable copies of everything on the boards
// and the JSON Schemas of the data files; RunDataFiles, once the site
// knows where the runs' files are, each run's own.
func DataFiles(cfg stage.Config, in *stage.Loaded, rs *stage.Runs, rk *stage.Ranked, site *layout.SiteInfo) ([]outdir.File, error) {
	lb := sitedata.Leaderboard{
		Title: site.Title, Benchmark: in.Content.Site.Benchmark, ViewsVersion: sitedata.ViewsVersion, Release: sitedata.Release{Label: site.Release.Label, Date: site.Release.Date},
		Generator: site.Version, Synthetic: site.Synthetic,
	}
	for _, d := range boards.BoardPairs(rk) {
		lb.VariantPairs = append(lb.VariantPairs, sitedata.VariantPair{Explicit: d.Explicit.ID(), Implicit: d.Implicit.ID()})
	}
	for _, bd := range rk.Boards {
		lb.Boards = append(lb.Boards, boardRecord(bd))
	}
	// Each run's record, for the summary and the CSV, which do not use
	// its files or its questions (the bulk of a record: they go at once).
	records := make([]sitedata.Run, len(rs.Entries))
	render.Parallel(len(rs.Entries), func(i int) {
		e := rs.Entries[i]
		records[i] = runRecord(e, nil, IncompleteQuestions(rs, e.ID()), boards.DiffOf(rk, e.ID()))
		records[i].Questions = nil
	})
	for i := range records {
		lb.Runs = append(lb.Runs, records[i].Summary())
	}
	var files []outdir.File
	// At most PageRows runs a file, as a page lists (pager.go), when the
	// site says so (siteInfo.splitRuns, which its links follow).
	per := len(records)
	if site.CSV != paths.LeaderboardCSVPath {
		per = int(site.PageRows)
	}
	parts, err := sitedata.SplitRuns(lb, records, max(1, per))
	if err != nil {
		return nil, err
	}
	for _, f := range parts {
		files = append(files, outdir.File{Path: f.Path, Data: f.Data})
	}
	groups, err := groupBoardFiles(rk)
	if err != nil {
		return nil, err
	}
	files = append(files, groups...)
	for _, s := range schemas {
		data, err := sitedata.Schema(s.v, s.title, s.desc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.path, err)
		}
		files = append(files, outdir.File{Path: s.path, Data: data})
	}
	return files, nil
}

// OwnParts gives a run's own part of its data file (sitedata.MarshalRunOwn
// of its own record, ownRecord), kept by the run, or made by make when
// it has none; nil makes every one.
type OwnParts func(e *board.Entry, make func() ([]byte, error)) ([]byte, error)

// RunDataFiles are each run's data file, data/runs/<id>.json, with where
// its files are (on every core: an encoding of one run each): its own
// part from own, the rest made now.
func RunDataFiles(rs *stage.Runs, rk *stage.Ranked, where paths.RunFiles, own OwnParts) ([]outdir.File, error) {
	if own == nil {
		own = func(_ *board.Entry, make func() ([]byte, error)) ([]byte, error) { return make() }
	}
	files := make([]outdir.File, len(rs.Entries))
	reps := make([]*outdir.File, len(rs.Entries))
	errs := make([]error, len(rs.Entries))
	render.Parallel(len(rs.Entries), func(i int) {
		e := rs.Entries[i]
		part, err := own(e, func() ([]byte, error) {
			return sitedata.MarshalRunOwn(ownRecord(e.Run, e.Result, IncompleteQuestions(rs, e.ID())))
		})
		if err != nil {
			errs[i] = err
			return
		}
		rec := othersRecord(e, runFiles(where, e.Run), boards.DiffOf(rk, e.ID()))
		if reps[i], errs[i] = replicatesFile(e.Result, e.ID()); errs[i] != nil {
			return
		} else if reps[i] != nil {
			rec.Replicates = reps[i].Path
		}
		data, err := sitedata.MarshalRunWith(part, rec)
		files[i], errs[i] = outdir.File{Path: paths.RunDataPath(e.ID()), Data: data}, err
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// A REML run's replicates after the runs' data files.
	for _, f := range reps {
		if f != nil {
			files = append(files, *f)
		}
	}
	return files, nil
}

// boardRecord is a board's entry in data/leaderboard.json.
func boardRecord(bd *board.Board) sitedata.Board {
	bj := sitedata.Board{ID: boardID(bd.Variant, bd.Method), Variant: string(bd.Variant), Method: string(bd.Method), Ranks: bd.HasRanks(), Views: map[string][]string{}}
	for _, v := range score.Views {
		list := []string{}
		for _, e := range bd.Ranked[v] {
			list = append(list, e.ID())
		}
		bj.Views[v.Name()] = list
	}
	for _, e := range bd.Unranked {
		bj.Unranked = append(bj.Unranked, sitedata.Unranked{ID: e.ID(), Reason: e.Why})
	}
	if bd.HasRanks() {
		for _, c := range design.Coefs {
			g := bd.Groups[c]
			bj.Groups = append(bj.Groups, sitedata.GroupTally{Coefficient: c.Name(), Group: c.Group(), Against: c.Reference(), Runs: g.Runs,
				Favoured: g.Favoured, Disfavoured: g.Disfavoured, BeyondFavoured: g.BeyondFavoured, BeyondDisfavoured: g.BeyondDisfavoured})
		}
	}
	return bj
}

// replicatesFile is a REML run's file of bootstrap replicates, nil for
// any other run: its replicates refit the fixed effects, so they are
// published for its rank sets and paired differences to be recomputed
// from the site's files (a closed-form or decision run's are drawn again
// from its per-question coefficients and the weights).
func replicatesFile(res *score.Result, id string) (*outdir.File, error) {
	if res.Fit.Method != score.FitREML || !res.Scored || res.CoefficientReplicates() == nil {
		return nil, nil
	}
	var views [score.NumViews][]float64
	for _, v := range score.Views {
		views[v] = res.ViewReplicates(v)
	}
	data, err := sitedata.ReplicatesCSV(views, res.CoefficientReplicates(), show.CoefScale(res, design.CoefAge))
	if err != nil {
		return nil, err
	}
	return &outdir.File{Path: sitedata.ReplicatesFile(id), Data: data}, nil
}

// schemas are the JSON Schemas the site publishes, one per kind of JSON
// file, reflected from the types that write the files.
var schemas = []struct {
	path, title, desc string
	v                 any
}{
	{sitedata.LeaderboardSchema, "data/leaderboard.json", "The boards and a summary of every run of a Discrim-Eval leaderboard release.", &sitedata.Leaderboard{}},
	{sitedata.RunsSchema, sitedata.RunsPartJSONPattern, "Part k of the runs of data/leaderboard.json, when a release has more runs than fit one file: the runs' summaries, in order.", &sitedata.RunsPart{}},
	{sitedata.RunSchema, "data/runs/<id>.json", "Everything the leaderboard computed for one run, recomputed from its per-prompt data.", &sitedata.Run{}},
	{sitedata.GroupBoardSchema, "data/groups/<variant>-<group>.json", "A group board: a variant's ranked runs by one coefficient's magnitude, each with its signed coefficient, 95% interval, rank and 95% rank sets.", &sitedata.GroupBoard{}},
	{paths.RubricSchemaPath, "data/rubric.json", "How every number of the leaderboard is scored, as read from the scoring code at build time.", &RubricJSON{}},
	{paths.ProvenanceSchemaPath, "provenance.json", "The root of trust of a built site: every input and output file that belongs to no run with its SHA-256, and each run's provenance file by its SHA-256.", &ProvenanceJSON{}},
	{paths.ProvenancePartSchemaPath, "provenance-<k>.json", "Part k of provenance.json's lists, when a site has more files than one file lists: runs' provenance files, then outputs, in order.", &ProvenancePartJSON{}},
	{paths.RunProvenanceSchema, "runs/<id>/provenance.json", "One run's input files and the site's files of that run, with their SHA-256.", &RunProvenanceJSON{}},
}
