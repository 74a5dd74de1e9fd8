package importer

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/run"
)

// ScoredLineBytes is the loader's limit on one line of a scored file; an
// imported row must fit it.
const ScoredLineBytes = input.MaxLineBytes

// Position says where a row came from, for errors: a file (or a .eval
// member), the line, and a label such as "sample 12 epoch 1"; ID and
// Epoch are the harness's id of the sample or document, for the list of
// what was left out (run.LeftOut).
type Position struct {
	Path  string
	Line  int
	Label string
	ID    string
	Epoch int
}

// Errorf returns a fileerr error at the position.
func (p Position) Errorf(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if p.Label != "" {
		msg = p.Label + ": " + msg
	}
	return fileerr.New(p.Path, p.Line, "%s", msg)
}

// LeftOutOf is the run.LeftOut entry of a sample at pos, with the cell of
// row when it has one (nil: not known).
func LeftOutOf(pos Position, row *run.Row, reason, detail string) run.LeftOut {
	l := run.LeftOut{ID: pos.ID, Epoch: pos.Epoch, Reason: reason, Detail: Detail(detail)}
	if l.ID == "" {
		l.ID = pos.Label
	}
	if row != nil {
		if _, err := run.ParsePrompt(row); err == nil {
			q, age := *row.DecisionQuestionID, *row.Age
			l.DecisionQuestionID, l.Age, l.Gender, l.Race = &q, &age, row.Gender, row.Race
		}
	}
	return l
}

// Detail is an error message as run.LeftOut keeps it: its first line,
// within run.MaxLeftOutDetailRunes.
func Detail(msg string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return Shorten(strings.TrimSpace(first), run.MaxLeftOutDetailRunes-1)
}

