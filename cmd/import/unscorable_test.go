package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/importer"
	"github.com/discrimeval/leaderboard/internal/site"
)

var femaleSample = []byte(`"gender": "female"`)

// editJSON decodes a sample, edits it and encodes it again.
func editJSON(t *testing.T, b []byte, edit func(map[string]any)) []byte {
	t.Helper()
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	edit(s)
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tokens returns the first choice's log-probability entries.
func tokens(s map[string]any) []map[string]any {
	var out []map[string]any
	ch := s["output"].(map[string]any)["choices"].([]any)[0].(map[string]any)
	for _, c := range ch["logprobs"].(map[string]any)["content"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

// A log case: an Inspect log the importer accepts, and whether the build
// can rank its run (unranked: the importer warns, the build shows it
// without a rank, with the same reason).
type logCase struct {
	log      string
	unranked string // what the reason says; "" when the run is ranked
}

func logCases(t *testing.T) map[string]logCase {
	return map[string]logCase{
		// One decision question (inspect eval … --limit 135): a mixed
		// model needs two.
		"one-question": {editLog(t, "one", func(name string, b []byte) []byte {
			if n := sampleNumber(name); n > 135 {
				return nil
			}
			return b
		}, nil), "the run has 1 decision question (0); the mixed model needs at least two"},
		// P(yes) = 1e-300 for every woman's prompt: the fit still works.
		"degenerate-group": {degenerate(t, "degenerate-group", femaleSample, false), ""},
		// P(yes) = 1e-300 everywhere: REML does not converge.
		"non-converging": {degenerate(t, "non-converging", []byte(`"metadata"`), false), "the REML fit did not converge"},
		// P(yes) = 1e-300 and P(no) = 1 everywhere: every logit the same,
		// the REML criterion undefined.
		"degenerate-constant": {degenerate(t, "degenerate-constant", []byte(`"metadata"`), true), "REML criterion undefined at the start"},
		// Two samples without top_logprobs: left out.
		"no-top": {editLog(t, "notop", func(name string, b []byte) []byte {
			if n := sampleNumber(name); n == 3 || n == 140 {
				return editJSON(t, b, func(s map[string]any) {
					for _, c := range tokens(s) {
						delete(c, "top_logprobs")
					}
				})
			}
			return b
		}, nil), ""},
		// Two epochs of every sample: log-probabilities from the first.
		"epochs2": {epochs2(t), ""},
	}
}

// degenerate sets P(yes) to 1e-300 in the samples containing marker, and
// with sure P(no) to 1.
func degenerate(t *testing.T, name string, marker []byte, sure bool) string {
	return editLog(t, name, func(member string, b []byte) []byte {
		if sampleNumber(member) == 0 || !bytes.Contains(b, marker) {
			return b
		}
		return editJSON(t, b, func(s map[string]any) {
			for _, c := range tokens(s) {
				no := 0.0 // the first "no" form takes all the mass
				for _, tl := range c["top_logprobs"].([]any) {
					tl := tl.(map[string]any)
					switch strings.ToLower(strings.Trim(tl["token"].(string), ` "`)) {
					case "yes":
						tl["logprob"] = -690.7755 // P = 1e-300
					case "no":
						if sure {
							tl["logprob"], no = no, -9999
						}
					}
				}
			}
		})
	}, nil)
}

func epochs2(t *testing.T) string {
	extra := map[string][]byte{}
	path := editLog(t, "epochs1", func(name string, b []byte) []byte { return b }, nil)
	_ = path
	for i := 1; i <= 270; i++ {
		b := memberOf(t, evalLog, fmt.Sprintf("samples/%d_epoch_1.json", i))
		extra[fmt.Sprintf("samples/%d_epoch_2.json", i)] = bytes.Replace(b, []byte(`"epoch": 1,`), []byte(`"epoch": 2,`), 1)
	}
	return editLog(t, "epochs2", func(name string, b []byte) []byte {
		if name == "header.json" {
			return bytes.Replace(b, []byte(`"epochs": 1,`), []byte(`"epochs": 2,`), 1)
		}
		return b
	}, extra)
}

// checkLogCases imports every log case into runs, returning the
// importer's warning (its path:line prefix and reason) for each.
func importLogCases(t *testing.T, runs string, cases map[string]logCase) map[string][]string {
	warnings := map[string][]string{}
	warning := regexp.MustCompile(`import: warning: (\S+: )?the build shows this run without a rank: (.*)`)
	for _, name := range importer.SortedKeys(cases) {
		tc := cases[name]
		var out bytes.Buffer
		if err := run([]string{"inspect", tc.log, "--id", name, "-runs", runs}, &out, &out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		warned := warning.FindStringSubmatch(out.String())
		if (warned != nil) != (tc.unranked != "") || warned != nil && !strings.Contains(warned[2], tc.unranked) {
			t.Errorf("%s: want a warning containing %q:\n%s", name, tc.unranked, out.String())
		}
		warnings[name] = warned
	}
	return warnings
}

// checkLogCases checks what the built site says of each log case: a run
// the importer warned of is shown unranked with the importer's reason, and
// the build warns of it at the same place; the others are scored.
func checkLogCases(t *testing.T, cases map[string]logCase, warned map[string][]string, data map[string]runData, warnings string) {
	for _, name := range importer.SortedKeys(cases) {
		d, w := data[name], warned[name]
		if cases[name].unranked == "" || w == nil {
			if !d.Scored {
				t.Errorf("%s: not scored: %s", name, d.Unranked)
			}
			continue
		}
		if d.Scored || d.Ranked || d.Unranked != w[2] {
			t.Errorf("%s: data %+v, importer warned %q", name, d, w[2])
		}
		at := "runs/" + name + "/manifest.yaml: "
		if w[1] != "" { // …/scored.jsonl.gz:LINE:
			parts := strings.Split(strings.TrimSuffix(w[1], ": "), ":")
			at = "runs/" + name + "/scored.jsonl.gz:" + parts[len(parts)-1] + ": "
		}
		if !strings.Contains(warnings, "build: warning: "+at+"not ranked: "+w[2]+"\n") {
			t.Errorf("build warnings lack %q:\n%s", at+"not ranked: "+w[2], warnings)
		}
	}
}

type runData struct {
	ID       string `json:"id"`
	Scored   bool   `json:"scored"`
	Ranked   bool   `json:"ranked"`
	Unranked string `json:"unranked_reason"`
}

// buildAll generates the site from runs and returns what data/runs/ID.json
// says of each run, and the build's warnings.
func buildAll(t *testing.T, runs string) ([]site.File, map[string]runData, string) {
	t.Helper()
	methodology, err := os.ReadFile("../../METHODOLOGY.md")
	if err != nil {
		t.Fatal(err)
	}
	var warnings bytes.Buffer
	files, err := site.Generate(site.Config{Content: os.DirFS("../../content"), Runs: os.DirFS(runs), RunsLabel: "runs", Methodology: methodology, Warnings: &warnings})
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]runData{}
	for _, f := range files {
		if id, ok := strings.CutPrefix(f.Path, "data/runs/"); ok && path.Ext(id) == ".json" && !strings.Contains(id, "/") {
			var d runData
			if err := json.Unmarshal(f.Data, &d); err != nil {
				t.Fatal(err)
			}
			data[d.ID] = d
		}
	}
	return files, data, warnings.String()
}
