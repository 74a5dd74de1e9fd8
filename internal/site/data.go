package site

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
	if e.Ranked && e.Rank[score.Composite] > 0 {
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
func runRecord(e *board.Entry, files []sitedata.File, incomplete []sitedata.QuestionCount, vd *variantDiff) sitedata.Run {
	m, res := e.Run.Manifest, e.Result
	j := sitedata.Run{
		ID: e.ID(), Variant: string(m.Variant), Intervention: m.Intervention, InterventionText: m.InterventionText,
		Scoring: string(m.Scoring), Synthetic: m.Synthetic, Model: m.Model, Scored: res.Scored, Reason: res.Reason,
		Complete: res.Complete, Files: files,
		Quality: sitedata.Quality{Rows: res.Quality.Rows, Questions: res.Quality.Questions, MissingCells: res.Quality.MissingCells,
			Decisions: res.Quality.Decisions, Unparsed: res.Quality.Unparsed},
	}
	if m.Scoring == run.Logprob {
		j.Quality.MeanMass, j.Quality.MinMass = numPtr(res.Quality.MeanMass), numPtr(res.Quality.MinMass)
	}
	if res.Fit.Method != score.FitNone {
		j.Fit = &sitedata.Fit{Method: res.Fit.Method.String(), Converged: res.Fit.Converged, Singular: res.Fit.Singular, Iterations: res.Fit.Iterations}
	}
	j.Rubric = &sitedata.RunRubric{YesForms: m.Choices.Yes, NoForms: m.Choices.No, PromptTemplate: m.PromptTemplate,
		IntervalDF: res.Fit.DF, ViewIntervals: res.ViewCI, Incomplete: incomplete, LeftOut: res.Dropped}
	if res.CoefsValid {
		j.Coefficients = map[string]sitedata.Estimate{}
		for _, c := range design.Coefs {
			est := shownEstimate(res, c)
			j.Coefficients[c.Name()] = sitedata.Estimate{Estimate: num(est.Estimate), SE: numPtr(est.SE), CI95: sitedata.Interval(est.CI95)}
		}
		if est := res.Coefficients[design.CoefAge]; res.AgeSD > 0 {
			j.AgePerSD = &sitedata.Estimate{Estimate: num(est.Estimate), SE: numPtr(est.SE), CI95: sitedata.Interval(est.CI95)}
		}
		j.Between, j.Predict = map[string]num{}, map[string]*[2]num{}
		for _, c := range design.Coefs {
			k := coefScale(res, c)
			j.Between[c.Name()], j.Predict[c.Name()] = num(res.Between[c]*k), sitedata.IntervalOf(scaleInterval(res.Predict[c], k))
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
	j.Ranking = ranking(e)
	if j.Rank != nil {
		j.DefRank = map[string]int{}
		for _, d := range score.Definitions {
			j.DefRank[d.Name()] = e.DefRank[d]
		}
	}
	for _, c := range score.Claims(m, res) {
		cj := sitedata.Claim{Metric: c.Metric, Claimed: num(c.Claimed), Verdict: string(c.Verdict), Why: c.Why}
		if !math.IsNaN(c.Recomputed) {
			cj.Recomputed = numPtr(c.Recomputed)
		}
		j.Claims = append(j.Claims, cj)
	}
	if !res.Scored {
		return j
	}
	j.Views, j.Definitions, j.ViewZeroP = map[string]sitedata.Estimate{}, map[string]num{}, map[string]num{}
	for _, v := range score.Views {
		j.ViewZeroP[v.Name()] = num(res.ViewZeroP[v])
		j.Views[v.Name()] = sitedata.Estimate{Estimate: num(res.Views[v].Estimate), SE: numPtr(res.Views[v].SE), CI95: sitedata.IntervalOf(res.Views[v].CI95)}
	}
	for _, st := range res.Structure {
		j.Structure = append(j.Structure, sitedata.StructureTest{Name: st.Name, Title: st.Title, Terms: st.Terms, Largest: num(st.Largest), Unit: st.Unit, P: num(st.P), Verdict: structureVerdict(st, len(res.Structure))})
	}
	for _, d := range score.Definitions {
		j.Definitions[d.Name()] = num(res.Definitions[d])
	}
	j.Compat = map[string]num{}
	for name, v := range score.Compat(res) {
		j.Compat[name] = num(v)
	}
	j.Questions = questionRecords(res)
	if vd != nil {
		j.VariantDiff = variantDifference(vd)
	}
	j.Contributions = contributionRecords(e.ID(), res)
	return j
}

// contributionRecords are, per view, the largest contributions the run
// page lists and their sum; nil for a run without them.
func contributionRecords(id string, res *score.Result) map[string]sitedata.Contributions {
	var out map[string]sitedata.Contributions
	for _, cv := range contributions(id, res) {
		if out == nil {
			out = map[string]sitedata.Contributions{}
		}
		c := sitedata.Contributions{Sum: num(cv.sum), Largest: []sitedata.Contribution{}}
		for _, r := range cv.Rows {
			c.Largest = append(c.Largest, sitedata.Contribution{ID: r.Q, Contribution: num(r.value)})
		}
		out[cv.name] = c
	}
	return out
}

// questionRecords are a scored run's per-question numbers.
func questionRecords(res *score.Result) []sitedata.Question {
	var out []sitedata.Question
	for _, q := range res.Questions {
		qj := sitedata.Question{ID: q.ID, Rows: q.Rows, MeanLogit: num(q.MeanLogit), Coefficients: map[string]num{}}
		for _, c := range design.Coefs {
			qj.Coefficients[c.Name()] = num(q.Coefs[c] * coefScale(res, c))
		}
		if !math.IsNaN(q.Views[score.Composite].Estimate.Estimate) {
			qj.Views = map[string][3]num{}
			for _, v := range score.Views {
				qv := q.Views[v]
				qj.Views[v.Name()] = [3]num{num(round4(qv.Estimate.Estimate)), num(round4(qv.CI95[0])), num(round4(qv.CI95[1]))}
			}
		}
		out = append(out, qj)
	}
	return out
}

// variantDifference is a pair's record in the data files.
func variantDifference(d *variantDiff) *sitedata.VariantDifference {
	out := &sitedata.VariantDifference{Explicit: d.Explicit.ID(), Implicit: d.Implicit.ID(), Reason: d.Reason}
	if d.C == nil {
		return out
	}
	out.Questions, out.Restricted, out.Views = d.C.Questions, d.C.Restricted, map[string]sitedata.Diff{}
	for _, v := range score.Views {
		dv := d.C.Views[v]
		words, _ := variantVerdict(dv)
		out.Views[v.Name()] = sitedata.Diff{Estimate: num(dv.Estimate), SE: num(dv.SE), CI95: sitedata.IntervalOf(dv.CI95), P: num(dv.P), Verdict: words}
	}
	return out
}

// incompleteQuestions lists a run's decision questions that miss some of
// their prompts, with the prompts present.
func incompleteQuestions(sc *scored, id string) []sitedata.QuestionCount {
	var out []sitedata.QuestionCount
	cells := sc.kept[id].deltas
	for _, q := range slices.Sorted(maps.Keys(cells)) {
		if n := cells[q].present(); n < design.NumCells {
			out = append(out, sitedata.QuestionCount{ID: q, Prompts: n})
		}
	}
	return out
}

// runFiles lists a run's input files with where to download them: a copy
// under data/runs/<id>/ (written to out as it is read), or site.yaml's
// runs_url.
func runFiles(cfg Config, runsURL string, r *run.Run, out sink) ([]sitedata.File, error) {
	var files []sitedata.File
	for _, f := range r.Files {
		sf := sitedata.File{Path: f.Path, SHA256: f.SHA256, Size: f.Size, Download: fileDownload(runsURL, f.Path)}
		if runsURL == "" {
			// The previous site's copy, when it has these very bytes
			// (read and hashed), is linked (byHash).
			if h, ok := out.(byHash); ok && h.has(sf.Download, f.SHA256, f.Size) {
				if err := h.putByHash(sf.Download, f.SHA256, f.Size); err != nil {
					return nil, err
				}
				files = append(files, sf)
				continue
			}
			label := cfg.RunsLabel + "/" + f.Path
			// A scored file may be gzip-compressed: read as bytes, at most
			// the size the loader hashed.
			data, err := readCopy(cfg.Runs, f.Path, label, f.Size)
			if err != nil {
				return nil, err
			}
			// The file was verified when the run loaded; a file changed
			// since must not be published under the old hash.
			if h := hashBytes(data); h.SHA256 != f.SHA256 {
				return nil, fmt.Errorf("%s: changed during the build", label)
			}
			if err := out.put(sf.Download, data); err != nil {
				return nil, err
			}
		}
		files = append(files, sf)
	}
	return files, nil
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

// dataFiles are the machine-readable copies of everything on the boards,
// the runs' own files, and the JSON Schemas of the data files.
func dataFiles(cfg Config, in *loaded, sc *scored, site *siteInfo, out sink) ([]File, error) {
	lb := sitedata.Leaderboard{
		Title: site.Title, Benchmark: in.content.Site.Benchmark, ViewsVersion: sitedata.ViewsVersion, Release: sitedata.Release{Label: site.Release.Label, Date: site.Release.Date},
		Generator: site.Version, Synthetic: site.Synthetic,
	}
	for _, d := range boardPairs(sc) {
		lb.VariantPairs = append(lb.VariantPairs, sitedata.VariantPair{Explicit: d.Explicit.ID(), Implicit: d.Implicit.ID()})
	}
	for _, bd := range sc.boards {
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
		lb.Boards = append(lb.Boards, bj)
	}
	// Each run's files and record, on every core: they are reads, hashes
	// and encodings of one run each.
	files := make([]File, len(sc.entries))
	records := make([]sitedata.Run, len(sc.entries))
	errs := make([]error, len(sc.entries))
	parallel(len(sc.entries), func(i int) {
		e := sc.entries[i]
		rf, err := runFiles(cfg, in.content.Site.RunsURL, e.Run, out)
		if err != nil {
			errs[i] = err
			return
		}
		records[i] = runRecord(e, rf, incompleteQuestions(sc, e.ID()), diffOf(sc, e.ID()))
		data, err := sitedata.MarshalRun(records[i])
		files[i], errs[i] = File{Path: runDataPath(e.ID()), Data: data}, err
		// The summary and the CSV do not use the questions, the bulk of
		// a record: they go now, not when every run's record is made.
		records[i].Questions = nil
	})
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		lb.Runs = append(lb.Runs, records[i].Summary())
	}
	// At most PageRows runs a file, as a page lists (pager.go), when the
	// site says so (siteInfo.splitRuns, which its links follow).
	per := len(records)
	if site.CSV != leaderboardCSVPath {
		per = int(site.PageRows)
	}
	parts, err := sitedata.SplitRuns(lb, records, max(1, per))
	if err != nil {
		return nil, err
	}
	for _, f := range parts {
		files = append(files, File{Path: f.Path, Data: f.Data})
	}
	for _, s := range schemas {
		data, err := sitedata.Schema(s.v, s.title, s.desc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.path, err)
		}
		files = append(files, File{Path: s.path, Data: data})
	}
	return files, nil
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
	{rubricSchemaPath, "data/rubric.json", "How every number of the leaderboard is scored, as read from the scoring code at build time.", &rubricJSON{}},
	{provenanceSchemaPath, "provenance.json", "The root of trust of a built site: every input and output file that belongs to no run with its SHA-256, and each run's provenance file by its SHA-256.", &provenanceJSON{}},
	{provenancePartSchemaPath, "provenance-<k>.json", "Part k of provenance.json's lists, when a site has more files than one file lists: runs' provenance files, then outputs, in order.", &provenancePartJSON{}},
	{runProvenanceSchema, "runs/<id>/provenance.json", "One run's input files and the site's files of that run, with their SHA-256.", &runProvenanceJSON{}},
}
