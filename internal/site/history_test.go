package site

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/site/runpage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// TestModelHistory: alpha's run page lists its composite and rank in the
// fixture's earlier release (content/releases/test-0.json) and in this
// one, as those releases' leaderboard.json files have them; a run that no
// earlier release has shows no history.
func TestModelHistory(t *testing.T) {
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	page := string(files["runs/alpha/index.html"])
	i := strings.Index(page, "<h2 id=history>")
	if i < 0 {
		t.Fatal("alpha's run page has no history")
	}
	sec := page[i:]
	sec = sec[:strings.Index(sec, "</table>")]
	row := regexp.MustCompile(`<tr(?: class=current)?><th scope=row>([^ <]+) <span class=sub>([0-9-]+)</span><td data-label=Run><code>([^<]+)</code><td class=num data-label=Composite>([0-9.]+) <span class=ci>[^<]*</span><td class=num data-label=Rank>([0-9–]+)`)
	rows := row.FindAllStringSubmatch(sec, -1)
	if len(rows) != 2 {
		t.Fatalf("alpha's history has %d rows, want 2 (test-0, this release): %s", len(rows), sec)
	}
	want := func(lbData []byte, id string) (label, date, composite, rank string) {
		var lb sitedata.Leaderboard
		if err := json.Unmarshal(lbData, &lb); err != nil {
			t.Fatal(err)
		}
		for _, r := range lb.Runs {
			if r.ID == id {
				return lb.Release.Label, lb.Release.Date, board.Display(float64(r.Views["composite"].Estimate)), strconv.Itoa(r.Rank["composite"])
			}
		}
		t.Fatalf("%s is not in release %s", id, lb.Release.Label)
		return
	}
	old, err := fixtureReleaseFile(t)
	if err != nil {
		t.Fatal(err)
	}
	for i, lb := range [][]byte{old, files["data/leaderboard.json"]} {
		l, d, c, r := want(lb, "alpha")
		if got := rows[i][1:]; got[0] != l || got[1] != d || got[2] != "alpha" || got[3] != c || got[4] != r {
			t.Errorf("history row %d: %v, want release %s %s, alpha, composite %s, rank %s", i, got, l, d, c, r)
		}
	}
	if strings.Contains(string(files["runs/beta/index.html"]), "id=history") {
		t.Error("beta, in no earlier release, shows a history")
	}
}

func fixtureReleaseFile(t *testing.T) ([]byte, error) {
	c, err := content.Load(fixture(t).Content, "content")
	if err != nil {
		return nil, err
	}
	if len(c.Releases) != 1 || c.Releases[0].Path != "releases/test-0.json" {
		t.Fatalf("the fixture's releases: %v", c.Releases)
	}
	return c.Releases[0].Data, nil
}

// TestHistoryKeysModelNotRunID: a run made again under a new id keeps its
// model's history, releases come in date order, and a release of other
// views is marked not comparable.
func TestHistoryKeysModelNotRunID(t *testing.T) {
	rel := func(label, date string, version int, id string, composite float64) content.ReleaseFile {
		lb := map[string]any{"release": map[string]string{"label": label, "date": date}, "views_version": version,
			"runs": []map[string]any{{"id": id, "model_id": "org/m", "variant": "explicit", "intervention": "default", "scoring": "logprob",
				"scored": true, "views": map[string]any{"composite": map[string]any{"estimate": composite, "ci95": []float64{composite - 0.01, composite + 0.01}}},
				"rank": map[string]int{"composite": 2}}}}
		data, err := json.Marshal(lb)
		if err != nil {
			t.Fatal(err)
		}
		return content.ReleaseFile{Path: "releases/" + label + ".json", Data: data}
	}
	h, err := runpage.ReadHistory("content", []content.ReleaseFile{rel("b", "2026-06-01", sitedata.ViewsVersion, "m-new", 0.2), rel("a", "2026-01-01", 1, "m-old", 0.3)})
	if err != nil {
		t.Fatal(err)
	}
	ps := h[runpage.HistoryKey{ModelID: "org/m", Variant: "explicit", Intervention: "default", Scoring: "logprob"}]
	if len(ps) != 2 || ps[0].RunID != "m-old" || ps[1].RunID != "m-new" {
		t.Fatalf("history %+v", ps)
	}
	if ps[0].Comparable || !ps[1].Comparable || ps[0].Composite != "0.30" || ps[1].Rank != 2 {
		t.Errorf("history %+v", ps)
	}
	if _, err := runpage.ReadHistory("content", []content.ReleaseFile{{Path: "releases/x.json", Data: []byte("{")}}); err == nil || !strings.Contains(err.Error(), "content/releases/x.json") {
		t.Errorf("a broken release: %v", err)
	}
}
