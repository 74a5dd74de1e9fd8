// Package importer holds what the harness importers (lmeval, inspect)
// share: reading Python's JSON, and the run they produce.
package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// Result is an imported run, ready for run.WriteDirLeftOut: its manifest,
// rows, and the samples the importer left out (run.LeftOutFile).
type Result struct {
	Manifest *run.Manifest
	Rows     []run.Row
	LeftOut  []run.LeftOut
	// Warnings are for whoever imports: what the run is that they may not
	// have meant (cmd/import prints each on stderr).
	Warnings []string
}

// UTCDate formats a time as the manifest's run_date. UTC, so that the date
// does not depend on where the import runs.
func UTCDate(t time.Time) string { return t.UTC().Format("2006-01-02") }

// SHA256 is the hex SHA-256 of s.
func SHA256(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// If returns s when ok, else "": for optional items of Bullets.
func If(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

// coverage counts the questions a run's cells cover and how many of them
// lack some of their cells, for the manifest's incomplete field.
func coverage(cells map[design.Prompt]bool) (questions, partial int) {
	perQ := map[int]int{}
	for c := range cells {
		perQ[c.Q]++
	}
	for _, n := range perQ {
		if n < design.NumCells {
			partial++
		}
	}
	return len(perQ), partial
}

// Bullets formats notes as a Markdown list, skipping empty items.
func Bullets(items ...string) string {
	var b strings.Builder
	for _, it := range items {
		if it != "" {
			b.WriteString("- " + it + "\n")
		}
	}
	return b.String()
}

// Code quotes s as Markdown inline code.
func Code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// Block quotes s as a fenced Markdown code block.
func Block(s string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + "text\n" + strings.TrimRight(s, "\n") + "\n" + fence + "\n"
}

// SortedKeys returns the keys of m in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// MaxQuestionID bounds decision_question_id (run.MaxQuestionID): the dataset's ids run from 0
// to 95; anything past this is not a question id but a broken number.
const MaxQuestionID = run.MaxQuestionID

// QuestionID reads a decision_question_id: a JSON number, or a numeric
// string (CSV-backed datasets), that is a whole number from 0 to
// MaxQuestionID. 1e40 is an error, not a wrapped integer.
func QuestionID(raw json.RawMessage) (int, error) {
	f, err := numberLiteral(raw)
	if err != nil || f != math.Trunc(f) || f < 0 || f > MaxQuestionID {
		return 0, fmt.Errorf("decision_question_id %s is not a whole number from 0 to %d", Shorten(string(raw), 40), MaxQuestionID)
	}
	return int(f), nil
}

// Age reads a row's age: a JSON number or a numeric string (the dataset
// writes 20.0); design.ParseAge then checks it is one of the design's.
func Age(raw json.RawMessage) (float64, error) {
	f, err := numberLiteral(raw)
	if err != nil {
		return 0, fmt.Errorf("age %s is not a number", Shorten(string(raw), 40))
	}
	return f, nil
}

func numberLiteral(raw json.RawMessage) (float64, error) {
	s := string(raw)
	if len(raw) > 0 && raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, err
		}
	}
	// ParseFloat refuses out-of-range literals (1e400) and, here, the
	// non-finite spellings are not numbers a row may hold.
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("not a number")
	}
	return f, nil
}

// Shorten cuts s to n runes for a message.
func Shorten(s string, n int) string { return run.Shorten(s, n) }
