package site

import (
	"fmt"
	"html/template"
	"io/fs"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
)

// assemblePages queues the pages that span runs — boards, pairwise and
// mitigation pages, run pages (they show ranks), the browser's prompt and
// compare pages, the rubric, provenance, changes, the content pages — and
// puts the data files. Every page's content is settled when it is queued.
func assemblePages(cfg Config, in *loaded, sc *scored, site *siteInfo, pool *pool, out sink) error {
	queueBoards(sc, pool)
	pool.page(mitigationPage(sc.pairs))
	hist, err := readHistory(cfg.ContentLabel, in.content.Releases)
	if err != nil {
		return err
	}
	for _, e := range sc.entries {
		pool.submit(func(r *renderer) error {
			p, err := runPage(cfg, sc, e, hist.of(e, in.content.Site.Release))
			if err != nil {
				return err
			}
			return r.emit(p)
		})
	}
	if err := contentPages(cfg, in, pool); err != nil {
		return err
	}
	browserPages(in, sc, pool)
	rubric, rubricJSON, err := rubricPage(cfg, in, sc)
	if err != nil {
		return fmt.Errorf("rubric: %w", err)
	}
	pool.page(rubric)
	inputs, err := inputs(cfg, in)
	if err != nil {
		return fmt.Errorf("provenance: %w", err)
	}
	for _, p := range provenancePages(sc.per, provenancePage(cfg, sc, inputs)) {
		pool.page(p)
	}
	for _, p := range downloadsPages(sc.per, downloadsPage(in, sc, site)) {
		pool.page(p)
	}
	index := searchIndex(in.texts, sc)
	indexJS, err := searchIndexJS(index, searchParts(sc.per))
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	for _, f := range indexJS {
		if err := out.put(f.Path, f.Data); err != nil {
			return err
		}
	}
	pool.page(searchPage(in.texts, len(index), indexJS))
	pool.page(glossaryPage(site))
	css, err := fs.ReadFile(cfg.Static, "site.css")
	if err != nil {
		return fmt.Errorf("404.html: %w", err)
	}
	pool.page(&page{Path: notFoundPath, Title: "Page not found", Section: secNone, Body: notFound{template.CSS(css)}})
	data, err := dataFiles(cfg, in, sc, site, out)
	if err != nil {
		return err
	}
	// The changes page reads this build's data files back, as -diff does.
	changes, err := changesPage(cfg, in, data)
	if err != nil {
		return err
	}
	if changes != nil {
		for _, p := range changesPages(site.PageRows, changes) {
			pool.page(p)
		}
	}
	for _, f := range append(data, rubricJSON) {
		if err := out.put(f.Path, f.Data); err != nil {
			return err
		}
	}
	return nil
}

// contentPages queues the pages of our own content: the benchmark page,
// the methodology and content/pages.
func contentPages(cfg Config, in *loaded, pool *pool) error {
	methodology, err := content.Markdown(in.methodology)
	if err != nil {
		return fmt.Errorf("%s: %v", cfg.MethodologyLabel, err)
	}
	bm := in.content.Benchmark
	body, err := content.Markdown([]byte(bm.Body))
	if err != nil {
		return fmt.Errorf("benchmark body: %v", err)
	}
	pool.page(&page{Path: benchmarkPath, Title: bm.Page.Name, Section: secBenchmark, Body: benchmarkData{Page: &bm.Page, Body: body}})
	pool.page(&page{Path: methodologyPath, Title: titleOr(in.methodology, "Methodology"), Section: secMethodology, Body: article{methodology}})
	for _, p := range in.content.Pages {
		pool.page(&page{Path: contentPagePath(p.Slug), Title: p.Title, Section: contentSection(p.Slug), Body: article{p.HTML}})
	}
	return nil
}

// newSiteInfo is what every page shows of the site: title, release,
// navigation.
func newSiteInfo(cfg Config, in *loaded) *siteInfo {
	c := in.content
	info := &siteInfo{
		Title:       c.Site.Title,
		Benchmark:   c.Benchmark.Page.Name,
		Description: c.Site.Description,
		BasePath:    c.Site.BasePath,
		Release:     releaseInfo{c.Site.Release.Label, c.Site.Release.Date},
		RunsURL:     c.Site.RunsURL,
		Version:     cfg.Version,
		PageRows:    paging(cfg.PageRows),
		Repository:  c.Site.Repository,
		Design: designFacts{Baseline: design.Baseline.Label(), Questions: design.NumQuestions, Cells: design.NumCells,
			Decimals: countWord(board.DisplayDecimals)},
	}
	for _, r := range in.runs {
		info.Synthetic = info.Synthetic || r.Manifest.Synthetic
	}
	info.splitRuns(len(in.runs) + cfg.more.count())
	info.Cite = cite(c.Site.Title, info.Release, info.Version, info.Repository)
	info.Nav = []navItem{
		{"Leaderboard", homePath, secBoard},
		{"Benchmark", benchmarkPath, secBenchmark},
		{"Mitigation", mitigationPath, secMitigation},
		{"Browse", transcriptsPath, secTranscripts},
		{"Methodology", methodologyPath, secMethodology},
		{"Glossary", glossaryPath, secGlossary},
		{"Rubric", rubricPath, secRubric},
		{"Provenance", provenancePagePath, secProvenance},
	}
	if c.Previous != nil {
		info.Nav = append(info.Nav, navItem{"Changes", changesPath, secChanges})
	}
	for _, p := range c.Pages {
		info.Nav = append(info.Nav, navItem{p.Title, contentPagePath(p.Slug), contentSection(p.Slug)})
	}
	info.Nav = append(info.Nav, navItem{"Downloads", downloadsPath, secData})
	return info
}

func titleOr(md []byte, def string) string {
	if t := content.Title(md); t != "" {
		return t
	}
	return def
}

// queueBoards queues every variant's boards, their pairwise pages and its
// group page.
func queueBoards(sc *scored, pool *pool) {
	for _, variant := range board.Variants {
		for _, v := range score.Views {
			pool.submit(func(r *renderer) error {
				ps, err := boardPages(sc, variant, v)
				if err != nil {
					return err
				}
				for _, p := range ps {
					if err := r.emit(p); err != nil {
						return err
					}
				}
				for _, p := range pairwisePages(sc, variant, v) {
					if err := r.emit(p); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if hasGroupFigure(sc, variant) {
			pool.submit(func(r *renderer) error {
				p, err := groupsPage(sc, variant)
				if err != nil {
					return err
				}
				return r.emit(p)
			})
		}
	}
}
