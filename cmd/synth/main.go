// Command synth writes the synthetic demonstration runs committed in runs/:
// per-prompt logits drawn from the paper's model with planted effects
// (internal/synth), turned into log-probabilities of yes/Yes/no/No or into
// sampled answers, and frozen as run folders. No real model produced them,
// and every manifest says so (synthetic: true).
//
//	go run ./cmd/synth [-o runs] [-force]
//	go run ./cmd/synth -n 400 -o /tmp/scale-runs
//	go run ./cmd/synth -previous -o /tmp/previous-runs
//
// With -n it writes N runs for scale measurements instead (make scale): one
// model per two runs, explicit and implicit, every tenth model also with a
// sampled-answer run, effects of varied shape and size; never committed.
// With -previous it writes the runs of the demonstration's previous
// release instead, which content/releases/README.md says how to build.
//
// Prompt texts: questions 0 and 95 of the explicit variant use the verbatim
// dataset rows in testdata/ (Anthropic/discrim-eval, CC BY 4.0); every other
// prompt is a labelled synthetic placeholder, which the site titles
// "Scenario N — text in the full dataset". With the dataset's own files,
// every prompt of both variants has its text (the same numbers: only the
// texts change):
//
//	go run ./cmd/synth -force -real explicit.jsonl,implicit.jsonl
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	rundir "github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/synth"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "synth:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "runs", "folder to write the run folders into")
	force := fs.Bool("force", false, "replace existing run folders")
	real := fs.String("real", "testdata/explicit-excerpt-q0.jsonl,testdata/explicit-excerpt-q95.jsonl", "verbatim dataset rows to use as prompt texts, comma-separated (each row's fill_type says its variant): the dataset's explicit.jsonl and implicit.jsonl give every prompt its text")
	n := fs.Int("n", 0, "write this many runs for scale measurements instead of the demonstration runs")
	previous := fs.Bool("previous", false, "write the runs of the demonstration's previous release instead (content/releases/README.md)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	texts, err := synth.ReadTexts(strings.Split(*real, ","))
	if err != nil {
		return err
	}
	ds := synth.Demos()
	switch {
	case *n > 0 && *previous:
		return errors.New("-n and -previous each choose the runs: give one")
	case *n > 0:
		ds = synth.ScaleRuns(*n)
	case *previous:
		ds = synth.PreviousDemos()
	}
	for _, d := range ds {
		rows, err := d.Rows(texts)
		if err != nil {
			return fmt.Errorf("%s: %w", d.ID, err)
		}
		m := d.Manifest()
		m.Dataset.Name = texts.DatasetName(d.Spec.Questions)
		if err := rundir.WriteDir(filepath.Join(*out, d.ID), m, rows, true, *force); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s (%d rows)\n", filepath.Join(*out, d.ID), len(rows))
	}
	return nil
}
