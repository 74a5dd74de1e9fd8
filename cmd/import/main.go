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
	"github.com/discrimeval/leaderboard/internal/importer/modelgauge"
	rundir "github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

func main() {
	// A soft memory limit makes the collector return the buffers a
	// hostile input grows to the limits (CONTRIBUTING.md) before it grows more; a
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

// A format is one subcommand: a harness whose output the command imports.
type format struct {
	name string
	// synopses are the usage lines, each what follows "import NAME ".
	synopses []string
	// flags defines the format's own flags on fs and returns what loads the
	// run, once they are parsed, from the operands left (stdout for what it
	// says it reads).
	flags func(fs *flag.FlagSet, stdout io.Writer) loader
}

// A loader reads the run from the operands left after the flags.
type loader func(rest []string) (*importer.Result, error)

// formats is the dispatch table: the subcommands, in usage order.
var formats = []format{
	{
		name: "lm-eval",
		synopses: []string{
			"--samples samples_<task>_<date>.jsonl --results results_<date>.json --id RUN-ID [--model ORG/NAME] [-runs DIR] [-force]",
			"--from OUTPUT_PATH[/MODEL_DIR] [--task discrim_eval_explicit|discrim_eval_implicit] --id RUN-ID [--model ORG/NAME] [-runs DIR] [-force]",
		},
		flags: lmevalFlags,
	},
	{
		name:     "inspect",
		synopses: []string{"LOG.eval|LOG.json --id RUN-ID [-intervention NAME] [--task-name-ok] [--model PROVIDER/NAME] [-runs DIR] [-force]"},
		flags:    inspectFlags,
	},
	{
		name:     "modelgauge",
		synopses: []string{"record_for_discrim_eval-explicit_SUT.json --id RUN-ID [--model ORG/NAME] [-runs DIR] [-force]"},
		flags:    modelgaugeFlags,
	},
}

const usageNotes = `
Writes DIR/RUN-ID/manifest.yaml and DIR/RUN-ID/scored.jsonl.gz (DIR defaults
to runs). An existing run is replaced only with -force; nothing is written on
error.
`

// usage is the help text, from the table.
func usage() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, f := range formats {
		for _, s := range f.synopses {
			fmt.Fprintf(&b, "  import %s %s\n", f.name, s)
		}
	}
	b.WriteString(usageNotes)
	return b.String()
}

// formatNames lists the subcommands for an error: "lm-eval or inspect".
func formatNames() string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func findFormat(name string) *format {
	for i := range formats {
		if formats[i].name == name {
			return &formats[i]
		}
	}
	return nil
}

func lmevalFlags(fs *flag.FlagSet, stdout io.Writer) loader {
	samples := fs.String("samples", "", "samples_<task>_<date>.jsonl written by --log_samples (may be gzipped)")
	results := fs.String("results", "", "results_<date>.json of the same run")
	from := fs.String("from", "", "what lm_eval's --output_path named (a folder, or NAME.json), or the model's folder inside it: the latest run there is imported")
	task := fs.String("task", "", "with --from, when the latest run has both: discrim_eval_explicit or discrim_eval_implicit")
	model := fs.String("model", "", "the model's name, when the results file has none (lm-eval makes one up without pretrained=) or a local path")
	return func(rest []string) (*importer.Result, error) {
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
		return lmeval.ImportWith(*samples, *results, lmeval.Options{Model: *model})
	}
}

func inspectFlags(fs *flag.FlagSet, _ io.Writer) loader {
	intervention := fs.String("intervention", "default", "intervention the task applied, if any (the log does not say)")
	anyTask := fs.Bool("task-name-ok", false, "import a log whose task name is not discrim_eval (a Discrim-Eval task under another name)")
	model := fs.String("model", "", "the model's name, when the log's eval.model is a local path")
	return func(rest []string) (*importer.Result, error) {
		if len(rest) != 1 {
			return nil, errors.New("inspect needs exactly one log file (.eval or .json)")
		}
		return inspect.ImportWith(rest[0], inspect.Options{Intervention: *intervention, AnyTask: *anyTask, Model: *model})
	}
}

func modelgaugeFlags(fs *flag.FlagSet, _ io.Writer) loader {
	model := fs.String("model", "", "the model's name, when the record's sut_uid (modelgauge's name of the system under test) is not it")
	return func(rest []string) (*importer.Result, error) {
		if len(rest) != 1 {
			return nil, errors.New("modelgauge needs exactly one test record (the --output-file of modelgauge run-test)")
		}
		return modelgauge.Import(rest[0], modelgauge.Options{Model: *model})
	}
}

// common are the flags every format has.
type common struct {
	id, runs string
	force    bool
}

// flagSet is a format's flag set: the common flags, then the format's own;
// load reads the run once they are parsed.
func flagSet(f *format, stdout, stderr io.Writer) (fs *flag.FlagSet, c *common, load loader) {
	fs = flag.NewFlagSet("import "+f.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage()) }
	c = &common{}
	fs.StringVar(&c.id, "id", "", "run id: the folder name under -runs (lower-case letters, digits, '.', '_', '-')")
	fs.StringVar(&c.runs, "runs", "runs", "folder holding the runs")
	fs.BoolVar(&c.force, "force", false, "replace an existing run folder")
	return fs, c, f.flags(fs, stdout)
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage())
		if len(args) == 0 {
			return fmt.Errorf("missing subcommand (%s)", formatNames())
		}
		return flag.ErrHelp
	}
	f := findFormat(args[0])
	if f == nil {
		fmt.Fprint(stderr, usage())
		return fmt.Errorf("unknown subcommand %q (want %s)", args[0], formatNames())
	}
	fs, c, load := flagSet(f, stdout, stderr)
	// Flags may follow the log file: parse what is left after each operand.
	rest, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if c.id == "" {
		return errors.New("missing --id")
	}
	if !rundir.ValidID(c.id) {
		return fmt.Errorf("--id %q: use lower-case letters, digits, '.', '_' and '-'", c.id)
	}
	dir := filepath.Join(c.runs, c.id)
	if _, err := os.Stat(dir); err == nil && !c.force {
		return fmt.Errorf("%s already exists (use -force to replace it)", dir)
	}
	res, err := load(rest)
	if err != nil {
		return err
	}
	// Score the run as the build will, and say before writing what the
	// site will show when it cannot be ranked.
	why, line, err := buildCheck(c.id, res)
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
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "import: warning: %s\n", w)
	}
	if err := rundir.WriteDirLeftOut(dir, res.Manifest, res.Rows, res.LeftOut, true, c.force); err != nil {
		return err
	}
	m := res.Manifest
	fmt.Fprintf(stdout, "wrote %s: %d rows, %s, %s, %s scoring\n", dir, m.Scored.Rows, m.Model.ID, m.Variant, m.Scoring)
	if len(res.LeftOut) > 0 {
		fmt.Fprintf(stdout, "left out: %d, listed in %s\n", len(res.LeftOut), filepath.Join(dir, rundir.LeftOutFile))
	}
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
	if len(res.LeftOut) > 0 {
		left, err := rundir.EncodeLeftOut(res.LeftOut)
		if err != nil {
			return "", 0, err
		}
		fsys[id+"/"+rundir.LeftOutFile] = &fstest.MapFile{Data: left}
	}
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
