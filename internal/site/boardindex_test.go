package site

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/paths"
)

// checkBoardIndex holds a site's board indexes (boards/boardindex.go) to
// its pages: every run of a variant's board pages is in the index once,
// and for each view the page the index names holds the run's row, with
// the score and interval the index gives; with a neighbours table, so
// does the pairwise page it names; an intervention run's alias is a run
// of the index, and a run not ranked is listed, with its anchor, on the
// board's first page. It returns how many runs it checked.
func checkBoardIndex(t *testing.T, files map[string][]byte) int {
	t.Helper()
	checked := 0
	for _, variant := range board.Variants {
		js := files[paths.BoardIndexPath(variant)]
		if js == nil {
			continue
		}
		body, ok := bytes.CutPrefix(js, []byte("window.BOARD_INDEX="))
		body, ok2 := bytes.CutSuffix(body, []byte(";\n"))
		if !ok || !ok2 {
			t.Fatalf("%s is not a script assigning BOARD_INDEX", paths.BoardIndexPath(variant))
		}
		var idx boards.BoardIndex
		if err := json.Unmarshal(body, &idx); err != nil {
			t.Fatalf("%s: %v", paths.BoardIndexPath(variant), err)
		}
		listed, inIndex := 0, map[string]bool{}
		for _, p := range idx.Views[0].Board {
			listed += bytes.Count(files[p], []byte("<tbody data-provider"))
		}
		for _, tab := range idx.Tables {
			for _, r := range tab.Runs {
				if inIndex[r.ID] {
					t.Errorf("%s lists %s twice", paths.BoardIndexPath(variant), r.ID)
				}
				inIndex[r.ID] = true
				checked++
				for vi, view := range idx.Views {
					place := int(r.Views[vi][0].(float64))
					page := files[view.Board[place/idx.Per]]
					row := regexp.MustCompile(`(?s)<tr id=` + regexp.QuoteMeta(r.ID) + `>.*?(?:<tbody|</table>)`).Find(page)
					if row == nil {
						t.Errorf("%s puts %s's row of the %s board on %s, which does not hold it", paths.BoardIndexPath(variant), r.ID, view.Name, view.Board[place/idx.Per])
						continue
					}
					cell := `<span class=num>` + r.Views[vi][4].(string) + `</span><span class=ci>` + r.Views[vi][5].(string) + `</span>`
					if !bytes.Contains(row, []byte(cell)) {
						t.Errorf("%s: %s's row on %s does not show the index's %s score %s", paths.BoardIndexPath(variant), r.ID, view.Board[place/idx.Per], view.Name, cell)
					}
					if tab.Neighbours {
						if p := view.Pairwise[place/idx.Per]; !bytes.Contains(files[p], []byte("<tr id="+r.ID+">")) {
							t.Errorf("%s puts %s's neighbours row of the %s view on %s, which does not hold it", paths.BoardIndexPath(variant), r.ID, view.Name, p)
						}
					}
				}
			}
		}
		if listed != len(inIndex) || listed == 0 {
			t.Errorf("%s lists %d runs, its board's pages %d", paths.BoardIndexPath(variant), len(inIndex), listed)
		}
		for alias, id := range idx.Alias {
			if !inIndex[id] {
				t.Errorf("%s: %s stands under %s, which it does not list", paths.BoardIndexPath(variant), alias, id)
			}
		}
		for _, id := range idx.Unranked {
			if !bytes.Contains(files[idx.Views[0].Board[0]], []byte("<li id="+id+">")) {
				t.Errorf("%s: %s is not ranked, and %s has no item for it", paths.BoardIndexPath(variant), id, idx.Views[0].Board[0])
			}
		}
	}
	return checked
}
