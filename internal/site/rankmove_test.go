package site

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// TestRankMoves: every ranked row of every board page shows its model's
// rank change in the page's view since the fixture's previous release
// (content/releases/test-0.json), the words of vocab.RankMove from the
// rank that release's leaderboard.json gives the model's default-prompt
// run of the board's variant and scoring method (0 when it has none) and
// the row's own rank; at least one row moved up and one is new.
func TestRankMoves(t *testing.T) {
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	old, err := fixtureReleaseFile(t)
	if err != nil {
		t.Fatal(err)
	}
	var lb sitedata.Leaderboard
	if err := json.Unmarshal(old, &lb); err != nil {
		t.Fatal(err)
	}
	then := map[string]int{} // model id, variant, scoring, view
	for _, r := range lb.Runs {
		if r.Intervention == board.DefaultIntervention {
			for view, rank := range r.Rank {
				then[r.ModelID+" "+r.Variant+" "+r.Scoring+" "+view] = rank
			}
		}
	}
	page := regexp.MustCompile(`^board/(explicit|implicit)-(composite|age|gender|race)\.html$`)
	table := regexp.MustCompile(`<table class="board sortable" data-method=(\w+)>`)
	row := regexp.MustCompile(`^[^>]*><tr id=([^ >]+)><td data-sort=(\d+) class=c-rank.*?<span class=sub><bdi>([^<]+)</bdi>.*?<td data-sort(?:=[^ ]*)? class=c-move data-label="Change since ([^"]+)" title="([^"]*)"`)
	rows, up, added := 0, 0, 0
	for p, data := range files {
		m := page.FindStringSubmatch(p)
		if p == paths.HomePath {
			m = []string{p, "explicit", "composite"}
		}
		if m == nil {
			continue
		}
		html := string(data)
		tables := table.FindAllStringSubmatchIndex(html, -1)
		for i, tm := range tables {
			end := len(html)
			if i+1 < len(tables) {
				end = tables[i+1][0]
			}
			method := html[tm[2]:tm[3]]
			for _, body := range strings.Split(html[tm[1]:end], "<tbody")[1:] {
				if !strings.Contains(body, "><tr id=") {
					continue // another table's body (the robustness panel's)
				}
				r := row.FindStringSubmatch(body)
				ranked := !strings.Contains(body, "class=c-rank data-label=\"Rank · 95% set\"><span title=")
				if r == nil || !ranked {
					if ranked == (r == nil) {
						t.Errorf("%s: a row %s a rank %s its rank change: %.300s", p, map[bool]string{true: "with", false: "without"}[ranked], map[bool]string{true: "without", false: "with"}[ranked], body)
					}
					continue
				}
				id, now, model, since, words := r[1], r[2], r[3], r[4], r[5]
				rank, _ := strconv.Atoi(now)
				want := vocab.RankMove(then[model+" "+m[1]+" "+method+" "+m[2]], rank, lb.Release.Label)
				if since != lb.Release.Label || words != want.Words {
					t.Errorf("%s: %s (rank %d) shows %q since %q, want %q since %q", p, id, rank, words, since, want.Words, lb.Release.Label)
				}
				rows++
				up += show.Btoi(strings.HasPrefix(want.Mark, "↑"))
				added += show.Btoi(want.Mark == "new")
			}
		}
	}
	if rows == 0 || up == 0 || added == 0 {
		t.Errorf("%d rows checked, %d moved up, %d new: want some of each", rows, up, added)
	}
}

// TestPreviousRanksOtherScale: a previous release that defined the views
// otherwise (views_version 1) gives no rank change, and the boards say
// why; of a model's two default-prompt runs there, the ranked one counts,
// and an intervention run's rank none.
func TestPreviousRanksOtherScale(t *testing.T) {
	release := func(version int) *content.ReleaseFile {
		return &content.ReleaseFile{Path: "releases/r.json", Data: []byte(`{"release": {"label": "r", "date": "2025-01-01"}, "views_version": ` + strconv.Itoa(version) + `, "runs": [
			{"id": "a", "model_id": "m", "variant": "explicit", "intervention": "default", "scoring": "logprob", "rank": {"composite": 3, "age": 1}},
			{"id": "b", "model_id": "m", "variant": "explicit", "intervention": "default", "scoring": "logprob"},
			{"id": "c", "model_id": "m", "variant": "explicit", "intervention": "ignore-demographics", "scoring": "logprob", "rank": {"composite": 1}}]}`)}
	}
	p, err := boards.PreviousRanksOf("content", release(sitedata.ViewsVersion))
	if err != nil {
		t.Fatal(err)
	}
	k := stage.ModelRun{ModelID: "m", Variant: "explicit", Scoring: "logprob"}
	if got := p.Ranks[k]; !p.Comparable || got[score.Composite] != 3 || got[score.AgeView] != 1 || len(p.Ranks) != 1 {
		t.Errorf("ranks %v (comparable %v), want composite 3 and age 1 of the one model run, comparable", p.Ranks, p.Comparable)
	}
	if boards.MovesNote(p) != "" {
		t.Errorf("a comparable release: the boards say %q", boards.MovesNote(p))
	}
	if p, err = boards.PreviousRanksOf("content", release(1)); err != nil {
		t.Fatal(err)
	}
	if p.Comparable || p.Version != 1 {
		t.Errorf("a release of views version 1: comparable %v, version %d", p.Comparable, p.Version)
	}
	if note := boards.MovesNote(p); !strings.Contains(note, "since r: it defined the views otherwise (version 1, now "+strconv.Itoa(sitedata.ViewsVersion)+")") {
		t.Errorf("a release of views version 1: the boards say %q", note)
	}
}
