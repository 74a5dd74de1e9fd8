package sitedata

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"strconv"
)

// A release of more runs than fit one file of the site's 500 KB budget
// lists its runs in parts: data/leaderboard.json keeps everything else
// (the boards, the pairs) and names the parts in run_parts, in order;
// part k is data/leaderboard-runs-<k>.json with the same runs as
// data/leaderboard-runs-<k>.csv. A release of at most one part's runs has
// them in data/leaderboard.json and data/leaderboard.csv, as before. A
// release in parts has every run's row in one file too,
// data/leaderboard-runs.csv.gz (RunsCSVGz): the whole CSV, header and
// all, gzip-compressed, for a reader who wants one download.

// RunsSchema is the JSON Schema of a part of the runs.
const RunsSchema = "data/schema/leaderboard-runs.schema.json"

// RunsPartJSON and RunsPartCSV are the paths of part k (from 1); the
// patterns name them all.
func RunsPartJSON(k int) string { return runsPart + strconv.Itoa(k) + ".json" }
func RunsPartCSV(k int) string  { return runsPart + strconv.Itoa(k) + ".csv" }

// RunsCSVGz is the whole CSV of a release in parts, in one gzip file.
const RunsCSVGz = "data/leaderboard-runs.csv.gz"

const (
	runsPart            = "data/leaderboard-runs-"
	RunsPartJSONPattern = runsPart + "<k>.json"
	RunsPartCSVPattern  = runsPart + "<k>.csv"
)

// RunPart names one part of the runs in data/leaderboard.json.
type RunPart struct {
	Path  string `json:"path" jsonschema_description:"the part's JSON file, data/leaderboard-runs-<k>.json, relative to the site root"`
	CSV   string `json:"csv" jsonschema_description:"the same runs as CSV rows, data/leaderboard-runs-<k>.csv, with the columns of data/leaderboard.csv"`
	Runs  int    `json:"runs" jsonschema_description:"how many runs the part holds"`
	First string `json:"first" jsonschema_description:"the id of its first run"`
	Last  string `json:"last" jsonschema_description:"the id of its last run"`
}

// RunsPart is data/leaderboard-runs-<k>.json: part k of the runs.
type RunsPart struct {
	Release Release      `json:"release" jsonschema_description:"the release"`
	Part    int          `json:"part" jsonschema_description:"which part, from 1"`
	Of      int          `json:"of" jsonschema_description:"how many parts the runs are in"`
	Runs    []RunSummary `json:"runs" jsonschema_description:"the part's runs, in the order of the whole list (by id)"`
}

// DataFile is a data file with its path.
type DataFile struct {
	Path string
	Data []byte
}

// SplitRuns writes data/leaderboard.json and data/leaderboard.csv from a
// leaderboard and its runs' records (in the same order): when there are
// more than per runs, the runs go to parts of per runs each, the JSON's
// run_parts naming them, and the CSV is in parts, and whole in one gzip
// file (RunsCSVGz).
func SplitRuns(lb Leaderboard, records []Run, per int) ([]DataFile, error) {
	if len(lb.Runs) != len(records) {
		return nil, fmt.Errorf("leaderboard.json: %d runs but %d records", len(lb.Runs), len(records))
	}
	if len(lb.Runs) <= per {
		data, err := MarshalLeaderboard(lb)
		if err != nil {
			return nil, err
		}
		csv, err := CSV(records)
		if err != nil {
			return nil, err
		}
		return []DataFile{{LeaderboardJSON, data}, {LeaderboardCSV, csv}}, nil
	}
	runs := lb.Runs
	n := (len(runs) + per - 1) / per
	var parts []DataFile
	lb.Runs = nil
	for k := 1; k <= n; k++ {
		lo, hi := (k-1)*per, min(len(runs), k*per)
		lb.RunParts = append(lb.RunParts, RunPart{Path: RunsPartJSON(k), CSV: RunsPartCSV(k), Runs: hi - lo, First: runs[lo].ID, Last: runs[hi-1].ID})
		data, err := marshalPart(RunsPart{Release: lb.Release, Part: k, Of: n, Runs: runs[lo:hi]})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", RunsPartJSON(k), err)
		}
		csv, err := CSV(records[lo:hi])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", RunsPartCSV(k), err)
		}
		parts = append(parts, DataFile{RunsPartJSON(k), data}, DataFile{RunsPartCSV(k), csv})
	}
	csv, err := CSV(records)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RunsCSVGz, err)
	}
	gz, err := Gzip(csv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RunsCSVGz, err)
	}
	data, err := MarshalLeaderboard(lb)
	if err != nil {
		return nil, err
	}
	return append(append([]DataFile{{LeaderboardJSON, data}}, parts...), DataFile{RunsCSVGz, gz}), nil
}

// Gzip compresses data to the same bytes at every build: no name and no
// time in the header, the best compression.
func Gzip(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// JoinRuns reads the runs of a data/leaderboard.json, from the file or,
// when it lists them in parts, from its parts read with part (by path).
func JoinRuns(index []byte, part func(path string) ([]byte, error)) ([]RunSummary, error) {
	var lb struct {
		Release  Release      `json:"release"`
		Runs     []RunSummary `json:"runs"`
		RunParts []RunPart    `json:"run_parts"`
	}
	if err := json.Unmarshal(index, &lb); err != nil {
		return nil, err
	}
	if lb.RunParts == nil {
		return lb.Runs, nil
	}
	if lb.Runs != nil {
		return nil, fmt.Errorf("lists runs both in runs and in run_parts")
	}
	runs := []RunSummary{}
	for k, rp := range lb.RunParts {
		data, err := part(rp.Path)
		if err != nil {
			return nil, err
		}
		var p RunsPart
		if err := json.Unmarshal(data, &p); err != nil {
			return nil, fmt.Errorf("%s: %v", rp.Path, err)
		}
		if p.Part != k+1 || p.Of != len(lb.RunParts) || len(p.Runs) != rp.Runs || p.Release != lb.Release {
			return nil, fmt.Errorf("%s: part %d of %d with %d runs of release %s, but the index lists it as part %d of %d with %d runs of release %s",
				rp.Path, p.Part, p.Of, len(p.Runs), p.Release.Label, k+1, len(lb.RunParts), rp.Runs, lb.Release.Label)
		}
		runs = append(runs, p.Runs...)
	}
	return runs, nil
}
