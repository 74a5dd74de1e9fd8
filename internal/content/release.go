package content

// Earlier releases: a release's data/leaderboard.json, kept in the content
// folder for the changes page (site.yaml's previous:) and the run pages'
// history (every releases/*.json). A release of more than 100 runs lists
// its runs in parts (run_parts: data/leaderboard-runs-<k>.json); it is kept
// as a folder, releases/<label>/, holding its leaderboard.json and the
// parts beside it, copied unchanged from the published data/ folder.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// ReleaseFile is an earlier release's data/leaderboard.json.
type ReleaseFile struct {
	// Path is inside the content folder: releases/<label>.json, or
	// releases/<label>/leaderboard.json.
	Path string
	Data []byte
	// Parts are the files of its runs when it lists them in parts, by the
	// path its run_parts give (data/leaderboard-runs-<k>.json), read from
	// beside Path; nil when it lists its runs itself.
	Parts map[string][]byte
	// partPaths are the parts' paths inside the content folder, in order.
	partPaths []string
}

// files are the release's files inside the content folder, for
// provenance: the leaderboard, then its parts.
func (r *ReleaseFile) files() []string {
	return append([]string{r.Path}, r.partPaths...)
}

// ReadRelease reads and checks the release at p (inside the content folder
// fsys, named label in messages) and, when it lists its runs in parts,
// each part from beside it, joined and checked as one release.
func ReadRelease(fsys fs.FS, label, p string) (*ReleaseFile, error) {
	pname := path.Join(label, p)
	data, err := input.ReadFile(fsys, p, pname, input.MaxTextBytes)
	if err != nil {
		return nil, err
	}
	parts, err := checkRelease(pname, data)
	if err != nil {
		return nil, err
	}
	r := &ReleaseFile{Path: p, Data: data}
	if parts == nil {
		return r, nil
	}
	r.Parts = map[string][]byte{}
	for _, part := range parts {
		pp := path.Join(path.Dir(p), path.Base(part))
		ppname := path.Join(label, pp)
		pdata, err := input.ReadFile(fsys, pp, ppname, input.MaxTextBytes)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fileerr.New(pname, keyLine(data, "run_parts"), "lists its runs in %d parts, but there is no %s: copy the release's data/leaderboard-runs-<k>.json beside its leaderboard.json, unchanged", len(parts), ppname)
		}
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(pdata, new(json.RawMessage)); err != nil {
			return nil, fileerr.New(ppname, jsonErrLine(pdata, err), "%s: copy the release's data/leaderboard-runs-<k>.json unchanged", jsonErrText(err))
		}
		if err := input.DuplicateKey(ppname, pdata); err != nil {
			return nil, err
		}
		r.Parts[part], r.partPaths = pdata, append(r.partPaths, pp)
	}
	runs, err := sitedata.JoinRuns(data, func(part string) ([]byte, error) { return r.Parts[part], nil })
	if err != nil {
		return nil, fileerr.New(pname, 0, "with its parts beside it: %v; copy the release's data/leaderboard.json and data/leaderboard-runs-<k>.json unchanged", err)
	}
	for i, run := range runs {
		if run.ID == "" {
			return nil, fileerr.New(pname, 0, "with its parts beside it: run %d has no id: copy the release's files unchanged", i+1)
		}
	}
	return r, nil
}

// releaseFiles reads every release kept in releases/ (a LABEL.json, or a
// LABEL/ folder holding its leaderboard.json and parts), each checked as
// the previous release is; a README.md there is the folder's notes, any
// other file is warned of.
func releaseFiles(fsys fs.FS, label string, c *Content) error {
	entries, err := fs.ReadDir(fsys, "releases")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return input.Explain(path.Join(label, "releases"), err)
	}
	for _, e := range entries { // sorted by name
		p := "releases/" + e.Name()
		pname := path.Join(label, p)
		switch {
		case e.IsDir():
			r, err := releaseFolder(fsys, label, p, c)
			if err != nil {
				return err
			}
			if r != nil {
				c.addRelease(r)
			}
		case strings.HasSuffix(e.Name(), ".json"):
			r, err := ReadRelease(fsys, label, p)
			if err != nil {
				return err
			}
			c.addRelease(r)
		case !input.Passed(e.Name()):
			c.Warnings = append(c.Warnings, fileerr.New(pname, 0, "skipped: not a release (releases are LABEL.json, a release's data/leaderboard.json, or a folder LABEL/ holding it and its data/leaderboard-runs-<k>.json); rename it, or move it out of %s", path.Join(label, "releases")))
		}
	}
	return nil
}

