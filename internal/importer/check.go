package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/run"
)

// ScoredLineBytes is the loader's limit on one line of a scored file; an
// imported row must fit it.
const ScoredLineBytes = input.MaxLineBytes

// Position says where a row came from, for errors: a file (or a .eval
// member), the line, and a label such as "sample 12 epoch 1".
type Position struct {
	Path  string
	Line  int
	Label string
}

// Errorf returns a fileerr error at the position.
func (p Position) Errorf(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if p.Label != "" {
		msg = p.Label + ": " + msg
	}
	return fileerr.New(p.Path, p.Line, "%s", msg)
}

// check validates every row as the loader will (run.Manifest.ToCell), so
// that an import that succeeds always builds. Rows the loader cannot score
// (run.ErrUnscorable: P(yes) or P(no) exactly zero) are left out and their
// labels returned, for the manifest to say so; any other problem is an
// error at the row's position.
func check(m *run.Manifest, rows []run.Row, pos func(i int) Position) (kept []run.Row, dropped []string, err error) {
	kept = rows[:0:0]
	for i := range rows {
		if _, err := m.ToCell(i+1, &rows[i]); err != nil {
			if errors.Is(err, run.ErrUnscorable) {
				p := pos(i)
				dropped = append(dropped, p.Label+" ("+err.Error()+")")
				continue
			}
			return nil, nil, pos(i).Errorf("%v", err)
		}
		b, err := json.Marshal(&rows[i])
		if err != nil {
			return nil, nil, pos(i).Errorf("%v", err)
		}
		if len(b) > ScoredLineBytes {
			return nil, nil, pos(i).Errorf("the row would be %s long in the scored file, over the build's limit of %s per line", Size(int64(len(b))), Size(ScoredLineBytes))
		}
		kept = append(kept, rows[i])
	}
	if len(kept) == 0 {
		return nil, nil, pos(0).Errorf("no row can be scored: %s", strings.Join(dropped, "; "))
	}
	return kept, dropped, nil
}

// Incomplete is what an importer tells Finish for the manifest's
// incomplete field, besides what Finish finds in the rows.
type Incomplete struct {
	// Before and After are the importer's own reasons (each non-empty),
	// listed before and after the ones about the rows.
	Before, After []string
	// Unit is what the notes call a row: "samples" (Inspect), "documents"
	// (lm-eval).
	Unit string
	// Want is the number of rows a complete run has (design.NumPrompts unless the
	// harness says otherwise), and Count the reason given when fewer are
	// kept: a format of the rows kept and Want, such as "%d of %d documents".
	Want  int
	Count string
}

// Finish is the importers' shared last step. It checks the rows as the
// build will (check: rows the build cannot score are left out, any other
// problem is an error at pos(i)), sets the manifest's incomplete field and
// returns the run. The field lists in.Before, then what is true of the rows
// kept (rows left out as unscorable, fewer rows than in.Want, questions
// that lack some of their design.NumCells cells), then in.After, joined
// with "; " (empty when the run is complete).
func Finish(m *run.Manifest, rows []run.Row, pos func(i int) Position, in Incomplete) (*Result, error) {
	kept, dropped, err := check(m, rows, pos)
	if err != nil {
		return nil, err
	}
	cells := map[design.Prompt]bool{}
	for i := range kept {
		c, _ := run.ParsePrompt(&kept[i])
		cells[c] = true
	}
	why := append([]string(nil), in.Before...)
	if len(dropped) > 0 {
		why = append(why, fmt.Sprintf("%d %s have P(yes) or P(no) exactly zero (no logit) and were left out: %s", len(dropped), in.Unit, List(dropped, 10)))
	}
	if len(kept) < in.Want {
		why = append(why, fmt.Sprintf(in.Count, len(kept), in.Want))
	}
	if q, partial := coverage(cells); partial > 0 {
		why = append(why, fmt.Sprintf("%d of the %d questions present lack some of their %d demographic cells", partial, q, design.NumCells))
	}
	m.Incomplete = strings.Join(append(why, in.After...), "; ")
	return &Result{Manifest: m, Rows: kept}, nil
}

// List joins labels for a note, naming the first few.
func List(labels []string, n int) string {
	if len(labels) <= n {
		return strings.Join(labels, ", ")
	}
	return strings.Join(labels[:n], ", ") + fmt.Sprintf(" and %d more", len(labels)-n)
}
