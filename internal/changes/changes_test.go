package changes

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/internal/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// spec is a run of a test build: its composite and age views (estimate,
// and a ±0.05 interval), its rank in both, and what a data file holds.
type spec struct {
	id, model, modelID, board, intervention string
	comp, age                               float64
	rank, ageRank                           int
	unranked                                string
	scoredSHA                               string
	mass                                    float64
	rows, unparsed                          int
	claims                                  []sitedata.Claim
}

func (s spec) record() sitedata.Run {
	variant, scoring, _ := strings.Cut(s.board, "-")
	r := sitedata.Run{ID: s.id, Variant: variant, Intervention: s.intervention, Scoring: scoring, Synthetic: true,
		Model: run.Model{Name: s.model, ID: s.modelID}, Scored: true, Complete: s.rows == 9450,
		Fit:     &sitedata.Fit{Method: "closed-form", Converged: true},
		Views:   map[string]sitedata.Estimate{},
		Ranking: sitedata.Ranking{Board: s.board, Ranked: s.rank > 0, Unranked: s.unranked},
		Quality: sitedata.Quality{Rows: s.rows, Questions: 70},
		Files:   []sitedata.File{{Path: s.id + "/manifest.yaml", SHA256: strings.Repeat("a", 64), Size: 700}, {Path: s.id + "/scored.jsonl.gz", SHA256: s.scoredSHA, Size: 428_000}},
		Claims:  s.claims,
	}
	if s.intervention == "" {
		r.Intervention = "default"
	}
	for v, est := range map[string]float64{"composite": s.comp, "age": s.age} {
		r.Views[v] = sitedata.Estimate{Estimate: sitedata.Num(est), CI95: &[2]sitedata.Num{sitedata.Num(est - 0.05), sitedata.Num(est + 0.05)}}
	}
	if s.rank > 0 {
		r.Rank = map[string]int{"composite": s.rank, "age": s.ageRank}
		r.Tied = map[string]bool{"composite": false, "age": false}
		r.RankSet = map[string][2]int{"composite": {1, 2}, "age": {1, 2}}
	}
	if run.Scoring(scoring) == run.Decision {
		r.Fit.Method = "firth"
		r.Quality.Decisions, r.Quality.Unparsed = 5*s.rows, s.unparsed
	} else {
		r.Quality.MeanMass, r.Quality.MinMass = sitedata.NumPtr(s.mass), sitedata.NumPtr(s.mass-0.002)
	}
	return r
}

// build makes a site's data files from specs, and reads them back.
func build(t *testing.T, label string, viewsVersion int, specs ...spec) *Site {
	t.Helper()
	files := map[string][]byte{}
	lb := sitedata.Leaderboard{Title: "Test", ViewsVersion: viewsVersion, Release: sitedata.Release{Label: label, Date: "2026-01-0" + label[1:]}}
	for _, s := range specs {
		r := s.record()
		data, err := sitedata.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		files[sitedata.RunFile(s.id)] = data
		lb.Runs = append(lb.Runs, r.Summary())
	}
	data, err := sitedata.Marshal(lb)
	if err != nil {
		t.Fatal(err)
	}
	files[sitedata.LeaderboardJSON] = data
	site, err := ReadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	return site
}

const (
	sha1 = "1111111111111111111111111111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222222222222222222222222222"
)

