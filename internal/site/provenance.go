package site

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/discrimeval/leaderboard/internal/sitedata"
)

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
func inputs(cfg Config, in *loaded) ([]hashedFile, error) {
	var out []hashedFile
	for _, p := range in.content.Files {
		data, err := fs.ReadFile(cfg.Content, p)
		if err != nil {
			return nil, err
		}
		h := hashBytes(data)
		h.Path = path.Join("content", p)
		out = append(out, h)
	}
	h := hashBytes(in.methodology)
	h.Path = "METHODOLOGY.md"
	out = append(out, h)
	for _, r := range in.runs {
		for _, f := range r.Files {
			out = append(out, hashedFile{path.Join("runs", f.Path), f.SHA256, f.Size})
		}
	}
	for _, src := range []struct {
		fsys  fs.FS
		label string
	}{{cfg.Templates, "templates"}, {cfg.Static, "static"}} {
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

type provenanceData struct {
	Version string
	Inputs  []hashedFile
	Runs    []runLink
}

func (provenanceData) kind() kind { return kindProvenance }

func provenancePage(cfg Config, sc *scored, inputs []hashedFile) *page {
	d := provenanceData{Version: cfg.Version, Inputs: inputs}
	for _, e := range sc.entries {
		d.Runs = append(d.Runs, runLink{e.ID(), e.Run.Manifest.Model.Name + " · " + string(e.Run.Manifest.Variant), e.Run.Manifest.Intervention, runProvenancePath(e.ID())})
	}
	return &page{Path: provenancePagePath, Title: "Provenance", Section: secProvenance, Body: d}
}

// provenanceJSON is provenance.json at the site root: the root of trust of
// a published site. It lists every other output file and every input.
type provenanceJSON struct {
	Generator string           `json:"generator"`
	Release   sitedata.Release `json:"release"`
	Inputs    []hashedFile     `json:"inputs"`
	Outputs   []hashedFile     `json:"outputs"`
}

// provenanceFile lists every other output file and every input.
func provenanceFile(site *siteInfo, inputs []hashedFile, outputs []hashedFile) (File, error) {
	p := provenanceJSON{Generator: site.Version, Release: sitedata.Release{Label: site.Release.Label, Date: site.Release.Date}, Inputs: inputs, Outputs: outputs}
	data, err := sitedata.Marshal(p)
	if err != nil {
		return File{}, err
	}
	return File{Path: ProvenancePath, Data: data}, nil
}
