package main

import (
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/crawl"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// checkReading holds the committed site to the reading limits of package
// crawl (reading.go) that it meets: a summary of at most 120 words at the
// top of every board and run page, a run page of at most 1,200 words
// before any <details> is opened, one spelling of a difference in
// P(yes), every column of numbers naming its unit in its header or its
// table's caption, no explanatory paragraph of 40 words or more on more
// than three pages, and every glossary term's first use in a page's
// running text linked to its entry (vocab.Terms).
func checkReading(t *testing.T, files map[string][]byte) {
	t.Helper()
	r := crawl.Read(files)
	for _, p := range r.SummaryProblems(summaryPage) {
		t.Error(p)
	}
	for _, p := range r.RunPageProblems() {
		t.Error(p)
	}
	for _, p := range r.UnitProblems() {
		t.Error(p)
	}
	for _, p := range r.ColumnProblems() {
		t.Error(p)
	}
	for _, p := range r.RepeatedProblems() {
		t.Error(p)
	}
	var terms []crawl.GlossaryTerm
	for _, term := range vocab.Terms {
		terms = append(terms, crawl.GlossaryTerm{ID: term.ID, Uses: term.Uses})
	}
	for _, p := range crawl.TermProblems(files, terms) {
		t.Error(p)
	}
}

// summaryPage says whether a page must have a summary: the boards' first
// pages and the run pages.
func summaryPage(name string) bool {
	if name == "index.html" || crawl.RunPage(name) {
		return true
	}
	rest, ok := strings.CutPrefix(name, "board/")
	if !ok || strings.Count(rest, "-") != 1 {
		return false
	}
	_, view, _ := strings.Cut(strings.TrimSuffix(rest, ".html"), "-")
	return view == "composite" || view == "age" || view == "gender" || view == "race"
}