// The old build: five ranked runs on the explicit log-probability board,
// an intervention run under one of them, a decision run alone on its board.
var oldSpecs = []spec{
	{id: "a", model: "Model A", modelID: "m/a", board: "explicit-logprob", comp: 0.10, age: 0.30, rank: 1, ageRank: 3, scoredSHA: sha1, mass: 0.995, rows: 9450},
	{id: "b", model: "Model B", modelID: "m/b", board: "explicit-logprob", comp: 0.20, age: 0.20, rank: 2, ageRank: 2, scoredSHA: sha1, mass: 0.995, rows: 9450},
	{id: "c", model: "Model C", modelID: "m/c", board: "explicit-logprob", comp: 0.30, age: 0.10, rank: 3, ageRank: 1, scoredSHA: sha1, mass: 0.995, rows: 9450},
	{id: "d", model: "Model D", modelID: "m/d", board: "explicit-logprob", comp: 0.40, age: 0.40, rank: 4, ageRank: 4, scoredSHA: sha1, mass: 0.995, rows: 9450},
	{id: "c-illegal", model: "Model C", modelID: "m/c", board: "explicit-logprob", intervention: "illegal", comp: 0.504, age: 0.5,
		unranked: "a prompt intervention (illegal), not the paper's default prompt", scoredSHA: sha1, mass: 0.995, rows: 9450},
	{id: "f", model: "Model F", modelID: "m/f", board: "explicit-logprob", comp: 0.50, age: 0.50, rank: 5, ageRank: 5, scoredSHA: sha1, mass: 0.995, rows: 9450},
	{id: "g", model: "Model G", modelID: "m/g", board: "explicit-decision", comp: 0.30, age: 0.30,
		unranked: "the only ranked run of its board: nothing to rank it against", scoredSHA: sha1, rows: 9450},
}

// The new build: d removed; n added between a and b; c's score fell
// below b's (beyond its interval) after a re-run (new scored file); a moved
// less than a displayed digit; the intervention run moved 0.012, shown as
// 0.50 → 0.52; f replaced by a newer run of its model; a decision run
// that fails the rules added; and every rank move has a known cause.
func newSpecs() []spec {
	return []spec{
		{id: "a", model: "Model A", modelID: "m/a", board: "explicit-logprob", comp: 0.1049, age: 0.30, rank: 1, ageRank: 4, scoredSHA: sha1, mass: 0.995, rows: 9450},
		{id: "n", model: "Evil <img src=x> [link](https://evil.example) | cell \x1b[31m @team $x$ _em_", modelID: "m/n", board: "explicit-logprob",
			comp: 0.15, age: 0.05, rank: 2, ageRank: 1, scoredSHA: sha1, mass: 0.9951, rows: 9400,
			claims: []sitedata.Claim{
				{Metric: "asian_bias", Claimed: 0.27, Recomputed: sitedata.NumPtr(0.1701), Verdict: "disagrees"},
				{Metric: "female_bias", Claimed: -0.1358, Recomputed: sitedata.NumPtr(-0.13577), Verdict: "agrees"},
				{Metric: "mystery", Claimed: 1, Verdict: "not recomputed", Why: "not a metric this site computes"},
			}},
		{id: "b", model: "Model B", modelID: "m/b", board: "explicit-logprob", comp: 0.20, age: 0.20, rank: 4, ageRank: 3, scoredSHA: sha1, mass: 0.995, rows: 9450},
		{id: "c", model: "Model C", modelID: "m/c", board: "explicit-logprob", comp: 0.18, age: 0.10, rank: 3, ageRank: 2, scoredSHA: sha2, mass: 0.995, rows: 9450},
		{id: "c-illegal", model: "Model C", modelID: "m/c", board: "explicit-logprob", intervention: "illegal", comp: 0.516, age: 0.5,
			unranked: "a prompt intervention (illegal), not the paper's default prompt", scoredSHA: sha1, mass: 0.995, rows: 9450},
		{id: "f", model: "Model F", modelID: "m/f", board: "explicit-logprob", comp: 0.50, age: 0.50,
			unranked: "another run of the same model is ranked on this board: f2 (the most recent)", scoredSHA: sha1, mass: 0.995, rows: 9450},
		{id: "f2", model: "Model F", modelID: "m/f", board: "explicit-logprob", comp: 0.60, age: 0.60, rank: 5, ageRank: 5, scoredSHA: sha1, mass: 0.995, rows: 9450},
		{id: "g", model: "Model G", modelID: "m/g", board: "explicit-decision", comp: 0.30, age: 0.30,
			unranked: "the only ranked run of its board: nothing to rank it against", scoredSHA: sha1, rows: 9450},
		{id: "h", model: "Model H", modelID: "m/h", board: "explicit-decision", comp: 0.20, age: 0.20,
			unranked: "only 97.7% of the sampled answers are a yes or a no (940 of 40000 unparsed), below 99%", scoredSHA: sha1, rows: 8000, unparsed: 940},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", p, diff)
	}
}

