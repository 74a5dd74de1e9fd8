package changes

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// Site is what the comparison reads of one build, through the public data
// format: its leaderboard and, when the whole site is at hand, every run's
// data file.
type Site struct {
	Release sitedata.Release
	// ViewsVersion is the definition of the views; files written before
	// it was recorded are version 1.
	ViewsVersion int
	Runs         []sitedata.RunSummary // by id
	// Details holds each run's data file, without its questions (which
	// no comparison reads); nil when only a leaderboard is known (a
	// previous release keeps only data/leaderboard.json).
	Details map[string]*sitedata.Run
}

// ReadLeaderboard reads a data/leaderboard.json alone. Only the release
// and the runs are read: the boards' format has changed between releases
// (a board once listed each run's rank beside its id), and the runs hold
// every rank.
func ReadLeaderboard(data []byte) (*Site, error) {
	return readLeaderboard(data, func(p string) ([]byte, error) {
		return nil, fmt.Errorf("lists its runs in parts (%s …): read the whole site (ReadFiles), or merge the parts' runs into its runs", p)
	})
}

// ReadRelease reads a release's data/leaderboard.json with its parts (by
// the paths its run_parts give) when it lists its runs in parts.
func ReadRelease(data []byte, parts map[string][]byte) (*Site, error) {
	return readLeaderboard(data, func(p string) ([]byte, error) {
		if d, ok := parts[p]; ok {
			return d, nil
		}
		return nil, fmt.Errorf("%s: missing: the leaderboard lists it among its parts", p)
	})
}

// readLeaderboard reads a data/leaderboard.json, its parts read with part
// when it lists its runs in parts.
func readLeaderboard(data []byte, part func(p string) ([]byte, error)) (*Site, error) {
	var lb struct {
		Release      sitedata.Release `json:"release"`
		ViewsVersion int              `json:"views_version"`
	}
	if err := json.Unmarshal(data, &lb); err != nil {
		return nil, err
	}
	runs, err := sitedata.JoinRuns(data, part)
	if err != nil {
		return nil, err
	}
	s := &Site{Release: lb.Release, ViewsVersion: max(lb.ViewsVersion, 1), Runs: runs}
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	return s, nil
}

// skipped reads past a JSON array or null (whose syntax json.Unmarshal
// has checked) without keeping it.
type skipped struct{}

func (*skipped) UnmarshalJSON(b []byte) error {
	if b[0] != '[' && string(b) != "null" {
		return fmt.Errorf("questions: %.20s: not an array", b)
	}
	return nil
}

// ReadFiles reads a site's data files, given as path → contents (other
// files are ignored). A run's data file, when there is one, stands for its
// leaderboard entry: it is the fuller record of the same numbers.
func ReadFiles(files map[string][]byte) (*Site, error) {
	lb, ok := files[sitedata.LeaderboardJSON]
	if !ok {
		return nil, fmt.Errorf("%s: missing: not a built site", sitedata.LeaderboardJSON)
	}
	s, err := readLeaderboard(lb, func(p string) ([]byte, error) {
		data, ok := files[p]
		if !ok {
			return nil, fmt.Errorf("%s: missing: the leaderboard lists it among its parts", p)
		}
		return data, nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", sitedata.LeaderboardJSON, err)
	}
	s.Details = map[string]*sitedata.Run{}
	for p, data := range files {
		if !sitedata.IsRunFile(p) {
			continue
		}
		// The questions, the bulk of the file, are read past: no
		// comparison looks at them, and a site of a thousand runs would
		// hold them all at once.
		var w struct {
			sitedata.Run
			Questions skipped `json:"questions"`
		}
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		r := w.Run
		if sitedata.RunFile(r.ID) != p {
			return nil, fmt.Errorf("%s: holds run %q", p, r.ID)
		}
		s.Details[r.ID] = &r
	}
	byID := map[string]int{}
	for i, r := range s.Runs {
		byID[r.ID] = i
	}
	for id, r := range s.Details {
		if i, ok := byID[id]; ok {
			s.Runs[i] = r.Summary()
		} else {
			s.Runs = append(s.Runs, r.Summary())
		}
	}
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	return s, nil
}

// ReadFS reads the data files of a built site in fsys, named label in
// errors, as every input is read (internal/input: regular files within
// their size limit; open fsys with input.Dir so that no link leads out).
func ReadFS(fsys fs.FS, label string) (*Site, error) {
	files := map[string][]byte{}
	runsDir := path.Dir(sitedata.RunFile("x"))
	entries, err := fs.ReadDir(fsys, runsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, input.Explain(path.Join(label, runsDir), err)
	}
	names := []string{sitedata.LeaderboardJSON}
	parts, err := fs.Glob(fsys, "data/leaderboard-runs-*.json")
	if err != nil {
		return nil, err
	}
	names = append(names, parts...)
	for _, e := range entries {
		if p := path.Join(runsDir, e.Name()); !e.IsDir() && sitedata.IsRunFile(p) && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, p)
		}
	}
	for _, p := range names {
		data, err := input.ReadFile(fsys, p, path.Join(label, p), input.MaxTextBytes)
		if err != nil {
			if p == sitedata.LeaderboardJSON && errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w (not a built site?)", err)
			}
			return nil, err
		}
		files[p] = data
	}
	return ReadFiles(files)
}
