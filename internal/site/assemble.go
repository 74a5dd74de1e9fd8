package site

import (
	"fmt"
	"html/template"
	"io/fs"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/browse"
	"github.com/discrimeval/leaderboard/internal/site/datapage"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/runpage"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// assemblePages queues the pages that span runs — boards, pairwise and
// mitigation pages, the browser's prompt and compare pages, the rubric,
// provenance, changes, the content pages — and puts the data files. Every
// page's content is settled when it is queued. The pages that say where
// the runs' files are (run pages, Downloads, each run's data file) come
// once every other page is made and counted (budget.go), with the
// models' histories read here.
func assemblePages(cfg stage.Config, in *stage.Loaded, rs *stage.Runs, rk *stage.Ranked, site *layout.SiteInfo, pool *render.Pool, out outdir.Sink) (runpage.History, error) {
	queueBoards(rk, pool)
	if err := boardIndexes(rk, out); err != nil {
		return nil, err
	}
	if err := pairPages(in, rs, rk, pool, out); err != nil {
		return nil, err
	}
	pool.Page(boards.MitigationPage(rk.Pairs))
	hist, err := runpage.ReadHistory(cfg.ContentLabel, in.Content.Releases)
	if err != nil {
		return nil, err
	}
	if err := contentPages(cfg, in, pool); err != nil {
		return nil, err
	}
	browse.BrowserPages(in, rs, rk.Per, pool)
	rubric, rubricJSON, err := datapage.RubricPage(cfg, in, rs)
	if err != nil {
		return nil, fmt.Errorf("rubric: %w", err)
	}
	pool.Page(rubric)
	inputs, err := datapage.Inputs(cfg, in)
	if err != nil {
		return nil, fmt.Errorf("provenance: %w", err)
	}
	for _, p := range datapage.ProvenancePages(rk.Per, datapage.ProvenancePage(cfg, rs, rk.Per, inputs)) {
		pool.Page(p)
	}
	index := browse.SearchIndex(in.Texts, rs, rk, site.Nav)
	indexJS, err := browse.SearchIndexJS(index, browse.SearchParts(rk.Per))
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	for _, f := range indexJS {
		if err := out.Put(f.Path, f.Data); err != nil {
			return nil, err
		}
	}
	pool.Page(browse.SearchPage(in.Texts, len(index), indexJS))
	pool.Page(glossaryPage(site, rk))
	css, err := fs.ReadFile(cfg.Static, "site.css")
	if err != nil {
		return nil, fmt.Errorf("404.html: %w", err)
	}
	pool.Page(&layout.Page{Path: paths.NotFoundPath, Title: "Page not found", Section: layout.SecNone, Body: layout.NotFound{CSS: template.CSS(css)}})
	data, err := datapage.DataFiles(cfg, in, rs, rk, site)
	if err != nil {
		return nil, err
	}
	// The changes page reads this build's data files back, as -diff does,
	// each run's with them: its files' hashes, not where they are, which
	// is settled later (budget.go), so they are made here as if copied.
	var changes *layout.Page
	if in.Content.Previous != nil {
		runData, err := datapage.RunDataFiles(rs, rk, paths.RunFiles{}, ownParts(cfg, rs, pool.R.Gen))
		if err != nil {
			return nil, err
		}
		if changes, err = datapage.ChangesPage(cfg, in, append(runData, data...)); err != nil {
			return nil, err
		}
	}
	if changes != nil {
		for _, p := range datapage.ChangesPages(site.PageRows, changes) {
			pool.Page(p)
		}
	}
	for _, f := range append(data, rubricJSON) {
		if err := out.Put(f.Path, f.Data); err != nil {
			return nil, err
		}
	}
	return hist, nil
}

// contentPages queues the pages of our own content: the benchmark page,
// the methodology and content/pages.
func contentPages(cfg stage.Config, in *stage.Loaded, pool *render.Pool) error {
	methodology, err := content.Markdown(in.Methodology)
	if err != nil {
		return fmt.Errorf("%s: %v", cfg.MethodologyLabel, err)
	}
	bm := in.Content.Benchmark
	body, err := content.Markdown([]byte(bm.Body))
	if err != nil {
		return fmt.Errorf("benchmark body: %v", err)
	}
	pool.Page(&layout.Page{Path: paths.BenchmarkPath, Title: bm.Page.Name, Section: layout.SecBenchmark, Body: layout.BenchmarkData{Page: &bm.Page, Body: body}})
	pool.Page(&layout.Page{Path: paths.MethodologyPath, Title: titleOr(in.Methodology, "Methodology"), Section: layout.SecMethodology, Body: layout.Article{HTML: methodology}})
	for _, p := range in.Content.Pages {
		pool.Page(&layout.Page{Path: paths.ContentPagePath(p.Slug), Title: p.Title, Section: layout.ContentSection(p.Slug), Body: layout.Article{HTML: p.HTML}})
	}
	return nil
}

// newSiteInfo is what every page shows of the site: title, release,
// navigation.
func newSiteInfo(cfg stage.Config, in *stage.Loaded) *layout.SiteInfo {
	c := in.Content
	info := &layout.SiteInfo{
		Title:       c.Site.Title,
		Benchmark:   c.Benchmark.Page.Name,
		Description: c.Site.Description,
		BasePath:    c.Site.BasePath,
		Release:     layout.ReleaseInfo{Label: c.Site.Release.Label, Date: c.Site.Release.Date},
		Version:     cfg.Version,
		PageRows:    layout.Paging(cfg.PageRows),
		Repository:  c.Site.Repository,
		Design: layout.DesignFacts{Baseline: design.Baseline.Label(), Questions: design.NumQuestions, Cells: design.NumCells,
			Decimals: show.CountWord(board.DisplayDecimals)},
	}
	for _, r := range in.Runs {
		info.Synthetic = info.Synthetic || r.Manifest.Synthetic
	}
	info.SplitRuns(len(in.Runs) + cfg.More.Count())
	info.Cite = layout.Cite(c.Site.Title, info.Release, info.Version, info.Repository)
	info.Nav = []layout.NavItem{
		{Label: "Leaderboard", Path: paths.HomePath, Section: layout.SecBoard},
		{Label: "Benchmark", Path: paths.BenchmarkPath, Section: layout.SecBenchmark},
		{Label: "Mitigation", Path: paths.MitigationPath, Section: layout.SecMitigation},
		{Label: "Browse", Path: paths.TranscriptsPath, Section: layout.SecTranscripts},
		{Label: "Methodology", Path: paths.MethodologyPath, Section: layout.SecMethodology},
		{Label: "Glossary", Path: paths.GlossaryPath, Section: layout.SecGlossary},
		{Label: "Rubric", Path: paths.RubricPath, Section: layout.SecRubric},
		{Label: "Provenance", Path: paths.ProvenancePagePath, Section: layout.SecProvenance},
	}
	if c.Previous != nil {
		info.Nav = append(info.Nav, layout.NavItem{Label: "Changes", Path: paths.ChangesPath, Section: layout.SecChanges})
	}
	for _, p := range c.Pages {
		info.Nav = append(info.Nav, layout.NavItem{Label: p.Title, Path: paths.ContentPagePath(p.Slug), Section: layout.ContentSection(p.Slug), Isolate: !show.PlainASCII(p.Title)})
	}
	info.Nav = append(info.Nav, layout.NavItem{Label: "Downloads", Path: paths.DownloadsPath, Section: layout.SecData},
		layout.NavItem{Label: "Search", Path: paths.SearchPath, Section: layout.SecSearch})
	return info
}

func titleOr(md []byte, def string) string {
	if t := content.Title(md); t != "" {
		return t
	}
	return def
}

// boardIndexes puts the index of each variant whose boards are in pages.
func boardIndexes(rk *stage.Ranked, out outdir.Sink) error {
	for _, variant := range board.Variants {
		path, data, ok, err := boards.BoardIndexFile(rk, variant)
		if err != nil {
			return fmt.Errorf("board index: %w", err)
		}
		if ok {
			if err := out.Put(path, data); err != nil {
				return err
			}
		}
	}
	return nil
}

// pairPages queues pair.html, puts data/pair-runs.js and queues each
// run's data/pairs/<id>.js (boards/pair.go).
func pairPages(in *stage.Loaded, rs *stage.Runs, rk *stage.Ranked, pool *render.Pool, out outdir.Sink) error {
	pool.Page(boards.PairPage())
	f, err := boards.PairRunsFile(in.Texts, rs, rk)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	if err := out.Put(f.Path, f.Data); err != nil {
		return err
	}
	boards.PairRunFiles(rs, rk, func(file func() (boards.PairFile, error)) {
		pool.Submit(func(r *render.Renderer) error {
			f, err := file()
			if err != nil {
				return fmt.Errorf("pair data: %w", err)
			}
			return r.Out.Put(f.Path, f.Data)
		})
	})
	return nil
}

// queueBoards queues every variant's boards, their pairwise pages and its
// group page.
func queueBoards(rk *stage.Ranked, pool *render.Pool) {
	for _, variant := range board.Variants {
		for _, v := range score.Views {
			pool.Submit(func(r *render.Renderer) error {
				ps, err := boards.BoardPages(rk, variant, v)
				if err != nil {
					return err
				}
				for _, p := range ps {
					if err := r.Emit(p); err != nil {
						return err
					}
				}
				for _, p := range boards.PairwisePages(rk, variant, v) {
					if err := r.Emit(p); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if boards.HasGroupFigure(rk, variant) {
			pool.Submit(func(r *render.Renderer) error {
				p, err := boards.GroupsPage(rk, variant)
				if err != nil {
					return err
				}
				return r.Emit(p)
			})
		}
		if boards.HasGroupBoards(rk, variant) {
			pool.Submit(func(r *render.Renderer) error {
				ps, err := boards.GroupBoardPages(rk, variant)
				if err != nil {
					return err
				}
				for _, p := range ps {
					if err := r.Emit(p); err != nil {
						return err
					}
				}
				return nil
			})
		}
	}
}