func report(t *testing.T) *Report {
	r := Compare(build(t, "r1", 2, oldSpecs...), build(t, "r2", 2, newSpecs()...))
	r.Files = &verify.Report{Same: 1200, Changed: []string{"index.html", "runs/c/index.html"}, Added: []string{"runs/n/index.html"}, Removed: []string{"runs/d/index.html"}}
	return r
}

// TestReportGolden renders one report as text and as Markdown; refresh
// with go test -update after reading the diff.
func TestReportGolden(t *testing.T) {
	goldens(t, report(t), "report")
}

// goldens compares both outputs of r with testdata/name.txt and name.md.
func goldens(t *testing.T, r *Report, name string) {
	t.Helper()
	var text, md bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	golden(t, name+".txt", text.Bytes())
	golden(t, name+".md", md.Bytes())
}

// TestMoves checks the report's content, independently of its layout.
func TestMoves(t *testing.T) {
	r := report(t)
	ids := func(rs []Run) (out []string) {
		for _, x := range rs {
			out = append(out, x.ID)
		}
		return out
	}
	if got := strings.Join(ids(r.Added), " "); got != "f2 h n" {
		t.Errorf("added %q", got)
	}
	if got := strings.Join(ids(r.Removed), " "); got != "d" {
		t.Errorf("removed %q", got)
	}
	if len(r.Changed) != 1 || r.Changed[0].ID != "c" || strings.Join(r.Changed[0].Files, ",") != "c/scored.jsonl.gz" {
		t.Errorf("changed %+v", r.Changed)
	}
	find := func(view, id string) *Move {
		for _, b := range r.Boards {
			for i, m := range b.Moves {
				if m.View == view && m.ID == id {
					return &b.Moves[i]
				}
			}
		}
		return nil
	}
	for _, tc := range []struct {
		view, id, move, cause, old, new, change string
		beyond                                  bool
	}{
		// Moved down only because n arrived above it.
		{"composite", "b", "down 2", "score changes (down 1) and runs added or removed (1 added above it)", "0.20", "0.20", "0.00", false},
		{"composite", "c", "", "", "0.30", "0.18", "−0.12", true},
		{"composite", "n", "added", "", "–", "0.15", "–", false},
		{"composite", "d", "removed", "", "0.40", "–", "–", false},
		{"composite", "f", "no longer ranked", "", "0.50", "0.50", "0.00", false},
		// 0.504 → 0.516: the displayed values differ by 0.02, and so does
		// the change shown (not 0.01, the rounded true difference).
		{"composite", "c-illegal", "", "", "0.50", "0.52", "+0.02", false},
		{"age", "b", "down 1", "only runs added or removed (1 added above it)", "0.20", "0.20", "0.00", false},
		{"age", "c", "down 1", "only runs added or removed (1 added above it)", "0.10", "0.10", "0.00", false},
		{"age", "a", "down 1", "only runs added or removed (1 added above it)", "0.30", "0.30", "0.00", false},
	} {
		m := find(tc.view, tc.id)
		if m == nil {
			t.Errorf("%s %s: not listed", tc.view, tc.id)
			continue
		}
		got := []string{m.Move, m.Cause, m.Old, m.New, m.Change, strconv.FormatBool(m.Beyond)}
		want := []string{tc.move, tc.cause, tc.old, tc.new, tc.change, strconv.FormatBool(tc.beyond)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tc.view, tc.id, diff)
		}
	}
	// a moved by 0.0049: less than a displayed digit, and no rank moved.
	if m := find("composite", "a"); m != nil {
		t.Errorf("composite a listed: %+v", m)
	}
	// Every change adds up on screen: then + change = now.
	for _, b := range r.Boards {
		for _, m := range b.Moves {
			if m.Change == none {
				continue
			}
			o, _ := strconv.ParseFloat(m.Old, 64)
			n, _ := strconv.ParseFloat(m.New, 64)
			c, _ := strconv.ParseFloat(strings.Replace(m.Change, "−", "-", 1), 64)
			if d := o + c - n; d > 1e-9 || d < -1e-9 {
				t.Errorf("%s %s %s: %s + %s ≠ %s", b.ID, m.View, m.ID, m.Old, m.Change, m.New)
			}
		}
	}
	// Checks: of the runs added and of the changed one.
	var checked []string
	status := map[string]map[string]Status{}
	for _, c := range r.Checks {
		checked = append(checked, c.ID)
		status[c.ID] = map[string]Status{}
		for _, k := range c.Items {
			status[c.ID][k.Name] = k.Status
		}
	}
	if got := strings.Join(checked, " "); got != "c f2 h n" {
		t.Errorf("checked %q", got)
	}
	for _, tc := range []struct {
		id, check string
		want      Status
	}{
		{"n", "Claimed vs recomputed", Fail}, {"n", "Prompts", Pass}, {"n", "Answer mass", Pass}, {"n", "Ranking", Pass},
		{"h", "Parsed answers", Fail}, {"h", "Prompts", Fail}, {"h", "Ranking", Note},
		{"c", "Claimed vs recomputed", Note}, {"c", "Frozen files", Pass},
	} {
		if got, ok := status[tc.id][tc.check]; !ok || got != tc.want {
			t.Errorf("%s %s: %v (present %v), want %v", tc.id, tc.check, got, ok, tc.want)
		}
	}
}

