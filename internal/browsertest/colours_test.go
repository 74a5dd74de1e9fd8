package browsertest

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/chart"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// cellColour is a grid cell as TestGridColours reads it.
type cellColour struct {
	ID      string `json:"id"`
	Text    string `json:"text"`
	Missing bool   `json:"missing"`
	BG      string `json:"bg"`
	// Shown is the background of the difference in the cell's transcript
	// (cells.js) after a click on the cell.
	Shown string `json:"shown"`
}

// gridColoursJS reads every grid cell's background, and the colours of the
// classes b0…b8 on a probe element of the page's own stylesheet.
const gridColoursJS = `(() => {
	const probe = document.createElement("span");
	document.body.appendChild(probe);
	const classes = [0, 1, 2, 3, 4, 5, 6, 7, 8].map(i => { probe.className = "b" + i; return getComputedStyle(probe).backgroundColor; });
	const cells = Array.from(document.querySelectorAll("table.grid tbody td")).map(td => {
		const c = {id: td.id, text: td.textContent, missing: td.classList.contains("missing"), bg: getComputedStyle(td).backgroundColor, shown: ""};
		if (!c.missing) {
			td.click();
			const d = document.querySelector("#cv .delta");
			c.shown = d ? getComputedStyle(d).backgroundColor : "none";
		}
		return c;
	});
	return {classes, cells};
})()`

// TestGridColours: a scenario page's grid leaves out of its cells the
// colour class the table or the row carries (internal/site gridCommon);
// every cell still has the colour of its difference's bucket, and the
// cell's transcript colours the difference alike (cells.js).
func TestGridColours(t *testing.T) {
	t.Parallel()
	// Runs of strong and of no effects: many row classes, and nearly
	// every cell on the table's.
	// Each once: the committed log-probability run may be one of them.
	var ids []string
	for _, id := range []string{committedRun(t, run.Logprob), "ager-20b-explicit", "fair-7b-explicit", "skew-13b-explicit"} {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			gridColours(t, id)
		})
	}
}

// gridColours is TestGridColours on one run's pages.
func gridColours(t *testing.T, id string) {
	tb := newTab(t, 1280, 900, "light")
	for _, q := range []string{"0", "3"} {
		page := "runs/" + id + "/q" + q + ".html"
		tb.open(siteDir, page)
		got := eval[struct {
			Classes []string     `json:"classes"`
			Cells   []cellColour `json:"cells"`
		}](tb, gridColoursJS)
		if len(got.Cells) != 135 || len(got.Classes) != 9 {
			t.Fatalf("%s: %d cells, %d classes", page, len(got.Cells), len(got.Classes))
		}
		checked := 0
		for _, c := range got.Cells {
			if c.Missing {
				continue
			}
			lines := strings.Split(c.Text, "\n")
			if len(lines) < 2 {
				t.Errorf("%s %s: cell text %q", page, c.ID, c.Text)
				continue
			}
			v, err := strconv.ParseFloat(strings.Replace(lines[1], "−", "-", 1), 64)
			if err != nil {
				t.Errorf("%s %s: difference %q: %v", page, c.ID, lines[1], err)
				continue
			}
			// The baseline person's transcript shows no difference.
			if c.ID != design.Baseline.Anchor() && c.Shown != c.BG {
				t.Errorf("%s %s: the transcript colours the difference %s, the grid %s", page, c.ID, c.Shown, c.BG)
			}
			// A shown difference on a cut point may come from either side.
			onCut := false
			for _, cut := range chart.LogitCuts {
				onCut = onCut || math.Abs(math.Abs(v)-cut) < 0.006
			}
			if want := got.Classes[chart.Bucket(v)]; !onCut && c.BG != want {
				t.Errorf("%s %s: difference %s has background %s, want b%d's %s", page, c.ID, lines[1], c.BG, chart.Bucket(v), want)
			}
			checked++
		}
		if checked < 100 {
			t.Errorf("%s: only %d cells checked", page, checked)
		}
	}
	tb.checkClean(id + " scenario pages")
}
