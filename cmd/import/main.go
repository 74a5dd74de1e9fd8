// Command import turns harness output into a frozen run folder; see doc.go.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/importer"
	"github.com/discrimeval/leaderboard/internal/importer/inspect"
	"github.com/discrimeval/leaderboard/internal/importer/lmeval"
	rundir "github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

func main() {
	// A soft memory limit makes the collector return the buffers a
	// hostile input grows to the limits (README) before it grows more; a
	// real import holds far less. GOMEMLIMIT overrides it.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(256 << 20)
	}
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "import:", err)
		}
		os.Exit(1)
	}
}

const usage = `usage:
  import lm-eval --samples samples_<task>_<date>.jsonl --results results_<date>.json --id RUN-ID [-runs DIR] [-force]
  import lm-eval --from OUTPUT_PATH[/MODEL_DIR] [--task discrim_eval_explicit|discrim_eval_implicit] --id RUN-ID [-runs DIR] [-force]
  import inspect LOG.eval|LOG.json --id RUN-ID [-intervention NAME] [--task-name-ok] [-runs DIR] [-force]

Writes DIR/RUN-ID/manifest.yaml and DIR/RUN-ID/scored.jsonl.gz (DIR defaults
to runs). An existing run is replaced only with -force; nothing is written on
error.
`

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return errors.New("missing subcommand (lm-eval or inspect)")
		}
		return flag.ErrHelp
	}
	fs := flag.NewFlagSet("import "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	id := fs.String("id", "", "run id: the folder name under -runs (lower-case letters, digits, '.', '_', '-')")
	runs := fs.String("runs", "runs", "folder holding the runs")
	force := fs.Bool("force", false, "replace an existing run folder")

	var load func(rest []string) (*importer.Result, error)
	switch args[0] {
	case "lm-eval":
		samples := fs.String("samples", "", "samples_<task>_<date>.jsonl written by --log_samples (may be gzipped)")
		results := fs.String("results", "", "results_<date>.json of the same run")
		from := fs.String("from", "", "what lm_eval's --output_path named (a folder, or NAME.json), or the model's folder inside it: the latest run there is imported")
		task := fs.String("task", "", "with --from, when the latest run has both: discrim_eval_explicit or discrim_eval_implicit")
		load = func(rest []string) (*importer.Result, error) {
			if len(rest) > 0 {
				return nil, fmt.Errorf("unexpected argument %q", rest[0])
			}
			if *from != "" {
				if *samples != "" || *results != "" {
					return nil, errors.New("give either --from or --samples and --results")
				}
				s, r, err := lmeval.Find(*from, *task)
				if err != nil {
					return nil, err
				}
				fmt.Fprintf(stdout, "reading %s and %s\n", s, r)
				*samples, *results = s, r
			}
			if *samples == "" || *results == "" {
				return nil, errors.New("lm-eval needs --from, or --samples and --results")
			}
			return lmeval.Import(*samples, *results)
		}
	case "inspect":
		intervention := fs.String("intervention", "default", "intervention the task applied, if any (the log does not say)")
		anyTask := fs.Bool("task-name-ok", false, "import a log whose task name is not discrim_eval (a Discrim-Eval task under another name)")
		load = func(rest []string) (*importer.Result, error) {
			if len(rest) != 1 {
				return nil, errors.New("inspect needs exactly one log file (.eval or .json)")
			}
			return inspect.ImportWith(rest[0], inspect.Options{Intervention: *intervention, AnyTask: *anyTask})
		}
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown subcommand %q (want lm-eval or inspect)", args[0])
	}
	// Flags may follow the log file: parse what is left after each operand.
	rest, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if *id == "" {
		return errors.New("missing --id")
	}
	if !rundir.ValidID(*id) {
		return fmt.Errorf("--id %q: use lower-case letters, digits, '.', '_' and '-'", *id)
	}
	dir := filepath.Join(*runs, *id)
	if _, err := os.Stat(dir); err == nil && !*force {
		return fmt.Errorf("%s already exists (use -force to replace it)", dir)
	}
	res, err := load(rest)
	if err != nil {
		return err
	}
	// Score the run as the build will, and say before writing what the
	// site will show when it cannot be ranked.
	why, line, err := buildCheck(*id, res)
	if err != nil {
		return err
	}
	if why != "" {
		at := ""
		if line > 0 {
			at = fmt.Sprintf("%s:%d: ", filepath.Join(dir, res.Manifest.Scored.Path), line)
		}
		fmt.Fprintf(stderr, "import: warning: %sthe build shows this run without a rank: %s\n", at, why)
	}
	if err := rundir.WriteDir(dir, res.Manifest, res.Rows, true, *force); err != nil {
		return err
	}
	m := res.Manifest
	fmt.Fprintf(stdout, "wrote %s: %d rows, %s, %s, %s scoring\n", dir, m.Scored.Rows, m.Model.ID, m.Variant, m.Scoring)
	if m.Incomplete != "" {
		fmt.Fprintf(stdout, "incomplete: %s\n", m.Incomplete)
	}
	if len(m.Claimed) > 0 {
		fmt.Fprintf(stdout, "claimed: %s\n", strings.Join(importer.SortedKeys(m.Claimed), ", "))
	}
	if m.ClaimedNotComparable != "" {
		fmt.Fprintf(stdout, "claimed numbers not comparable: %s\n", m.ClaimedNotComparable)
	}
	return nil
}

// buildCheck loads the run from the bytes it would write and scores it
// as cmd/build does: why is the reason the build will give for showing it
// unranked (empty when it scores), line the scored file's line it names.
func buildCheck(id string, res *importer.Result) (why string, line int, err error) {
	man, scored, err := rundir.Freeze(res.Manifest, res.Rows, true)
	if err != nil {
		return "", 0, err
	}
	fsys := fstest.MapFS{id + "/manifest.yaml": {Data: man}, id + "/" + res.Manifest.Scored.Path: {Data: scored}}
	r, err := rundir.Load(fsys, "runs", id)
	if err != nil {
		return "", 0, fmt.Errorf("the run as written does not load: %w", err)
	}
	sc, err := score.Score(r)
	if err != nil {
		return "", 0, fmt.Errorf("the run as written cannot be scored: %w", err)
	}
	if sc.Scored {
		return "", 0, nil
	}
	return sc.Reason, sc.ReasonLine, nil
}

func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