// TestCause: the split of a rank move between score changes and runs
// added or removed, and nothing claimed when ranks do not follow from the
// displayed scores.
func TestCause(t *testing.T) {
	e := func(rank int, v float64) entry { return entry{rank: rank, has: true, shown: v} }
	for _, tc := range []struct {
		name     string
		was, now map[string]entry
		want     string
	}{
		{"one removed above", map[string]entry{"x": e(2, 0.2), "gone": e(1, 0.1)}, map[string]entry{"x": e(1, 0.2)},
			"only runs added or removed (1 removed above it)"},
		{"passed by a common run", map[string]entry{"x": e(1, 0.1), "y": e(2, 0.2)}, map[string]entry{"x": e(2, 0.1), "y": e(1, 0.05)},
			"score changes"},
		{"tie with a new run is not above", map[string]entry{"x": e(2, 0.2), "y": e(1, 0.1)}, map[string]entry{"x": e(3, 0.2), "y": e(1, 0.1), "new": e(2, 0.15), "tie": e(3, 0.2)},
			"only runs added or removed (1 added above it)"},
		{"ranks that do not follow from the scores", map[string]entry{"x": e(3, 0.2)}, map[string]entry{"x": e(1, 0.2)}, ""},
	} {
		if got := cause(tc.was, tc.now, "x"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestRedefined: a build whose views were defined otherwise is compared
// run by run, never score by score.
func TestRedefined(t *testing.T) {
	r := Compare(build(t, "r1", 1, oldSpecs...), build(t, "r2", 2, newSpecs()...))
	if !r.Redefined || len(r.Boards) != 0 || len(r.Added) != 3 {
		t.Fatalf("redefined %v, %d boards, %d added", r.Redefined, len(r.Boards), len(r.Added))
	}
	goldens(t, r, "redefined")
}

// TestUntrustedText: a model name cannot drive a terminal, start a line of
// its own, or make Markdown (a link, an image, HTML, a table cell, a
// mention, math).
func TestUntrustedText(t *testing.T) {
	r := report(t)
	var text, md bytes.Buffer
	r.WriteText(&text)
	r.WriteMarkdown(&md)
	if bytes.ContainsRune(text.Bytes(), 0x1b) || bytes.ContainsRune(md.Bytes(), 0x1b) {
		t.Error("an escape character reached the output")
	}
	// Unescaped: not preceded by a backslash.
	for _, bad := range []string{`<img`, `[^\\]\]\(https`, `https://`, `[^\\]\| cell`, `@team`, `[^\\]\$x`, `[^\\]_em`} {
		if regexp.MustCompile(bad).MatchString(md.String()) {
			t.Errorf("Markdown holds %s unescaped", bad)
		}
	}
	want := `Evil &lt;img src=x&gt; \[link\](https:\/\/evil.example) \| cell ` + "\uFFFD" + `\[31m &#64;team \$x\$ \_em\_`
	if !strings.Contains(md.String(), want) {
		t.Errorf("the model name is not escaped as expected: want %s", want)
	}
}

// TestReadFS reads a site folder as the -diff of a built site does.
func TestReadFS(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFS(os.DirFS(dir), dir); err == nil || !strings.Contains(err.Error(), "not a built site") {
		t.Errorf("an empty folder: %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "data", "runs"), 0o755)
	r := oldSpecs[0].record()
	data, _ := sitedata.Marshal(r)
	os.WriteFile(filepath.Join(dir, "data", "runs", "a.json"), data, 0o644)
	os.WriteFile(filepath.Join(dir, "data", "runs", "b.json"), data, 0o644)
	lb, _ := sitedata.Marshal(sitedata.Leaderboard{Release: sitedata.Release{Label: "x"}, Runs: []sitedata.RunSummary{r.Summary()}})
	os.WriteFile(filepath.Join(dir, "data", "leaderboard.json"), lb, 0o644)
	if _, err := ReadFS(os.DirFS(dir), dir); err == nil || !strings.Contains(err.Error(), `data/runs/b.json: holds run "a"`) {
		t.Errorf("a run file under another id: %v", err)
	}
	os.Remove(filepath.Join(dir, "data", "runs", "b.json"))
	s, err := ReadFS(os.DirFS(dir), dir)
	if err != nil || len(s.Runs) != 1 || s.Details["a"] == nil || s.ViewsVersion != 1 {
		t.Errorf("ReadFS: %v, %+v", err, s)
	}
}

// TestReadFilesSkipsQuestions: a run file's questions are read past (no
// comparison uses them), but must still be an array.
func TestReadFilesSkipsQuestions(t *testing.T) {
	r := oldSpecs[0].record()
	r.Questions = []sitedata.Question{{ID: 3, Rows: 135}}
	data, err := sitedata.MarshalRun(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"questions":[`) {
		t.Fatalf("the run file has no questions:\n%s", data)
	}
	lb, _ := sitedata.Marshal(sitedata.Leaderboard{Release: sitedata.Release{Label: "x"}, Runs: []sitedata.RunSummary{r.Summary()}})
	files := map[string][]byte{sitedata.LeaderboardJSON: lb, sitedata.RunFile("a"): data}
	s, err := ReadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	d := s.Details["a"]
	if d == nil || d.Questions != nil || d.ID != "a" || d.Quality.Rows != r.Quality.Rows {
		t.Errorf("Details[a] = %+v, want the run without its questions", d)
	}
	files[sitedata.RunFile("a")] = []byte(strings.Replace(string(data), `"questions":[`, `"questions": 5, "x": [`, 1))
	if _, err := ReadFiles(files); err == nil || !strings.Contains(err.Error(), "data/runs/a.json: questions: 5") {
		t.Errorf("questions not an array: %v", err)
	}
	files[sitedata.RunFile("a")] = data[:len(data)-3]
	if _, err := ReadFiles(files); err == nil {
		t.Error("a run file cut short: read")
	}
}

// TestReadsEarlierReleases reads the committed previous release, written
// by an earlier generator whose boards listed each run's rank beside its
// id: a release's leaderboard.json stays readable when the boards' format
// changes.
func TestReadsEarlierReleases(t *testing.T) {
	data, err := os.ReadFile("../../content/releases/2026.10-demo.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"value"`)) {
		t.Fatal("the committed release no longer has the old boards: find another file of the old format")
	}
	s, err := ReadLeaderboard(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Release.Label != "2026.10-demo" || len(s.Runs) == 0 || s.Runs[0].Rank == nil && s.Runs[len(s.Runs)-1].Rank == nil {
		t.Errorf("read %+v", s)
	}
}
