package site

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
)

// assembly is the assemble phase's result: every page with its data, the
// data files, and the list of inputs for provenance. Nothing is rendered or
// written yet, and all ordering is settled.
type assembly struct {
	site  *siteInfo
	pages []*page
	// groups render several pages from one more pass over a run's scored
	// file (transcripts), so a run's texts are never all in memory.
	groups []pageGroup
	data   []File // data files: JSON and CSV, complete
	inputs []hashedFile
}

// pageGroup renders pages from a second pass over a run's file.
type pageGroup func(cfg Config, r *renderer) ([]File, error)

func assemble(cfg Config, in *loaded, sc *scored) (*assembly, error) {
	a := &assembly{site: newSiteInfo(cfg, in, sc)}
	add := func(ps ...*page) { a.pages = append(a.pages, ps...) }
	for _, variant := range board.Variants {
		for _, v := range score.Views {
			p, err := boardPage(sc, variant, v)
			if err != nil {
				return nil, err
			}
			add(p, pairwisePage(sc, variant, v))
		}
	}
	add(mitigationPage(sc.pairs))
	for _, e := range sc.entries {
		p, err := runPage(cfg, sc, e)
		if err != nil {
			return nil, err
		}
		add(p)
	}
	methodology, err := content.Markdown(in.methodology)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", cfg.MethodologyLabel, err)
	}
	bm := in.content.Benchmark
	body, err := content.Markdown([]byte(bm.Body))
	if err != nil {
		return nil, fmt.Errorf("benchmark body: %v", err)
	}
	add(&page{Path: benchmarkPath, Title: bm.Page.Name, Section: secBenchmark, Body: benchmarkData{Page: &bm.Page, Body: body}},
		&page{Path: methodologyPath, Title: titleOr(in.methodology, "Methodology"), Section: secMethodology, Body: article{methodology}})
	for _, p := range in.content.Pages {
		add(&page{Path: contentPagePath(p.Slug), Title: p.Title, Section: contentSection(p.Slug), Body: article{p.HTML}})
	}
	tp, groups, err := transcriptBrowser(in, sc)
	if err != nil {
		return nil, err
	}
	add(tp...)
	a.groups = groups
	rubric, rubricJSON, err := rubricPage(cfg, in, sc)
	if err != nil {
		return nil, fmt.Errorf("rubric: %w", err)
	}
	if a.inputs, err = inputs(cfg, in); err != nil {
		return nil, fmt.Errorf("provenance: %w", err)
	}
	add(rubric, provenancePage(cfg, sc, a.inputs), &page{Path: notFoundPath, Title: "Page not found", Section: secNone, Body: notFound{}})
	for _, e := range sc.entries {
		p, err := runProvenancePage(cfg, e)
		if err != nil {
			return nil, err
		}
		add(p)
	}
	data, err := dataFiles(sc, a.site)
	if err != nil {
		return nil, err
	}
	a.data = append(data, rubricJSON)
	// The changes page reads this build's data files back, as -diff does.
	changes, err := changesPage(cfg, in, data)
	if err != nil {
		return nil, err
	}
	if changes != nil {
		add(changes)
	}
	return a, nil
}

// newSiteInfo is what every page shows of the site: title, release,
// navigation.
func newSiteInfo(cfg Config, in *loaded, sc *scored) *siteInfo {
	c := in.content
	info := &siteInfo{
		Title:       c.Site.Title,
		Description: c.Site.Description,
		BasePath:    c.Site.BasePath,
		Release:     releaseInfo{c.Site.Release.Label, c.Site.Release.Date},
		Version:     cfg.Version,
		Design: designFacts{Baseline: design.Baseline.Label(), Questions: design.NumQuestions, Cells: design.NumCells,
			Decimals: countWord(board.DisplayDecimals)},
	}
	for _, r := range in.runs {
		info.Synthetic = info.Synthetic || r.Manifest.Synthetic
	}
	info.Nav = []navItem{
		{"Leaderboard", homePath, secBoard},
		{"Benchmark", benchmarkPath, secBenchmark},
		{"Mitigation", mitigationPath, secMitigation},
		{"Transcripts", transcriptsPath, secTranscripts},
		{"Methodology", methodologyPath, secMethodology},
		{"Rubric", rubricPath, secRubric},
		{"Provenance", provenancePagePath, secProvenance},
	}
	if c.Previous != nil {
		info.Nav = append(info.Nav, navItem{"Changes", changesPath, secChanges})
	}
	for _, p := range c.Pages {
		info.Nav = append(info.Nav, navItem{p.Title, contentPagePath(p.Slug), contentSection(p.Slug)})
	}
	info.Nav = append(info.Nav, navItem{"Data", leaderboardJSONPath, secData})
	return info
}

func titleOr(md []byte, def string) string {
	if t := content.Title(md); t != "" {
		return t
	}
	return def
}
