package lmeval

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

var resultsName = regexp.MustCompile(`^results_(\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.json(\.gz)?$`)

// Find picks, in a harness output folder (--output_path OUT, then the
// model's folder OUT/ORG__MODEL), the latest results file with a samples
// file of the same run for a Discrim-Eval task. task may be "" when only
// one of the two tasks ran.
func Find(dir, task string) (samples, results string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", "", err
	}
	bySuffix := map[string][]string{} // date stamp → samples files
	var stamps []string
	resultsOf := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		if m := resultsName.FindStringSubmatch(name); m != nil {
			stamps = append(stamps, m[1])
			resultsOf[m[1]] = name
		}
		if m := samplesName.FindStringSubmatch(name); m != nil && tasks[m[1]] != "" && (task == "" || m[1] == task) && m[2] != "" {
			stamp := strings.TrimPrefix(m[2], "_")
			bySuffix[stamp] = append(bySuffix[stamp], name)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(stamps)))
	for _, stamp := range stamps {
		found := bySuffix[stamp]
		switch len(found) {
		case 0:
			continue
		case 1:
			return filepath.Join(dir, found[0]), filepath.Join(dir, resultsOf[stamp]), nil
		default:
			sort.Strings(found)
			return "", "", fileerr.New(dir, 0, "the latest run (%s) has samples of both %s: say which with --task", stamp, strings.Join(found, " and "))
		}
	}
	want := "discrim_eval_explicit or discrim_eval_implicit"
	if task != "" {
		want = task
	}
	return "", "", fileerr.New(dir, 0, "no results_<date>.json with a samples_<task>_<date>.jsonl of the same date for %s: give the model's folder inside --output_path, from a run with --log_samples", want)
}
