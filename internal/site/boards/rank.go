package boards

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// Rank is the boards phase: the runs ranked on their boards, each run's
// place there (per places to a listing page), the intervention runs
// against their model's default prompt and each model's two variants
// compared, and the previous release's ranks (prev, inside the content
// folder named label; nil for none), in one value, complete when returned.
// memos keeps the rank sets' pairwise work between builds (nil for none;
// board.BuildWith).
func Rank(entries []*board.Entry, per layout.Paging, label string, prev *content.ReleaseFile, memos board.Memos) (*stage.Ranked, error) {
	bs, err := board.BuildWith(entries, memos)
	if err != nil {
		return nil, err
	}
	pairs := InterventionPairs(bs)
	variants := VariantPairs(entries)
	rk := &stage.Ranked{Boards: bs, Places: RowPlaces(bs), Per: per, Pairs: pairs, Adjusted: AdjustedByPair(pairs),
		Variants: variants, VariantDiffs: VariantDiffs(entries, variants)}
	if prev != nil {
		if rk.Previous, err = PreviousRanksOf(label, prev); err != nil {
			return nil, fmt.Errorf("previous release: %w", err)
		}
	}
	return rk, nil
}