// releaseFolder reads the release in the folder dir (releases/<label>):
// its leaderboard.json and the parts it names; any other file there is
// warned of, and a folder without a leaderboard.json is one warning.
func releaseFolder(fsys fs.FS, label, dir string, c *Content) (*ReleaseFile, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, input.Explain(path.Join(label, dir), err)
	}
	index := path.Join(dir, sitedataBase)
	if _, err := fs.Stat(fsys, index); errors.Is(err, fs.ErrNotExist) {
		c.Warnings = append(c.Warnings, fileerr.New(path.Join(label, dir), 0, "skipped: a release folder holds its %s (and the parts it lists), copied from the published data/ folder", sitedataBase))
		return nil, nil
	}
	r, err := ReadRelease(fsys, label, index)
	if err != nil {
		return nil, err
	}
	read := map[string]bool{}
	for _, f := range r.files() {
		read[f] = true
	}
	for _, e := range entries {
		if f := path.Join(dir, e.Name()); !read[f] && !input.Passed(e.Name()) {
			c.Warnings = append(c.Warnings, fileerr.New(path.Join(label, f), 0, "skipped: not a file of the release %s lists (its parts are data/leaderboard-runs-<k>.json)", path.Join(label, index)))
		}
	}
	return r, nil
}

// sitedataBase is the name of a release's leaderboard in its folder.
var sitedataBase = path.Base(sitedata.LeaderboardJSON)

// addRelease adds a release to the history, and its files to the inputs
// unless it is the previous release (already there).
func (c *Content) addRelease(r *ReleaseFile) {
	c.Releases = append(c.Releases, *r)
	if r.Path != c.Site.Previous {
		c.Files = append(c.Files, r.files()...)
	}
}

// previousWarnings says when the release site.yaml names as the previous
// one (at line of name) does not look like this site's earlier release: a
// release of another site (another title or benchmark) or not before this
// one (a date on or after this release's, the same label). The changes
// page compares with it all the same; the warning is for whoever
// publishes.
func previousWarnings(name string, line int, s Site, r *ReleaseFile) []error {
	var of struct {
		Title     string `json:"title"`
		Benchmark string `json:"benchmark"`
		Release   struct {
			Label string `json:"label"`
			Date  string `json:"date"`
		} `json:"release"`
	}
	if json.Unmarshal(r.Data, &of) != nil {
		return nil // checkRelease read it
	}
	var out []error
	warn := func(format string, args ...any) {
		out = append(out, fileerr.New(name, line, "previous: %s %s: is it this site's previous release? The changes page compares with it as if it were", r.Path, fmt.Sprintf(format, args...)))
	}
	if of.Title != s.Title {
		warn("is the release of a site titled %q, not %q", of.Title, s.Title)
	}
	if of.Benchmark != "" && of.Benchmark != s.Benchmark {
		warn("is a release of the benchmark %q, not %q", of.Benchmark, s.Benchmark)
	}
	switch {
	case of.Release.Label == s.Release.Label:
		warn("has this release's label, %q", s.Release.Label)
	case of.Release.Date >= s.Release.Date:
		warn("is dated %s, not before this release (%s, %s)", of.Release.Date, s.Release.Label, s.Release.Date)
	}
	return out
}

// release is what the changes page reads of a previous release's
// data/leaderboard.json, checked here so that a malformed file is an
// error at its line.
type release struct {
	Release struct {
		Label string `json:"label"`
		Date  string `json:"date"`
	} `json:"release"`
	Runs []struct {
		ID           string `json:"id"`
		Model        string `json:"model"`
		Variant      string `json:"variant"`
		Intervention string `json:"intervention"`
		Scored       bool   `json:"scored"`
		Views        map[string]struct {
			Estimate float64     `json:"estimate"`
			CI95     *[2]float64 `json:"ci95"`
		} `json:"views"`
		Rank map[string]int `json:"rank"`
	} `json:"runs"`
	RunParts []struct {
		Path string `json:"path"`
	} `json:"run_parts"`
}

// checkRelease checks a release's data/leaderboard.json, and returns the
// paths of its parts when it lists its runs in parts (run_parts), whose
// runs ReadRelease checks.
func checkRelease(name string, data []byte) (parts []string, err error) {
	var r release
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, fileerr.New(name, jsonErrLine(data, err), "%s: copy the previous release's data/leaderboard.json unchanged", jsonErrText(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fileerr.New(name, lineAt(data, dec.InputOffset()), "unexpected data after the JSON object: copy the previous release's data/leaderboard.json unchanged")
	}
	if err := input.DuplicateKey(name, data); err != nil {
		return nil, err
	}
	if r.Release.Label == "" || r.Runs == nil && r.RunParts == nil {
		return nil, fileerr.New(name, keyLine(data, "release"), "not a leaderboard.json: it needs release.label and runs; copy the previous release's data/leaderboard.json unchanged")
	}
	if err := input.BenchmarkDate(r.Release.Date); err != nil {
		return nil, fileerr.New(name, keyLine(data, "release.date"), "release.date %v: copy the previous release's data/leaderboard.json unchanged", err)
	}
	for i, run := range r.Runs {
		if run.ID == "" {
			return nil, fileerr.New(name, keyLine(data, "runs"), "runs[%d] has no id: copy the previous release's data/leaderboard.json unchanged", i)
		}
	}
	for _, p := range r.RunParts {
		if p.Path == "" {
			return nil, fileerr.New(name, keyLine(data, "run_parts"), "a part in run_parts has no path: copy the release's data/leaderboard.json unchanged")
		}
		parts = append(parts, p.Path)
	}
	return parts, nil
}
