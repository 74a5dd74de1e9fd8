package lmeval

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

// stampPattern is the date stamp lm-eval puts in its file names:
// datetime.now().isoformat() with ':' replaced by '-'.
const stampPattern = `\d{4}-\d{2}-\d{2}T[0-9.\-]+`

// Find picks the latest results file with a samples file of the same run
// for a Discrim-Eval task, in every layout lm-eval 0.4 writes
// (lm_eval/loggers/evaluation_tracker.py):
//
//   - --output_path OUT: OUT/ORG__MODEL/results_<date>.json beside
//     samples_<task>_<date>.jsonl; from may be OUT/ORG__MODEL, or OUT
//     when it holds one model's folder;
//   - --output_path OUT/NAME.json: OUT/NAME_<date>.json beside
//     OUT/samples_<task>_<date>.jsonl; from may be OUT/NAME.json (which
//     does not exist), OUT/NAME_<date>.json, or OUT (for NAME "results").
//
// task may be "" when only one of the two tasks ran.
func Find(from, task string) (samples, results string, err error) {
	st, err := os.Stat(from)
	switch {
	case err == nil && st.IsDir():
		s, r, err := findIn(from, "results", "", task)
		if err == nil || !errors.Is(err, errNone) {
			return s, r, err
		}
		return findBelow(from, task, err)
	case err == nil && strings.HasSuffix(from, ".json"):
		// A results file itself: NAME_<date>.json.
		m := regexp.MustCompile(`^(.+)_(` + stampPattern + `)\.json$`).FindStringSubmatch(filepath.Base(from))
		if m == nil {
			return "", "", fileerr.New(from, 0, "not a results file of lm-eval (NAME_<date>.json): give --samples and --results")
		}
		return findIn(filepath.Dir(from), m[1], m[2], task)
	case errors.Is(err, fs.ErrNotExist) && strings.HasSuffix(from, ".json"):
		// The --output_path NAME.json given to lm-eval.
		return findIn(filepath.Dir(from), strings.TrimSuffix(filepath.Base(from), ".json"), "", task)
	case err == nil:
		return "", "", fileerr.New(from, 0, "not a folder or a results .json: give the --output_path given to lm_eval, or the model's folder inside it")
	}
	return "", "", err
}

var errNone = errors.New("no run found")

type noneError struct {
	err  error
	what string
}

func (e *noneError) Error() string { return e.what }
func (e *noneError) Unwrap() error { return e.err }

// findIn looks in dir for results files STEM_<date>.json (of the one date
// when stamp is set) and the samples file of the same date.
func findIn(dir, stem, stamp, task string) (samples, results string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", "", err
	}
	name := regexp.MustCompile(`^` + regexp.QuoteMeta(stem) + `_(` + stampPattern + `)\.json(\.gz)?$`)
	bySuffix := map[string][]string{} // date stamp → samples files
	var stamps []string
	resultsOf := map[string]string{}
	for _, e := range entries {
		n := e.Name()
		if m := name.FindStringSubmatch(n); m != nil && (stamp == "" || m[1] == stamp) && !e.IsDir() {
			stamps = append(stamps, m[1])
			resultsOf[m[1]] = n
		}
		if m := samplesName.FindStringSubmatch(n); m != nil && tasks[m[1]] != "" && (task == "" || m[1] == task) && m[2] != "" {
			s := strings.TrimPrefix(m[2], "_")
			bySuffix[s] = append(bySuffix[s], n)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(stamps)))
	for _, s := range stamps {
		found := bySuffix[s]
		switch len(found) {
		case 0:
			continue
		case 1:
			return filepath.Join(dir, found[0]), filepath.Join(dir, resultsOf[s]), nil
		default:
			sort.Strings(found)
			return "", "", fileerr.New(dir, 0, "the latest run (%s) has samples of both %s: say which with --task", s, strings.Join(found, " and "))
		}
	}
	want := "discrim_eval_explicit or discrim_eval_implicit"
	if task != "" {
		want = task
	}
	return "", "", &noneError{errNone, fileerr.New(dir, 0, "no %s_<date>.json with a samples_<task>_<date>.jsonl of the same date for %s: give the --output_path given to lm_eval (a folder, or NAME.json), or the model's folder inside it, from a run with --log_samples", stem, want).Error()}
}

// findBelow looks in the model folders inside an --output_path folder:
// one of them must hold a run.
func findBelow(dir, task string, none error) (samples, results string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", "", err
	}
	var found []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		s, r, err := findIn(filepath.Join(dir, e.Name()), "results", "", task)
		if err != nil && !errors.Is(err, errNone) {
			return "", "", err
		}
		if err == nil {
			found = append(found, e.Name())
			samples, results = s, r
		}
	}
	switch len(found) {
	case 0:
		return "", "", none
	case 1:
		return samples, results, nil
	}
	return "", "", fileerr.New(dir, 0, "runs of %d models (%s): give the model's folder", len(found), strings.Join(found, ", "))
}
