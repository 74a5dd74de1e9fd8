package site

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/site/paths"
)

// pairLoadBound is the most pair.html may load to show two runs of a site
// of pairLoadRuns runs (issue 35: "at most about 1 MB"), all of them ranked
// on one board, its worst case: the page, what it links (stylesheet and
// scripts), data/pair-runs.js and the two runs' data/pairs/<id>.js.
const (
	pairLoadBound = 1_000_000
	pairLoadRuns  = 1000
)

// pairFileRE finds what pair.html loads: its stylesheets and scripts.
var pairFileRE = regexp.MustCompile(`<(?:script src|link rel=stylesheet href)="?([^" >]+)"?`)

// jsonOf is the JSON value of a data script, "window.NAME=<json>;\n".
func jsonOf(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	i := bytes.IndexByte(data, '=')
	if !bytes.HasPrefix(data, []byte("window.")) || i < 0 || !bytes.HasSuffix(data, []byte(";\n")) {
		t.Fatalf("%s is not one assignment of a JSON value: %.40q", name, data)
	}
	return data[i+1 : len(data)-2]
}

// checkPairLoad projects what pair.html loads for its worst pair at
// pairLoadRuns runs from the files of a build (sizes, and the bytes of
// pair.html and its data files in kept), and requires it within
// pairLoadBound and each file within pageBudget.
//
// The model is the data's shape: data/pair-runs.js lists each run once,
// as [id, model name] under its board; a run's data/pairs/<id>.js holds
// its own numbers, which do not grow with the runs, and per view four
// integers for each comparison it holds, about half of its board's: the
// share held here of the largest board here, of a board of all 1,000 runs.
// Each entry and comparison is
// taken as wide as this build's widest (run ids and names as long as its
// longest, values as wide), a run's own numbers as its largest and a few
// digits more (ranks, rank sets and page numbers of four digits). The
// model is checked on this build: what it gives for this build's runs and
// boards is at least what the worst pair loads here, and at most half as
// much again (it takes every run's entry as wide as the widest).
func checkPairLoad(t *testing.T, sizes map[string]int, kept map[string][]byte) {
	t.Helper()
	page := kept[paths.PairPath]
	if page == nil {
		t.Fatalf("no %s in the build", paths.PairPath)
	}
	// The page and what it links but the runs' index, whose size grows.
	fixed, linked := len(page), []string{}
	for _, m := range pairFileRE.FindAllSubmatch(page, -1) {
		p := path.Clean(string(m[1]))
		linked = append(linked, p)
		if p == paths.PairRunsPath {
			continue
		}
		n, ok := sizes[p]
		if !ok {
			t.Fatalf("%s loads %s, which the build did not write", paths.PairPath, p)
		}
		fixed += n
	}
	if !slices.Contains(linked, paths.PairRunsPath) || !slices.Contains(linked, paths.PairJSPath) {
		t.Fatalf("%s loads %v: the test no longer finds its scripts", paths.PairPath, linked)
	}

	// data/pair-runs.js: each run an entry of its board.
	var index struct {
		Views  []string
		Boards []struct{ Ranked, Others [][2]string }
	}
	runsJS := kept[paths.PairRunsPath]
	if err := json.Unmarshal(jsonOf(t, paths.PairRunsPath, runsJS), &index); err != nil {
		t.Fatal(err)
	}
	entries, entryBytes, widest, board := 0, 0, 0, 0
	for _, b := range index.Boards {
		board = max(board, len(b.Ranked))
		for _, e := range append(b.Ranked, b.Others...) {
			data, _ := json.Marshal(e)
			n := len(data) + 1 // and its comma
			entries, entryBytes, widest = entries+1, entryBytes+n, max(widest, n)
		}
	}
	// Each board's count of comparisons ("19,900 comparisons") is at most
	// three characters longer at 1,000 runs.
	runsModel := func(runs int) int { return len(runsJS) - entryBytes + runs*widest + 3*len(index.Boards) }

	// data/pairs/<id>.js: per view, four integers a comparison held.
	views := len(index.Views)
	var largest [2]int // the two largest files
	own, held, widestPair := 0, 0, 0
	for p, data := range kept {
		if !strings.HasPrefix(p, "data/pairs/") {
			continue
		}
		var r struct{ Pairs [][]int }
		if err := json.Unmarshal(jsonOf(t, p, data), &r); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(data) > largest[0] {
			largest = [2]int{len(data), largest[0]}
		} else if len(data) > largest[1] {
			largest[1] = len(data)
		}
		pairBytes := 0
		for _, row := range r.Pairs {
			held = max(held, len(row)/4)
			for i := 0; i+4 <= len(row); i += 4 {
				w := 0
				for _, x := range row[i : i+4] {
					w += len(strconv.Itoa(x)) + 1 // and its comma
				}
				pairBytes += w
				widestPair = max(widestPair, w)
			}
		}
		own = max(own, len(data)-pairBytes)
	}
	if held < 50 || widestPair == 0 {
		t.Fatalf("pair files holding at most %d comparisons a view: the test needs a build of many ranked runs", held)
	}
	const digits = 4 * 4 // per view: rank, rank set's two ends, page number
	pairModel := func(held int) int { return own + digits + views*held*widestPair }
	model := func(runs, held int) int { return fixed + runsModel(runs) + 2*pairModel(held) }

	here, modelHere := fixed+len(runsJS)+largest[0]+largest[1], model(entries, held)
	if modelHere < here || modelHere > here*3/2 {
		t.Errorf("the size model gives %d bytes for this build's worst pair (%d runs, %d comparisons a view at most), which loads %d", modelHere, entries, held, here)
	}
	heldAt := (held*pairLoadRuns+board-1)/board + 1
	load := model(pairLoadRuns, heldAt)
	t.Logf("pair.html at %d runs on one board: %d bytes (page and assets %d, %s %d, two of data/pairs/ %d each, %d comparisons a view); here, %d runs, %d on the largest board: the worst pair %d bytes, the model %d",
		pairLoadRuns, load, fixed, paths.PairRunsPath, runsModel(pairLoadRuns), pairModel(heldAt), heldAt, entries, board, here, modelHere)
	if load > pairLoadBound {
		t.Errorf("pair.html would load %d bytes for a pair at %d runs, over %d", load, pairLoadRuns, pairLoadBound)
	}
	for name, n := range map[string]int{paths.PairRunsPath: runsModel(pairLoadRuns), "a run's data/pairs/<id>.js": pairModel(heldAt)} {
		if n > pageBudget {
			t.Errorf("%s would be %d bytes at %d runs, over the %d budget of a file", name, n, pairLoadRuns, pageBudget)
		}
	}
}
