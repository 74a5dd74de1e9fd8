package browsertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// moveCellsJS reads the Change column of the boards' tables as shown: each
// ranked run's row (by run id), its mark and words, the heading its cell
// carries on a phone (data-label, shown before the cell's value), and
// whether the cell and its mark are on the screen.
const moveCellsJS = `(() => {
	const w = document.documentElement.clientWidth;
	const on = el => { const b = el.getBoundingClientRect(); return b.width > 0 && b.height > 0 && b.left >= 0 && b.right <= w && getComputedStyle(el).visibility !== "hidden"; };
	return Array.from(document.querySelectorAll("table.board tbody")).map(b => b.rows[0]).filter(r => r.querySelector("td.c-move")).map(r => {
		const c = r.querySelector("td.c-move"), mark = c.querySelector("[aria-hidden=true]");
		return {run: r.id, mark: mark ? mark.textContent : "", words: c.title, label: c.getAttribute("data-label"),
			before: getComputedStyle(c, "::before").content, shown: on(c), markShown: mark !== null && on(mark)};
	});
})()`

type moveCell struct {
	Run       string `json:"run"`
	Mark      string `json:"mark"`
	Words     string `json:"words"`
	Label     string `json:"label"`
	Before    string `json:"before"`
	Shown     bool   `json:"shown"`
	MarkShown bool   `json:"markShown"`
}

// releaseRun is a run of a data/leaderboard.json, as the rank changes
// read it.
type releaseRun struct {
	ID           string         `json:"id"`
	ModelID      string         `json:"model_id"`
	Variant      string         `json:"variant"`
	Intervention string         `json:"intervention"`
	Scoring      string         `json:"scoring"`
	Rank         map[string]int `json:"rank"`
}

type release struct {
	Release struct{ Label string } `json:"release"`
	Runs    []releaseRun           `json:"runs"`
}

func readRelease(t *testing.T, file string) release {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var r release
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return r
}

// wantMoves is each ranked run's composite rank change, by run id, from
// the site's data/leaderboard.json and the previous release that
// content/site.yaml names, as the board writes it: "↑2", "↓1", "same", or
// "new" for a model's run not ranked then (known across releases by its
// model id, variant and scoring, its default-prompt run).
func wantMoves(t *testing.T) (moves map[string]string, since string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, "content", "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct{ Previous string }
	if err := yaml.Unmarshal(data, &cfg); err != nil || cfg.Previous == "" {
		t.Fatalf("content/site.yaml names no previous release (%v)", err)
	}
	then := readRelease(t, filepath.Join(repo, "content", filepath.FromSlash(cfg.Previous)))
	now := readRelease(t, filepath.Join(siteDir, "data", "leaderboard.json"))
	type key struct{ model, variant, scoring string }
	was := map[key]int{}
	for _, r := range then.Runs {
		if r.Intervention == "default" && r.Rank["composite"] > 0 {
			was[key{r.ModelID, r.Variant, r.Scoring}] = r.Rank["composite"]
		}
	}
	moves = map[string]string{}
	for _, r := range now.Runs {
		rank := r.Rank["composite"]
		if rank == 0 {
			continue
		}
		switch old := was[key{r.ModelID, r.Variant, r.Scoring}]; {
		case old == 0:
			moves[r.ID] = "new"
		case old > rank:
			moves[r.ID] = "↑" + strconv.Itoa(old-rank)
		case old < rank:
			moves[r.ID] = "↓" + strconv.Itoa(rank-old)
		default:
			moves[r.ID] = "same"
		}
	}
	return moves, then.Release.Label
}

// checkRankChanges: the composite board shows, for each of its ranked
// runs, the rank change since the previous release that the site's data
// and that release's file give, its cell and mark on the screen, headed
// "Change since <release>" on a phone's cards; and the committed
// demonstration shows a run moved up, one moved down and one new.
// TestPages runs it on index.html at 375 and 1280 px.
func checkRankChanges(t *testing.T, tb *tab, v visit) {
	want, since := wantMoves(t)
	cells := eval[[]moveCell](tb, moveCellsJS)
	if len(cells) == 0 {
		t.Fatalf("%s at %d px: no Change column (td.c-move): does content/site.yaml's previous release define the views as this one does?", v.page, v.width)
	}
	kinds := map[string]int{}
	for _, c := range cells {
		if w, ok := want[c.Run]; !ok || c.Mark != w {
			t.Errorf("%s at %d px: %s's rank change is %q, want %q from data/leaderboard.json and %s", v.page, v.width, c.Run, c.Mark, w, since)
		}
		if !c.Shown || !c.MarkShown {
			t.Errorf("%s at %d px: %s's rank change %q is not on the screen", v.page, v.width, c.Run, c.Mark)
		}
		if !strings.Contains(c.Words, since) || c.Label != "Change since "+since {
			t.Errorf("%s at %d px: %s's rank change says %q, headed %q: neither names %s", v.page, v.width, c.Run, c.Words, c.Label, since)
		}
		if v.width < 600 && !strings.Contains(c.Before, "Change since "+since) {
			t.Errorf("%s at %d px: %s's rank change is shown after %s, not its heading", v.page, v.width, c.Run, c.Before)
		}
		kinds[strings.TrimRight(c.Mark, "0123456789")]++
	}
	for _, k := range []string{"↑", "↓", "new"} {
		if kinds[k] == 0 {
			t.Errorf("%s at %d px: no run's rank change is %s…: the demonstration's previous release (content/releases) should show each kind (%v)", v.page, v.width, k, kinds)
		}
	}
	t.Logf("%s at %d px: %d rank changes since %s, %v", v.page, v.width, len(cells), since, kinds)
}
