package site

// The Pages budget: a site holds at most site.yaml's pages_budget (1 GB,
// GitHub Pages' limit, unless it says). The build adds up what it writes.
// The runs' files are copied into the site (data/runs/<id>/) while the
// whole site, copies included, fits the budget; past it they are linked
// where the runs folder is published (runs_url, or build -runs-url), each
// with its SHA-256, and without such an address the build fails, naming
// the budget, the size and the way out.
//
// Where the files are shows on the pages that say so — each run's page,
// the Downloads pages and each run's data file — which are made last, once
// every other page is written and counted: with the files copied, they are
// made in memory first, and the site's provenance files counted with them,
// so that the decision is on the site's exact size. Every other page,
// a run's own cached pages included, links the run page's list of its
// files and is the same either way.

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/discrimeval/leaderboard/internal/site/datapage"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/runpage"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// gb writes a size in GB (10⁹ bytes), as budgets are written, or in MB
// below 0.1 GB.
func gb(n int64) string {
	if n < 1e8 {
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2f GB", float64(n)/1e9)
}

// budgetText is the site's budget as site.yaml writes it.
func budgetText(in *stage.Loaded) string {
	if s := in.Content.Site.PagesBudget; s != "" {
		return s
	}
	return "1 GB"
}

// budgetLabel names the budget and where it is set, for messages.
func budgetLabel(cfg stage.Config, in *stage.Loaded) string {
	return fmt.Sprintf("pages_budget %s (%s)", budgetText(in), path.Join(cfg.ContentLabel, "site.yaml"))
}

// noRunsURL is the way out of a site whose copies would pass its budget
// and that has no address to link the runs' files at.
func noRunsURL(cfg stage.Config) string {
	return fmt.Sprintf("set runs_url in %s (or build -runs-url) to where the runs folder is published, e.g. https://raw.githubusercontent.com/ORG/REPO/COMMIT/runs/ (the Pages workflow gives the commit it publishes), and the files are linked there instead; or raise pages_budget", path.Join(cfg.ContentLabel, "site.yaml"))
}

// checkCopiesAtLoad fails the build at load, before any page, when the
// runs' files alone, which the site would copy, pass the budget and there
// is nowhere to link them: their sizes on disk are known from the
// manifests' folders.
func checkCopiesAtLoad(cfg stage.Config, in *stage.Loaded) error {
	if in.RunsURL != "" {
		return nil
	}
	var total, largest int64
	var largestID string
	for _, r := range in.Runs {
		size := int64(len(r.ManifestRaw))
		if st, err := fs.Stat(cfg.Runs, r.ScoredFS()); err == nil {
			size += st.Size()
		}
		total += size
		if size > largest {
			largest, largestID = size, r.ID
		}
	}
	if total <= in.Content.Site.Budget {
		return nil
	}
	return fmt.Errorf("%s: the runs' files are %s (the largest, %s, %s), which the site would copy into data/runs/: over %s before any page; %s",
		cfg.RunsLabel, gb(total), path.Join(cfg.RunsLabel, largestID), gb(largest), budgetLabel(cfg, in), noRunsURL(cfg))
}

// placed is where the runs' files went, and the line that says so when
// they are linked.
type placed struct {
	where paths.RunFiles
	note  string
}

// placeRunFiles makes the pages that say where the runs' files are, the
// copies when they fit, and puts them into rec, which holds every other
// file of the site already.
func (b *build) placeRunFiles() (placed, error) {
	cfg, in, rs := b.cfg, b.in, b.scored
	budget := in.Content.Site.Budget
	var used int64
	for _, f := range b.rec.Outputs() {
		used += f.Size
	}
	var copies []outdir.HashedFile
	var copied int64
	for _, e := range rs.Entries {
		for _, f := range e.Run.Files {
			copies = append(copies, outdir.HashedFile{Path: sitedata.RunCopy(f.Path), SHA256: f.SHA256, Size: f.Size})
			copied += f.Size
		}
	}
	if used+copied <= budget {
		// Made in memory, and counted with the provenance files they
		// would give, before any is put.
		mem := &outdir.MemSink{}
		if err := b.whereFiles(paths.RunFiles{}, mem); err != nil {
			return placed{}, err
		}
		made := mem.Sorted()
		outs := slices.Concat(b.rec.Outputs(), copies)
		var size int64
		for _, f := range made {
			h := outdir.HashBytes(f.Data)
			h.Path = f.Path
			outs = append(outs, h)
			size += h.Size
		}
		slices.SortFunc(outs, func(a, b outdir.HashedFile) int { return strings.Compare(a.Path, b.Path) })
		prov, err := b.provenanceSize(outs)
		if err != nil {
			return placed{}, err
		}
		if total := used + size + copied + prov; total <= budget {
			for _, f := range made {
				if err := b.rec.Put(f.Path, f.Data); err != nil {
					return placed{}, err
				}
			}
			return placed{}, datapage.PutRunCopies(cfg, rs.Entries, b.rec)
		}
	}
	total := used + copied
	if in.RunsURL == "" {
		return placed{}, fmt.Errorf("the site would be more than %s with the runs' files copied into it (%s of them), over %s; %s", gb(total), gb(copied), budgetLabel(cfg, in), noRunsURL(cfg))
	}
	where := paths.RunFiles{Linked: true, URL: in.RunsURL}
	if err := b.whereFiles(where, b.rec); err != nil {
		return placed{}, err
	}
	return placed{where, fmt.Sprintf("build: the runs' files (%s) are linked at %s, not copied: with them the site would be more than %s, over %s", gb(copied), in.RunsURL, gb(total), budgetLabel(cfg, in))}, nil
}

// whereFiles puts into out the pages and data files that say where the
// runs' files are: each run's page and data file, and the Downloads pages.
func (b *build) whereFiles(where paths.RunFiles, out outdir.Sink) error {
	cfg, in, rs, rk := b.cfg, b.in, b.scored, b.ranked
	budget := budgetText(in)
	pool := render.NewPool(b.r)
	for _, e := range rs.Entries {
		pool.Submit(func(r *render.Renderer) error {
			p, err := runpage.RunPage(cfg, rs, rk, e, b.hist.Of(e, in.Content.Site.Release), where, budget)
			if err != nil {
				return err
			}
			return r.EmitTo(p, out)
		})
	}
	for _, p := range datapage.DownloadsPages(rk.Per, datapage.DownloadsPage(rs, rk, b.site, where, budget)) {
		pool.Submit(func(r *render.Renderer) error { return r.EmitTo(p, out) })
	}
	data, err := datapage.RunDataFiles(rs, rk, where, ownParts(cfg, rs, b.r.Gen))
	if err != nil {
		pool.Wait()
		return err
	}
	for _, f := range data {
		if err := out.Put(f.Path, f.Data); err != nil {
			pool.Wait()
			return err
		}
	}
	return pool.Wait()
}

// provenanceSize is the size of the provenance files a site of these
// outputs would have.
func (b *build) provenanceSize(outputs []outdir.HashedFile) (int64, error) {
	inputs, err := datapage.Inputs(b.cfg, b.in)
	if err != nil {
		return 0, err
	}
	var n int64
	err = datapage.ProvenanceFiles(b.site, b.scored.Entries, inputs, outputs, func(_ string, data []byte) error {
		n += int64(len(data))
		return nil
	})
	return n, err
}

// checkBudget fails a site over its budget (its pages alone, the runs'
// files linked), and warns of one past 90% of it.
func checkBudget(cfg stage.Config, in *stage.Loaded, files []outdir.HashedFile, where paths.RunFiles) error {
	var total int64
	for _, f := range files {
		total += f.Size
	}
	budget := in.Content.Site.Budget
	if total > budget {
		what := "with the runs' files copied"
		if where.Linked {
			what = "with the runs' files linked, not copied"
		}
		return fmt.Errorf("the site is %s %s, over %s: raise pages_budget if the host takes more (GitHub Pages takes 1 GB), or publish fewer runs, or runs with shorter transcripts", gb(total), what, budgetLabel(cfg, in))
	}
	if cfg.Warnings != nil && total*10 > budget*9 {
		fmt.Fprintf(cfg.Warnings, "build: warning: the site is %s, %d%% of %s\n", gb(total), total*100/budget, budgetLabel(cfg, in))
	}
	return nil
}
