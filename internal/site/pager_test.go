package site

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/changes"
	"github.com/discrimeval/leaderboard/internal/crawl"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/google/go-cmp/cmp"
)

// segments cuts the parts of a minified page (whose end tags may be left
// out) that start with start and run to the next start or to the end of
// their table, within the tables whose caption begins with within ("" for
// any); by table, named by its caption up to " · ".
func segments(page []byte, within, start string, into map[string][][]byte) {
	for _, table := range bytes.Split(page, []byte("<table"))[1:] {
		table, _, _ = bytes.Cut(table, []byte("</table>"))
		_, caption, ok := bytes.Cut(table, []byte("<caption>"+within))
		if !ok {
			continue
		}
		caption, _, _ = bytes.Cut(caption, []byte("</caption>"))
		name, _, _ := bytes.Cut(caption, []byte(" · "))
		parts := bytes.Split(table, []byte(start))
		for _, p := range parts[1:] {
			into[string(name)] = append(into[string(name)], append([]byte(start), p...))
		}
	}
}

// boardRows adds one board page's rows, a run's tbody each, and its
// robustness panel's rows, by table.
func boardRows(page []byte, rows, robust map[string][][]byte) {
	segments(page, "", "<tbody data-provider", rows)
	segments(page, "Composite rank of each run", "<tr><th scope=row>", robust)
}

// pageRowsForced is the page size TestPaginationKeepsTheReading forces.
const pageRowsForced = 2

var (
	pagedOnce  sync.Once
	pagedFiles map[string][]byte
)

// pagedFixtureSite is the fixture site built in pages of pageRowsForced
// places, once for the test binary: every listing has pages, the search
// index and provenance.json's lists are in parts.
func pagedFixtureSite(t *testing.T) map[string][]byte {
	t.Helper()
	pagedOnce.Do(func() {
		cfg := fixture(t)
		cfg.PageRows = pageRowsForced
		pagedFiles = generateMap(t, cfg)
	})
	if pagedFiles == nil {
		t.Fatal("the paged fixture site did not build")
	}
	return pagedFiles
}

// TestPaginationKeepsTheReading builds the fixture site with pages of two
// places and checks it against the fixture site of one page a board:
// every board's pages, in order, hold exactly the rows of the whole board
// (each run once, with the whole board's ranks and every number), every
// page says which places of how many runs it shows, the pager's and every
// other link resolves and no id repeats (crawl.Site over the whole site),
// and a run page's link to its board reaches the page with its row.
func TestPaginationKeepsTheReading(t *testing.T) {
	t.Parallel()
	skipWholeSitesUnderRace(t)
	whole := fixtureSite(t)
	paged := pagedFixtureSite(t)
	for _, p := range crawl.Site(paged) {
		t.Error(p)
	}
	paginated := 0
	for _, variant := range board.Variants {
		for _, v := range score.Views {
			first := paths.BoardPath(variant, v)
			rows, robust := map[string][][]byte{}, map[string][][]byte{}
			k := 1
			for ; paged[paths.BoardPartPath(variant, v, k)] != nil; k++ {
				p := paged[paths.BoardPartPath(variant, v, k)]
				if k > 1 && first == paths.HomePath {
					// Pages after the home page's are in board/: their links
					// climb one folder more.
					p = bytes.ReplaceAll(p, []byte("../"), nil)
				}
				if k > 1 && !bytes.Contains(p, []byte("Page "+show.Itoa(k)+" of ")) {
					t.Errorf("%s does not say which page it is", paths.BoardPartPath(variant, v, k))
				}
				boardRows(p, rows, robust)
			}
			if k > 2 {
				paginated++
			}
			wantRows, wantRobust := map[string][][]byte{}, map[string][][]byte{}
			boardRows(whole[first], wantRows, wantRobust)
			if variant == board.Variants[0] && len(wantRows["Log-probability runs"]) < 3 {
				t.Fatalf("%s: %d rows found: the pattern is stale", first, len(wantRows))
			}
			if variant == board.Variants[0] && v == score.Composite && len(wantRobust) == 0 {
				t.Fatalf("%s: no robustness row found: the pattern is stale", first)
			}
			for _, c := range []struct {
				what      string
				got, want map[string][][]byte
			}{{"rows", rows, wantRows}, {"robustness rows", robust, wantRobust}} {
				if diff := cmp.Diff(c.want, c.got); diff != "" {
					t.Errorf("%s: its %d pages' %s are not the whole board's (-whole +pages):\n%s", first, k-1, c.what, diff)
				}
			}
		}
	}
	if paginated == 0 {
		t.Fatal("no board has more than one page at two places a page")
	}
	// A run page links to the page of each board that holds its row.
	for _, id := range []string{"beta", "alpha-twin"} {
		run := paged[paths.RunPath(id)]
		for _, v := range score.Views {
			m := regexp.MustCompile(`href="?\.\./\.\./(board/[^" >]*-` + v.Name() + `(?:-\d+)?\.html|index\.html)(?:#` + regexp.QuoteMeta(id) + `)?"?>` + v.Title() + `<`).FindSubmatch(run)
			if m == nil {
				t.Errorf("%s: no link to its row on the %s board", paths.RunPath(id), v.Name())
				continue
			}
			if !bytes.Contains(paged[string(m[1])], []byte("<tr id="+id+">")) {
				t.Errorf("%s links to %s#%s, which does not hold the row", paths.RunPath(id), m[1], id)
			}
		}
	}
	// The downloads pages list each run's files once, the changes pages
	// each added run's checks once, the provenance pages and the transcript
	// hub's each run's link once.
	for _, c := range []struct {
		first, name string
		item        func(id string) string
	}{
		{paths.DownloadsPath, "downloads", func(id string) string { return "href=" + paths.RunDataPath(id) + ">" }},
		{paths.ChangesPath, "changes", func(id string) string { return "id=checks-" + id + ">" }},
		{paths.ProvenancePagePath, "provenance", func(id string) string { return "href=" + paths.RunProvenancePath(id) + ">" }},
		{paths.TranscriptsPath, "transcripts", func(id string) string { return "href=" + paths.ScenariosPath(id) + ">" }},
	} {
		pages := pagesOf(paged, func(k int) string { return paths.PagedPath(c.first, c.name, k) })
		if len(pages) < 2 {
			t.Errorf("%s: %d pages at two places a page", c.first, len(pages))
		}
		all := bytes.Join(pages, nil)
		for _, e := range []string{"alpha-twin", "beta", "delta", "gamma"} {
			if n, want := bytes.Count(all, []byte(c.item(e))), bytes.Count(whole[c.first], []byte(c.item(e))); n != want || want != 1 {
				t.Errorf("%s: its pages hold %q %d times, the whole page %d", c.first, c.item(e), n, want)
			}
		}
	}
	dataPartsAreTheWhole(t, whole, paged)
	if !strings.Contains(string(paged[paths.HomePath]), "its search, filters and sorting act on all of its runs") {
		t.Error("the paged home page does not say its search, filters and sorting act on the whole board")
	}
	if n := checkBoardIndex(t, paged); n < 4 {
		t.Errorf("the board indexes list %d runs", n)
	}
}

