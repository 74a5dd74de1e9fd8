package datapage

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// Provenance is a tree of hashes: provenance.json at the root lists the
// inputs and outputs that belong to no run, and each run's provenance.json
// (runs/<id>/provenance.json) by its hash; a run's provenance.json lists
// that run's input files and the site's files of that run (its pages, its
// data file, the copies of its files). A site of more entries (runs'
// provenance files and outputs) than one part holds (provenancePart) lists
// them in parts, provenance-<k>.json, which provenance.json names by
// their hashes, so that no file passes the 500 KB budget at any size.

// inputs lists every file the build read that belongs to no run, with its
// hash: the content, the methodology, and the templates and static files
// built into the generator. Paths are the repository's layout (content/…),
// whatever folders the flags named, so the list does not depend on where
// the build ran. A run's files are in its own provenance (runInputs).
func Inputs(cfg stage.Config, in *stage.Loaded) ([]outdir.HashedFile, error) {
	var out []outdir.HashedFile
	for _, p := range in.Content.Files {
		data, err := fs.ReadFile(cfg.Content, p)
		if err != nil {
			return nil, err
		}
		h := outdir.HashBytes(data)
		h.Path = path.Join("content", p)
		out = append(out, h)
	}
	h := outdir.HashBytes(in.Methodology)
	h.Path = "METHODOLOGY.md"
	out = append(out, h)
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
			h := outdir.HashBytes(data)
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

type ProvenanceData struct {
	Version string
	Inputs  []outdir.HashedFile
	Runs    []layout.RunLink
	// RunJSON is where each run's provenance.json is, "<id>" standing for
	// the run.
	RunJSON string
	// PartEntries is the most files provenance.json lists itself
	// (provenancePart), "2,000".
	PartEntries string
	// Pager links the page's pages when it lists more than linkLines runs
	// (pager.go); the first alone lists the inputs.
	Pager *layout.Pager
}

func ProvenancePage(cfg stage.Config, rs *stage.Runs, per layout.Paging, inputs []outdir.HashedFile) *layout.Page {
	d := ProvenanceData{Version: cfg.Version, Inputs: inputs, RunJSON: paths.RunProvenanceJSONPath("<id>"), PartEntries: show.Thousands(ProvenancePart(per))}
	for _, e := range rs.Entries {
		d.Runs = append(d.Runs, layout.LinkRun(e, paths.RunProvenancePath(e.ID())))
	}
	return &layout.Page{Path: paths.ProvenancePagePath, Title: "Provenance", Section: layout.SecProvenance, Body: d}
}

// provenancePages is the provenance page in pages of linkLines runs; the
// first alone lists the inputs.
func ProvenancePages(per layout.Paging, whole *layout.Page) []*layout.Page {
	d := whole.Body.(ProvenanceData)
	lines := layout.LinkLines(per)
	return lines.Split(whole, "provenance", "Provenance: each run’s page", len(d.Runs), func(k int, pg *layout.Pager, _ string) any {
		dk := d
		pg.Lists = "the list"
		dk.Pager, dk.Runs = pg, layout.PageOf(lines, d.Runs, k)
		if k > 1 {
			dk.Inputs = nil
		}
		return dk
	})
}

// provenanceJSON is provenance.json at the site root: the root of trust of
// a published site.
type ProvenanceJSON struct {
	Generator string              `json:"generator" jsonschema_description:"the generator's version"`
	Release   sitedata.Release    `json:"release" jsonschema_description:"the release"`
	Inputs    []outdir.HashedFile `json:"inputs" jsonschema_description:"every file the build read that belongs to no run: content, METHODOLOGY.md, the templates and static files built into the generator"`
	Runs      []outdir.HashedFile `json:"runs,omitempty" jsonschema_description:"each run's provenance file, runs/<id>/provenance.json, which lists the run's inputs and the site's files of that run; in the parts instead when there are parts"`
	Outputs   []outdir.HashedFile `json:"outputs,omitempty" jsonschema_description:"every file of the site that belongs to no run, except provenance.json and its parts; in the parts instead when there are parts"`
	Parts     []outdir.HashedFile `json:"parts,omitempty" jsonschema_description:"when the runs' provenance files and the outputs are more than one file lists: the parts, provenance-<k>.json, in order, that list them (runs first, then outputs, each in path order)"`
}

// provenancePartJSON is provenance-<k>.json: part k of provenance.json's
// runs and outputs, in their order.
type ProvenancePartJSON struct {
	Part    int                 `json:"part" jsonschema_description:"which part, from 1"`
	Of      int                 `json:"of" jsonschema_description:"how many parts there are"`
	Runs    []outdir.HashedFile `json:"runs" jsonschema_description:"the part's runs' provenance files, runs/<id>/provenance.json"`
	Outputs []outdir.HashedFile `json:"outputs" jsonschema_description:"the part's files of the site that belong to no run"`
}

// provenancePart is the most entries, runs' provenance files and outputs,
// one file lists: twenty listing pages' places (2,000 by default), about
// 0.3 MB (an entry is about 150 bytes). A site of 1,000 runs has about
// 3,900.
func ProvenancePart(per layout.Paging) int { return 20 * int(per) }

// provenancePartPath is part k (from 1) of provenance.json's lists.
func ProvenancePartPath(k int) string { return "provenance-" + show.Itoa(k) + ".json" }

// splitProvenance moves top's runs and outputs into parts of at most per
// entries when they are more, writing each part with put; top then names
// the parts.
func splitProvenance(top *ProvenanceJSON, per int, put func(path string, data []byte) error) error {
	n := len(top.Runs) + len(top.Outputs)
	if n <= per {
		return nil
	}
	of := (n + per - 1) / per
	for k := 1; k <= of; k++ {
		lo, hi := (k-1)*per, min(n, k*per)
		part := ProvenancePartJSON{Part: k, Of: of, Runs: []outdir.HashedFile{}, Outputs: []outdir.HashedFile{}}
		r := len(top.Runs)
		part.Runs = append(part.Runs, top.Runs[min(lo, r):min(hi, r)]...)
		part.Outputs = append(part.Outputs, top.Outputs[max(lo, r)-r:max(hi, r)-r]...)
		data, err := marshalLists(struct {
			Part int `json:"part"`
			Of   int `json:"of"`
		}{k, of}, []string{"runs", "outputs"}, [][]outdir.HashedFile{part.Runs, part.Outputs})
		if err != nil {
			return err
		}
		h := outdir.HashBytes(data)
		h.Path = ProvenancePartPath(k)
		if err := put(h.Path, data); err != nil {
			return err
		}
		top.Parts = append(top.Parts, h)
	}
	top.Runs, top.Outputs = nil, nil
	return nil
}

// runProvenanceJSON is runs/<id>/provenance.json.
type RunProvenanceJSON struct {
	Run     string              `json:"run" jsonschema_description:"the run's id (its folder under runs/)"`
	Inputs  []outdir.HashedFile `json:"inputs" jsonschema_description:"the run's files the build read, runs/<id>/…"`
	Outputs []outdir.HashedFile `json:"outputs" jsonschema_description:"the site's files of the run: runs/<id>/… (but this file), data/runs/<id>.json and data/runs/<id>/…"`
}

// runOf says which run a file of the site belongs to, if any, given the
// run ids.
func RunOf(p string, ids map[string]bool) (string, bool) {
	if rest, ok := strings.CutPrefix(p, "runs/"); ok {
		id, _, found := strings.Cut(rest, "/")
		return id, found && ids[id]
	}
	if rest, ok := strings.CutPrefix(p, "data/runs/"); ok {
		id, _, found := strings.Cut(rest, "/")
		if !found {
			id, found = strings.CutSuffix(rest, ".json")
		}
		return id, found && ids[id]
	}
	return "", false
}

// provenanceFiles are every run's provenance.json, then provenance.json,
// made from the files put so far: put writes each and returns its hash.
func ProvenanceFiles(site *layout.SiteInfo, entries []*board.Entry, inputs []outdir.HashedFile, outputs []outdir.HashedFile, put func(path string, data []byte) error) error {
	ids := map[string]bool{}
	for _, e := range entries {
		ids[e.ID()] = true
	}
	own := map[string][]outdir.HashedFile{}
	top := ProvenanceJSON{Generator: site.Version, Release: sitedata.Release{Label: site.Release.Label, Date: site.Release.Date}, Inputs: inputs, Runs: []outdir.HashedFile{}, Outputs: []outdir.HashedFile{}}
	for _, o := range outputs {
		if id, ok := RunOf(o.Path, ids); ok {
			own[id] = append(own[id], o)
		} else {
			top.Outputs = append(top.Outputs, o)
		}
	}
	for _, e := range entries {
		r := e.Run
		p := RunProvenanceJSON{Run: r.ID, Outputs: own[r.ID]}
		for _, f := range r.Files {
			p.Inputs = append(p.Inputs, outdir.HashedFile{Path: path.Join("runs", f.Path), SHA256: f.SHA256, Size: f.Size})
		}
		data, err := marshalRunProvenance(p)
		if err != nil {
			return err
		}
		h := outdir.HashBytes(data)
		h.Path = paths.RunProvenanceJSONPath(r.ID)
		if err := put(h.Path, data); err != nil {
			return err
		}
		top.Runs = append(top.Runs, h)
	}
	if err := splitProvenance(&top, ProvenancePart(site.PageRows), put); err != nil {
		return err
	}
	data, err := marshalProvenance(top)
	if err != nil {
		return err
	}
	return put(paths.ProvenancePath, data)
}

// marshalRunProvenance writes runs/<id>/provenance.json as
// provenance.json: one file a line, without indentation (indented, 1.7 KB
// of its 12 KB were spaces and line breaks).
func marshalRunProvenance(p RunProvenanceJSON) ([]byte, error) {
	return marshalLists(struct {
		Run string `json:"run"`
	}{p.Run}, []string{"inputs", "outputs"}, [][]outdir.HashedFile{p.Inputs, p.Outputs})
}

// marshalProvenance writes provenance.json as data/leaderboard.json is
// written: it lists every file of the site, so one file a line, without
// indentation (at 1,000 runs, indented, it passed the 500 KB budget).
func marshalProvenance(top ProvenanceJSON) ([]byte, error) {
	head := struct {
		Generator string           `json:"generator"`
		Release   sitedata.Release `json:"release"`
	}{top.Generator, top.Release}
	if top.Parts != nil {
		return marshalLists(head, []string{"inputs", "parts"}, [][]outdir.HashedFile{top.Inputs, top.Parts})
	}
	return marshalLists(head, []string{"inputs", "runs", "outputs"}, [][]outdir.HashedFile{top.Inputs, top.Runs, top.Outputs})
}

// marshalLists writes the object head (a struct of plain fields) with the
// named lists of files after its fields, one file a line.
func marshalLists(head any, names []string, lists [][]outdir.HashedFile) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(head); err != nil {
		return nil, err
	}
	buf.Truncate(buf.Len() - len("}\n"))
	for i, files := range lists {
		buf.WriteByte(',')
		if err := sitedata.WriteList(&buf, names[i], len(files), func(j int) any { return files[j] }); err != nil {
			return nil, err
		}
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}
