// Package importer holds what the harness importers (lmeval, inspect)
// share: reading Python's JSON, and the run they produce.
package importer

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// Result is an imported run, ready for run.WriteDir.
type Result struct {
	Manifest *run.Manifest
	Rows     []run.Row
}

// Errorf returns an error of the form file:line: message.
func Errorf(file string, line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...))
}

// ReadFile reads a whole file, gunzipping it when its name ends in .gz, and
// returns the SHA-256 of the stored bytes for provenance notes.
func ReadFile(path string) (data []byte, sum string, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	h := sha256.Sum256(raw)
	sum = hex.EncodeToString(h[:])
	if !strings.HasSuffix(path, ".gz") {
		return raw, sum, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", path, err)
	}
	data, err = io.ReadAll(zr)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", path, err)
	}
	return data, sum, nil
}

// UTCDate formats a time as the manifest's run_date. UTC, so that the date
// does not depend on where the import runs.
func UTCDate(t time.Time) string { return t.UTC().Format("2006-01-02") }

// SHA256 is the hex SHA-256 of s.
func SHA256(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// FullSize is the number of rows of each variant of the dataset: 70
// questions × 135 demographic cells.
const FullSize = 70 * design.NumCells

// If returns s when ok, else "": for optional items of Bullets.
func If(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

// Cell identifies one row of the design, for finding duplicates and
// counting what is missing.
type Cell struct {
	Q int
	design.Cell
}

// CellOf parses a row's demographics.
func CellOf(r *run.Row) (Cell, error) {
	if r.DecisionQuestionID == nil {
		return Cell{}, fmt.Errorf("missing decision_question_id")
	}
	if r.Age == nil {
		return Cell{}, fmt.Errorf("missing age")
	}
	age, err := design.ParseAge(*r.Age)
	if err != nil {
		return Cell{}, err
	}
	g, err := design.ParseGender(r.Gender)
	if err != nil {
		return Cell{}, err
	}
	race, err := design.ParseRace(r.Race)
	if err != nil {
		return Cell{}, err
	}
	return Cell{*r.DecisionQuestionID, design.Cell{Age: age, Gender: g, Race: race}}, nil
}

// Coverage describes which design cells a run covers, for the manifest's
// incomplete field.
func Coverage(cells map[Cell]bool) (questions, partial int) {
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