// dataPartsAreTheWhole checks a site's data files in parts against the
// same site's unsplit: leaderboard.json lists its parts, which validate
// against their schema; the parts' runs, joined in order, are the whole
// file's runs, and everything else of leaderboard.json is the same; the
// CSV parts' rows, joined, are the whole CSV's under the same header; the
// changes comparison reads the same runs from both sites.
func dataPartsAreTheWhole(t *testing.T, whole, paged map[string][]byte) {
	t.Helper()
	var lb, wlb sitedata.Leaderboard
	if err := json.Unmarshal(paged[sitedata.LeaderboardJSON], &lb); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(whole[sitedata.LeaderboardJSON], &wlb); err != nil {
		t.Fatal(err)
	}
	if lb.Runs != nil || len(lb.RunParts) != (len(wlb.Runs)+pageRowsForced-1)/pageRowsForced {
		t.Fatalf("leaderboard.json lists %d runs and %d parts, want no runs and the parts of %d runs", len(lb.Runs), len(lb.RunParts), len(wlb.Runs))
	}
	if checked, _, _ := validateDataFiles(t, paged); checked < len(lb.RunParts)+5 {
		t.Errorf("validated %d data files of the site in parts", checked)
	}
	runs, err := sitedata.JoinRuns(paged[sitedata.LeaderboardJSON], func(p string) ([]byte, error) { return paged[p], nil })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wlb.Runs, runs); diff != "" {
		t.Errorf("the parts' runs are not leaderboard.json's (-whole +parts):\n%s", diff)
	}
	lb.RunParts, wlb.Runs = nil, nil
	if diff := cmp.Diff(wlb, lb); diff != "" {
		t.Errorf("leaderboard.json in parts differs from the whole but for its runs (-whole +parts):\n%s", diff)
	}
	var rows [][]string
	for k := 1; paged[sitedata.RunsPartCSV(k)] != nil; k++ {
		part, err := csv.NewReader(bytes.NewReader(paged[sitedata.RunsPartCSV(k)])).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if k == 1 {
			rows = append(rows, part[0])
		} else if !slices.Equal(part[0], rows[0]) {
			t.Errorf("%s has another header", sitedata.RunsPartCSV(k))
		}
		rows = append(rows, part[1:]...)
	}
	want, err := csv.NewReader(bytes.NewReader(whole[sitedata.LeaderboardCSV])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("the CSV parts are not the whole CSV (-whole +parts):\n%s", diff)
	}
	if paged[sitedata.LeaderboardCSV] != nil {
		t.Error("a site in parts has a data/leaderboard.csv too")
	}
	// One file holds every run's row: the whole site's CSV, byte for byte.
	zr, err := gzip.NewReader(bytes.NewReader(paged[sitedata.RunsCSVGz]))
	if err != nil {
		t.Fatalf("%s: %v", sitedata.RunsCSVGz, err)
	}
	if one, err := io.ReadAll(zr); err != nil || !bytes.Equal(one, whole[sitedata.LeaderboardCSV]) {
		t.Errorf("%s is not the whole CSV (%v)", sitedata.RunsCSVGz, err)
	}
	if !bytes.Contains(paged[paths.DownloadsPath], []byte(sitedata.RunsCSVGz)) {
		t.Errorf("%s does not name %s", paths.DownloadsPath, sitedata.RunsCSVGz)
	}
	a, err := changes.ReadFiles(whole)
	if err != nil {
		t.Fatal(err)
	}
	b, err := changes.ReadFiles(paged)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a.Runs, b.Runs); diff != "" {
		t.Errorf("the changes comparison reads other runs from the site in parts (-whole +parts):\n%s", diff)
	}
}
