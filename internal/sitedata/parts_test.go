package sitedata

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSplitRunsRoundTrip: five runs at two a part are three parts that
// JoinRuns reads back as the five, with the CSV's rows split among the
// parts under one header each; three runs at three a part stay in
// data/leaderboard.json and .csv; a part that does not match its entry in
// the index is an error naming it.
func TestSplitRunsRoundTrip(t *testing.T) {
	lb := Leaderboard{Title: "t", Release: Release{Label: "r", Date: "2026-12-01"}, Boards: []Board{}}
	var records []Run
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		records = append(records, Run{ID: id, Variant: "explicit", Scoring: "logprob"})
		lb.Runs = append(lb.Runs, records[len(records)-1].Summary())
	}
	files, err := SplitRuns(lb, records, 2)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]byte{}
	var paths []string
	for _, f := range files {
		byPath[f.Path] = f.Data
		paths = append(paths, f.Path)
	}
	want := []string{LeaderboardJSON, RunsPartJSON(1), RunsPartCSV(1), RunsPartJSON(2), RunsPartCSV(2), RunsPartJSON(3), RunsPartCSV(3), RunsCSVGz}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	runs, err := JoinRuns(byPath[LeaderboardJSON], func(p string) ([]byte, error) { return byPath[p], nil })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(lb.Runs, runs); diff != "" {
		t.Errorf("joined runs (-want +got):\n%s", diff)
	}
	whole, err := CSV(records)
	if err != nil {
		t.Fatal(err)
	}
	header, rows, _ := bytes.Cut(whole, []byte("\n"))
	var joined []byte
	for k := 1; k <= 3; k++ {
		h, r, _ := bytes.Cut(byPath[RunsPartCSV(k)], []byte("\n"))
		if !bytes.Equal(h, header) {
			t.Errorf("%s: header %q", RunsPartCSV(k), h)
		}
		joined = append(joined, r...)
	}
	if !bytes.Equal(joined, rows) {
		t.Errorf("the CSV parts' rows are not the whole CSV's")
	}
	// And the whole CSV is in one file too.
	zr, err := gzip.NewReader(bytes.NewReader(byPath[RunsCSVGz]))
	if err != nil {
		t.Fatal(err)
	}
	if one, err := io.ReadAll(zr); err != nil || !bytes.Equal(one, whole) {
		t.Errorf("%s is not the whole CSV (%v):\n%s", RunsCSVGz, err, one)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("%s names %q at %v: a rebuild would differ", RunsCSVGz, zr.Name, zr.ModTime)
	}
	// A part of another release, or missing, is an error naming it.
	swapped := func(p string) ([]byte, error) {
		if p == RunsPartJSON(2) {
			return byPath[RunsPartJSON(3)], nil
		}
		return byPath[p], nil
	}
	if _, err := JoinRuns(byPath[LeaderboardJSON], swapped); err == nil || !strings.Contains(err.Error(), RunsPartJSON(2)) {
		t.Errorf("a part in the wrong place: %v", err)
	}
	// Small enough: one file each, as before.
	files, err = SplitRuns(Leaderboard{Title: "t", Release: lb.Release, Boards: []Board{}, Runs: lb.Runs[:3]}, records[:3], 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Path != LeaderboardJSON || files[1].Path != LeaderboardCSV || bytes.Contains(files[0].Data, []byte("run_parts")) {
		t.Errorf("three runs at three a part: %d files, %s", len(files), files[0].Data)
	}
}
