package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/highlight"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// ClaimTolerance is how far a number another tool reported may be from
// ours and still agree, in logit points: well above the 1e-6 at which lme4
// and statsmodels agree with each other, well below a displayed digit.
const ClaimTolerance = 1e-3

func runProvenancePath(id string) string { return "runs/" + id + "/provenance.html" }

type hashedFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

func hashBytes(data []byte) hashedFile {
	sum := sha256.Sum256(data)
	return hashedFile{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data))}
}

// inputs lists every file the build read, with its hash: the content, the
// methodology, every run's files, and the templates and static files built
// into the generator. Paths are the repository's layout (content/…,
// runs/…), whatever folders the flags named, so the list does not depend
// on where the build ran.
func (b *builder) inputs() ([]hashedFile, error) {
	var out []hashedFile
	for _, p := range b.content.Files {
		data, err := fs.ReadFile(b.cfg.Content, p)
		if err != nil {
			return nil, err
		}
		h := hashBytes(data)
		h.Path = path.Join("content", p)
		out = append(out, h)
	}
	h := hashBytes(b.cfg.Methodology)
	h.Path = "METHODOLOGY.md"
	out = append(out, h)
	for _, r := range b.runs {
		for _, f := range r.Files {
			out = append(out, hashedFile{path.Join("runs", f.Path), f.SHA256, f.Size})
		}
	}
	for _, src := range []struct {
		fsys  fs.FS
		label string
	}{{b.cfg.Templates, "templates"}, {b.cfg.Static, "static"}} {
		err := fs.WalkDir(src.fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, ".go") {
				return err
			}
			data, err := fs.ReadFile(src.fsys, p)
			if err != nil {
				return err
			}
			h := hashBytes(data)
			h.Path = src.label + "/" + p + " (built into the generator)"
			out = append(out, h)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// Claimed against recomputed.

type claimRow struct {
	Name, Claimed, Ours, Diff, Verdict, Class string
}

// claims compares a manifest's claimed numbers with ours, by
// lm-evaluation-harness metric name.
func claims(m *run.Manifest, res *score.Result) []claimRow {
	names := make([]string, 0, len(m.Claimed))
	for k := range m.Claimed {
		names = append(names, k)
	}
	sort.Strings(names)
	ours := map[string]float64{}
	if res.Scored {
		ours = score.Compat(res)
	}
	var rows []claimRow
	for _, n := range names {
		c := m.Claimed[n]
		r := claimRow{Name: n, Claimed: decimal(c)}
		v, ok := ours[n]
		switch {
		case m.ClaimedNotComparable != "":
			if ok {
				r.Ours = decimal(v)
			}
			r.Verdict, r.Class = "not comparable: "+m.ClaimedNotComparable, "same"
		case !res.Scored:
			r.Verdict, r.Class = "not recomputed: the run is not scored", "same"
		case !ok:
			r.Verdict, r.Class = "not recomputed: not a metric this site computes", "same"
		default:
			d := c - v
			r.Ours, r.Diff = decimal(v), fmt.Sprintf("%.2g", d)
			if math.Abs(d) <= ClaimTolerance {
				r.Verdict, r.Class = "agrees", "better"
			} else {
				r.Verdict, r.Class = "disagrees", "worse"
			}
		}
		rows = append(rows, r)
	}
	return rows
}

type runProvenanceData struct {
	ID, Model, Variant, Intervention string
	RunHref                          string
	M                                *run.Manifest
	Manifest                         template.HTML
	Files                            []run.File
	Claims                           []claimRow
	Tolerance                        string
}

func (b *builder) runProvenancePage(e *board.Entry) (*page, error) {
	m := e.Run.Manifest
	hl, err := highlight.Highlight("yaml", e.Run.ManifestRaw)
	if err != nil {
		return nil, fmt.Errorf("%s/%s/manifest.yaml: %w", b.cfg.RunsLabel, e.ID(), err)
	}
	d := runProvenanceData{ID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, RunHref: runPath(e.ID()),
		M: m, Manifest: hl, Files: e.Run.Files, Claims: claims(m, e.Result), Tolerance: decimal(ClaimTolerance)}
	return &page{Path: runProvenancePath(e.ID()), Kind: "runprovenance", Title: "Provenance · " + m.Model.Name + " · " + m.Variant + " · " + m.Intervention, Section: "provenance", Data: d}, nil
}

type provenanceData struct {
	Version string
	Inputs  []hashedFile
	Runs    []runLink
}

func (b *builder) provenancePage(inputs []hashedFile) *page {
	d := provenanceData{Version: b.cfg.Version, Inputs: inputs}
	for _, e := range b.entries {
		d.Runs = append(d.Runs, runLink{e.ID(), e.Run.Manifest.Model.Name + " · " + e.Run.Manifest.Variant, e.Run.Manifest.Intervention, runProvenancePath(e.ID())})
	}
	return &page{Path: "provenance.html", Kind: "provenance", Title: "Provenance", Section: "provenance", Data: d}
}

// provenanceJSON is provenance.json at the site root: the root of trust of
// a published site. It lists every other output file and every input.
type provenanceJSON struct {
	Generator string       `json:"generator"`
	Release   releaseJSON  `json:"release"`
	Inputs    []hashedFile `json:"inputs"`
	Outputs   []hashedFile `json:"outputs"`
}

// ProvenancePath is the manifest of a built site.
const ProvenancePath = "provenance.json"

func (b *builder) provenanceFile(inputs []hashedFile) (File, error) {
	p := provenanceJSON{Generator: b.cfg.Version, Release: releaseJSON{b.site.Release.Label, b.site.Release.Date}, Inputs: inputs}
	for _, f := range b.files {
		h := hashBytes(f.Data)
		h.Path = f.Path
		p.Outputs = append(p.Outputs, h)
	}
	sort.Slice(p.Outputs, func(i, j int) bool { return p.Outputs[i].Path < p.Outputs[j].Path })
	data, err := marshal(p)
	if err != nil {
		return File{}, err
	}
	return File{Path: ProvenancePath, Data: data}, nil
}
