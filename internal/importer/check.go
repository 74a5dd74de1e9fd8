package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

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

// Check validates every row as the loader will (run.Manifest.ToCell), so
// that an import that succeeds always builds. Rows the loader cannot score
// (run.ErrUnscorable: P(yes) or P(no) exactly zero) are left out and their
// labels returned, for the manifest to say so; any other problem is an
// error at the row's position.
func Check(m *run.Manifest, rows []run.Row, pos func(i int) Position) (kept []run.Row, dropped []string, err error) {
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

// List joins labels for a note, naming the first few.
func List(labels []string, n int) string {
	if len(labels) <= n {
		return strings.Join(labels, ", ")
	}
	return strings.Join(labels[:n], ", ") + fmt.Sprintf(" and %d more", len(labels)-n)
}