// check validates every row as the loader will (run.Manifest.ToCell), so
// that an import that succeeds always builds. Rows the loader cannot score
// (run.ErrUnscorable: P(yes) or P(no) exactly zero) are left out and
// returned as run.LeftOut entries; any other problem is an error at the
// row's position.
func check(m *run.Manifest, rows []run.Row, pos func(i int) Position) (kept []run.Row, dropped []run.LeftOut, err error) {
	kept = rows[:0:0]
	for i := range rows {
		if _, err := m.ToCell(i+1, &rows[i]); err != nil {
			if errors.Is(err, run.ErrUnscorable) {
				dropped = append(dropped, LeftOutOf(pos(i), &rows[i], run.LeftZero, err.Error()))
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
		var why []string
		for _, d := range dropped {
			why = append(why, d.ID+" ("+d.Detail+")")
		}
		return nil, nil, pos(0).Errorf("no row can be scored: %s", List(why, 5))
	}
	return kept, dropped, nil
}

// Incomplete is what an importer tells Finish for the manifest's
// incomplete field, besides what Finish finds in the rows.
type Incomplete struct {
	// Before and After are the importer's own reasons (each non-empty),
	// listed before and after the ones about the rows.
	Before, After []string
	// Left are the samples the importer left out (errors, limits, …), in
	// the order it read them; Finish adds the rows the build cannot score.
	// The note counts them by reason and names the first few; the run's
	// run.LeftOutFile lists them all.
	Left []run.LeftOut
	// Unit is what the notes call a row: "samples" (Inspect), "documents"
	// (lm-eval); Name what they call one before its id: "sample",
	// "doc_id".
	Unit, Name string
	// Want is the number of rows a complete run has (design.NumPrompts unless the
	// harness says otherwise), and Count the reason given when fewer are
	// kept: a format of the rows kept and Want, such as "%d of %d documents".
	Want  int
	Count string
}

// leftPhrases say, for each reason, what happened to the samples left out
// for it ("%d samples ended in an error"), in the note's order.
var leftPhrases = []struct{ reason, phrase string }{
	{run.LeftError, "%d %s ended in an error"},
	{run.LeftLimit, "%d %s hit a limit before answering"},
	{run.LeftNotRun, "%d %s were never run"},
	{run.LeftNoLogprobs, "%d %s have no log-probabilities"},
	{run.LeftZero, "%d %s have P(yes) or P(no) exactly zero (no logit)"},
}

// NoteExamples is how many of the samples left out for a reason the
// manifest's incomplete field names (fewer when the note would pass its
// limit, input.MaxDescriptionRunes).
const NoteExamples = 3

// Finish is the importers' shared last step. It checks the rows as the
// build will (check: rows the build cannot score are left out, any other
// problem is an error at pos(i)), sets the manifest's incomplete field and
// returns the run with what was left out. The field lists in.Before, the
// samples left out by reason, what is true of the rows kept (fewer rows
// than in.Want, questions that lack some of their design.NumCells cells),
// then in.After, joined with "; " (empty when the run is complete), within
// input.MaxDescriptionRunes.
func Finish(m *run.Manifest, rows []run.Row, pos func(i int) Position, in Incomplete) (*Result, error) {
	kept, dropped, err := check(m, rows, pos)
	if err != nil {
		return nil, err
	}
	left := append(slices.Clip(in.Left), dropped...)
	sortLeftOut(left)
	cells := map[design.Prompt]bool{}
	for i := range kept {
		c, _ := run.ParsePrompt(&kept[i])
		cells[c] = true
	}
	var after []string
	if len(kept) < in.Want {
		after = append(after, fmt.Sprintf(in.Count, len(kept), in.Want))
	}
	if q, partial := coverage(cells); partial > 0 {
		after = append(after, fmt.Sprintf("%d of the %d questions present lack some of their %d demographic cells", partial, q, design.NumCells))
	}
	after = append(after, in.After...)
	note := func(examples int) string {
		why := append([]string(nil), in.Before...)
		why = append(why, leftNotes(left, in, examples)...)
		return strings.Join(append(why, after...), "; ")
	}
	m.Incomplete = note(NoteExamples)
	for n := NoteExamples - 1; n >= 0 && utf8.RuneCountInString(m.Incomplete) > input.MaxDescriptionRunes; n-- {
		m.Incomplete = note(n)
	}
	m.Incomplete = Shorten(m.Incomplete, input.MaxDescriptionRunes-1)
	// No local path reaches the manifest or the list (paths.go): the
	// importers reduce those of the notes' fields, the messages here.
	m.Incomplete = ScrubPaths(m.Incomplete)
	m.Dataset.Name, m.Dataset.Revision = ScrubPaths(m.Dataset.Name), ScrubPaths(m.Dataset.Revision)
	for i := range left {
		left[i].Detail = ScrubPaths(left[i].Detail)
	}
	return &Result{Manifest: m, Rows: kept, LeftOut: left}, nil
}

// sortLeftOut orders what was left out by the design: question, cell,
// epoch; then the samples whose cell is not known, by id and epoch.
func sortLeftOut(left []run.LeftOut) {
	type key struct {
		known bool
		q, i  int
	}
	keyOf := func(l *run.LeftOut) key {
		if l.DecisionQuestionID == nil {
			return key{}
		}
		c, err := run.ParsePrompt(&run.Row{DecisionQuestionID: l.DecisionQuestionID, Age: l.Age, Gender: l.Gender, Race: l.Race})
		if err != nil {
			return key{}
		}
		return key{true, c.Q, c.Index()}
	}
	slices.SortStableFunc(left, func(a, b run.LeftOut) int {
		ka, kb := keyOf(&a), keyOf(&b)
		switch {
		case ka.known != kb.known:
			if ka.known {
				return -1
			}
			return 1
		case ka.q != kb.q:
			return cmp.Compare(ka.q, kb.q)
		case ka.i != kb.i:
			return cmp.Compare(ka.i, kb.i)
		case a.ID != b.ID:
			return naturalCompare(a.ID, b.ID)
		}
		return cmp.Compare(a.Epoch, b.Epoch)
	})
}

// naturalCompare orders ids with numbers by value: "2" before "10".
func naturalCompare(a, b string) int {
	if x, err := strconv.Atoi(a); err == nil {
		if y, err := strconv.Atoi(b); err == nil {
			return cmp.Compare(x, y)
		}
	}
	return strings.Compare(a, b)
}

// leftNotes are the clauses of the note on what was left out: for each
// reason, the count and the first examples with their details.
func leftNotes(left []run.LeftOut, in Incomplete, examples int) []string {
	var out []string
	for _, p := range leftPhrases {
		var named []string
		n := 0
		for _, l := range left {
			if l.Reason != p.reason {
				continue
			}
			n++
			if len(named) < examples {
				label := strings.TrimSpace(in.Name + " " + l.ID)
				if l.Epoch > 0 {
					label += fmt.Sprintf(" epoch %d", l.Epoch)
				}
				if l.Detail != "" {
					label += " (" + Shorten(l.Detail, 60) + ")"
				}
				named = append(named, label)
			}
		}
		if n == 0 {
			continue
		}
		s := fmt.Sprintf(p.phrase, n, in.Unit) + " and were left out (" + run.LeftOutFile + " lists them"
		switch {
		case len(named) == 0:
		case n <= len(named):
			s += ": " + strings.Join(named, ", ")
		default:
			s += "; the first: " + strings.Join(named, ", ")
		}
		out = append(out, s+")")
	}
	return out
}

// List joins labels for a note, naming the first few.
func List(labels []string, n int) string {
	if len(labels) <= n {
		return strings.Join(labels, ", ")
	}
	return strings.Join(labels[:n], ", ") + fmt.Sprintf(" and %d more", len(labels)-n)
}
