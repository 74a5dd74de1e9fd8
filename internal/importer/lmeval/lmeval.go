// Package lmeval imports the output of lm-evaluation-harness's tasks
// discrim_eval_explicit and discrim_eval_implicit (a samples_*.jsonl file
// written with --log_samples, and the results_*.json of the same run) as a
// run. Facts about the formats: shared/formats.md.
package lmeval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/importer"
	"github.com/discrimeval/leaderboard/internal/run"
)

// The harness's tasks and the variant each one runs.
var tasks = map[string]run.Variant{
	"discrim_eval_explicit": run.Explicit,
	"discrim_eval_implicit": run.Implicit,
}

// Model types whose weights the harness loads itself; anything else is an
// API the weights of which we cannot assume are public.
var localModelTypes = map[string]bool{
	"hf": true, "hf-auto": true, "huggingface": true, "hf-multimodal": true, "vllm": true,
	"vllm-vlm": true, "sglang": true, "mamba_ssm": true, "neuronx": true, "ipex": true,
	"openvino": true, "optimum-causal": true, "hf-steer": true,
}

var samplesName = regexp.MustCompile(`^samples_(.+?)(_\d{4}-\d{2}-\d{2}T[0-9.\-]+)?\.jsonl(\.gz)?$`)

// MaxResultsBytes bounds a results file (a few tens of KB in practice,
// more with a long chat template).
const MaxResultsBytes = 64 << 20

// Import reads the samples file of one task and the results file of the
// same run. Either file may be gzipped (name ending in .gz).
func Import(samplesPath, resultsPath string) (*importer.Result, error) {
	return ImportWith(samplesPath, resultsPath, Options{})
}

// Options are ImportWith's settings.
type Options struct {
	// Model, when set, is the model's id instead of the results file's
	// model_name, which must be a real one when Model is not set (not a
	// name lm-eval made up, not a local path).
	Model string
}

// ImportWith is Import with Options.
func ImportWith(samplesPath, resultsPath string, o Options) (*importer.Result, error) {
	rf, resSum, err := readResults(resultsPath)
	if err != nil {
		return nil, err
	}
	task, err := findTask(samplesPath, resultsPath, rf)
	if err != nil {
		return nil, err
	}
	variant := tasks[task]
	lines, fileOrderHash, samplesSum, err := readSamples(samplesPath, variant)
	if err != nil {
		return nil, err
	}
	m, err := manifest(resultsPath, rf, task, o)
	if err != nil {
		return nil, err
	}
	rows := make([]run.Row, len(lines))
	for i, l := range lines {
		rows[i] = l.row
	}
	res, err := importer.Finish(m, rows, func(i int) importer.Position {
		return importer.Position{Path: samplesPath, Line: lines[i].line, Label: "doc_id " + strconv.Itoa(lines[i].docID), ID: strconv.Itoa(lines[i].docID)}
	}, incomplete(rf, task, len(lines)))
	if err != nil {
		return nil, err
	}

	// Provenance: which files, and whether they agree with each other.
	m.Notes = "Imported from lm-evaluation-harness output with `cmd/import lm-eval`.\n\n" +
		importer.Bullets(
			"samples file: "+importer.Code(filepath.Base(samplesPath))+", sha256 "+importer.Code(samplesSum),
			"results file: "+importer.Code(filepath.Base(resultsPath))+", sha256 "+importer.Code(resSum),
			"task hash: "+taskHashNote(rf.TaskHashes[task], fileOrderHash, lines),
			importer.If(zeroForms(res.Rows) > 0, fmt.Sprintf("%d answer forms have log-likelihood -Infinity (probability zero)", zeroForms(res.Rows))),
		) + m.Notes

	if len(m.Claimed) > 0 && m.Incomplete != "" {
		m.ClaimedNotComparable = "the harness fitted its mixed model (statsmodels MixedLM) on an unbalanced run (" + m.Incomplete +
			"): on unbalanced data that fit does not converge and depends on the order of the rows, so its numbers are not a check on the recomputed ones"
	}
	return res, nil
}

// taskHashNote says whether the results file's task hash is reproduced
// from the samples file. The harness hashes the samples in the order it
// writes them (after gathering them from every process), so the file
// order is tried first; doc_id order and the pre-0.4.9 form
// ("sample_<i>" + doc_hash) after.
func taskHashNote(want, fileOrder string, lines []parsed) string {
	if want == "" {
		return "not in the results file"
	}
	sorted := sha256.New()
	old := sha256.New()
	for i, l := range lines {
		sorted.Write([]byte(l.docHash + l.promptHash + l.targetHash))
		old.Write([]byte("sample_" + strconv.Itoa(i) + l.docHash))
	}
	switch want {
	case fileOrder:
		return importer.Code(want) + ", reproduced from the samples file"
	case hex.EncodeToString(sorted.Sum(nil)):
		return importer.Code(want) + ", reproduced from the samples file in doc_id order (the lines were reordered after the run)"
	case hex.EncodeToString(old.Sum(nil)):
		return importer.Code(want) + ", reproduced from the samples file (the older sample_<i> form)"
	}
	return importer.Code(want) + ", not reproduced from the samples file. Every line's own doc_hash, prompt_hash and target_hash were checked, so the " +
		"documents are the ones the harness ran; the files may come from different runs, lines may be missing or repeated, or this harness version hashes differently"
}

func zeroForms(rows []run.Row) int {
	n := 0
	for _, r := range rows {
		for _, lp := range r.Logprobs {
			if math.IsInf(lp, -1) {
				n++
			}
		}
	}
	return n
}

// results is the part of results_<date>.json the import reads.
type results struct {
	Results  map[string]map[string]json.RawMessage `json:"results"`
	Configs  map[string]taskConfig                 `json:"configs"`
	Versions map[string]json.RawMessage            `json:"versions"`
	NSamples map[string]struct {
		Original  int `json:"original"`
		Effective int `json:"effective"`
	} `json:"n-samples"`
	Config struct {
		Model          string          `json:"model"`
		ModelArgs      json.RawMessage `json:"model_args"`
		ModelRevision  string          `json:"model_revision"`
		ModelSHA       string          `json:"model_sha"`
		ModelDtype     string          `json:"model_dtype"`
		ModelNumParams json.RawMessage `json:"model_num_parameters"`
		BatchSize      json.RawMessage `json:"batch_size"`
		Device         *string         `json:"device"`
		Limit          *importer.Float `json:"limit"`
	} `json:"config"`
	GitHash              *string           `json:"git_hash"`
	Date                 *importer.Float   `json:"date"`
	LMEvalVersion        string            `json:"lm_eval_version"`
	TransformersVersion  string            `json:"transformers_version"`
	TaskHashes           map[string]string `json:"task_hashes"`
	ModelSource          string            `json:"model_source"`
	ModelName            string            `json:"model_name"`
	SystemInstruction    *string           `json:"system_instruction"`
	SystemInstructionSHA *string           `json:"system_instruction_sha"`
	ChatTemplate         *string           `json:"chat_template"`
	ChatTemplateSHA      *string           `json:"chat_template_sha"`
	FewshotAsMultiturn   *bool             `json:"fewshot_as_multiturn"`
}

type taskConfig struct {
	Task            string         `json:"task"`
	DatasetPath     string         `json:"dataset_path"`
	DatasetName     string         `json:"dataset_name"`
	DatasetKwargs   map[string]any `json:"dataset_kwargs"`
	DocToText       string         `json:"doc_to_text"`
	GenPrefix       string         `json:"gen_prefix"`
	TargetDelimiter *string        `json:"target_delimiter"`
	NumFewshot      *int           `json:"num_fewshot"`
	Metadata        map[string]any `json:"metadata"`
}

func readResults(path string) (*results, string, error) {
	data, sum, err := importer.ReadAll(path, MaxResultsBytes)
	if err != nil {
		return nil, "", err
	}
	clean, _ := importer.Sanitize(data)
	var r results
	if err := json.Unmarshal(clean, &r); err != nil {
		line, msg := importer.DecodeErr(clean, err)
		return nil, "", fileerr.New(path, line, "%s", msg)
	}
	if r.Results == nil {
		return nil, "", fileerr.New(path, 0, "no \"results\" object: not an lm-evaluation-harness results file")
	}
	return &r, sum, nil
}

// findTask takes the task from the samples file's name (as the harness
// writes it) and checks that the results file has it.
func findTask(samplesPath, resultsPath string, r *results) (string, error) {
	var task string
	if m := samplesName.FindStringSubmatch(filepath.Base(samplesPath)); m != nil {
		task = m[1]
	} else {
		// Renamed file: fall back on the one Discrim-Eval task in the results.
		for t := range r.Results {
			if tasks[t] != "" {
				if task != "" {
					return "", fileerr.New(samplesPath, 0, "cannot tell the task from the file name (want samples_<task>_<date>.jsonl) and %s has both %s and %s", resultsPath, task, t)
				}
				task = t
			}
		}
		if task == "" {
			return "", fileerr.New(samplesPath, 0, "cannot tell the task from the file name (want samples_<task>_<date>.jsonl) and %s has no Discrim-Eval task", resultsPath)
		}
	}
	if tasks[task] == "" {
		return "", fileerr.New(samplesPath, 0, "task %q is not discrim_eval_explicit or discrim_eval_implicit", task)
	}
	if r.Results[task] == nil {
		return "", fileerr.New(resultsPath, 0, "no results for task %s (it has: %s); is it the results file of the same run?", task, strings.Join(importer.SortedKeys(r.Results), ", "))
	}
	return task, nil
}

// sampleLine is one line of the samples file.
type sampleLine struct {
	DocID         *int              `json:"doc_id"`
	Doc           json.RawMessage   `json:"doc"`
	Target        json.RawMessage   `json:"target"`
	Arguments     json.RawMessage   `json:"arguments"`
	Resps         []json.RawMessage `json:"resps"`
	FilteredResps []json.RawMessage `json:"filtered_resps"`
	DocHash       string            `json:"doc_hash"`
	PromptHash    string            `json:"prompt_hash"`
	TargetHash    string            `json:"target_hash"`
	// The harness's own logit for the document, one copy per metric.
	BlackBias []json.RawMessage `json:"black_bias"`
}

type doc struct {
	FilledTemplate     *string         `json:"filled_template"`
	DecisionQuestionID json.RawMessage `json:"decision_question_id"`
	Age                json.RawMessage `json:"age"`
	Gender             string          `json:"gender"`
	Race               string          `json:"race"`
	FillType           string          `json:"fill_type"`
}

type parsed struct {
	row                             run.Row
	cell                            design.Prompt
	docID, line                     int
	docHash, promptHash, targetHash string
}

// readSamples streams the samples file. It returns the lines sorted by
// doc_id (multi-process runs write them in gathered order) and the task
// hash of the lines in file order.
func readSamples(path string, variant run.Variant) (out []parsed, fileOrderHash, sum string, err error) {
	src, err := importer.Open(path)
	if err != nil {
		return nil, "", "", err
	}
	defer src.Close()
	byDoc := map[int]int{}
	byCell := map[design.Prompt]int{}
	h := sha256.New()
	err = src.Lines(func(line int, b []byte) error {
		if len(bytes.TrimSpace(b)) == 0 {
			return fmt.Errorf("empty line")
		}
		p, err := parseLine(b, variant)
		if err != nil {
			return err
		}
		p.line = line
		if prev, dup := byDoc[p.docID]; dup {
			return fmt.Errorf("doc_id %d is already on line %d", p.docID, prev)
		}
		if prev, dup := byCell[p.cell]; dup {
			return fmt.Errorf("question %d, %s is already on line %d", p.cell.Q, p.cell.Label(), prev)
		}
		byDoc[p.docID], byCell[p.cell] = line, line
		h.Write([]byte(p.docHash + p.promptHash + p.targetHash))
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, "", "", err
	}
	if len(out) == 0 {
		return nil, "", "", fileerr.New(path, 0, "no samples")
	}
	if sum, err = src.Sum(); err != nil {
		return nil, "", "", err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].docID < out[j].docID })
	return out, hex.EncodeToString(h.Sum(nil)), sum, nil
}

func parseLine(b []byte, variant run.Variant) (parsed, error) {
	var p parsed
	clean, rewrites := importer.Sanitize(b)
	var s sampleLine
	if err := json.Unmarshal(clean, &s); err != nil {
		_, msg := importer.DecodeErr(clean, err)
		return p, fmt.Errorf("%s", msg)
	}
	if s.DocID == nil || s.Doc == nil {
		return p, fmt.Errorf("no doc_id or doc: not a line of an lm-evaluation-harness samples file")
	}
	p.docID = *s.DocID

	// doc_hash: SHA-256 of json.dumps(doc, indent=2, ensure_ascii=False),
	// rebuilt from the line with the doc's key order and number literals.
	tree, err := importer.Parse(clean, rewrites)
	if err != nil {
		return p, err
	}
	// encoding/json matches keys without regard to case and keeps the last
	// of two equal keys; the hash must be of the very doc the row is read
	// from, so keys must be unique and exact.
	docV := tree.Get("doc")
	if err := exactKeys(&tree, "doc_id", "doc", "doc_hash", "prompt_hash", "target_hash"); err != nil {
		return p, err
	}
	if err := exactKeys(docV, "filled_template", "decision_question_id", "age", "gender", "race", "fill_type"); err != nil {
		return p, fmt.Errorf("doc: %v: not a Discrim-Eval document (wrong task?)", err)
	}
	docHash := importer.SHA256(string(importer.PyDumps(*docV, 2)))
	if s.DocHash != docHash {
		return p, fmt.Errorf("doc_hash %s does not match the doc (json.dumps(doc, indent=2, ensure_ascii=False) hashes to %s): the doc was changed after the run", s.DocHash, docHash)
	}
	var target string
	if err := json.Unmarshal(s.Target, &target); err != nil {
		target = string(s.Target) // str() of a number is its JSON literal
	}
	if s.TargetHash != importer.SHA256(target) {
		return p, fmt.Errorf("target_hash does not match target %q", target)
	}

	var d doc
	if err := json.Unmarshal(s.Doc, &d); err != nil {
		return p, fmt.Errorf("doc: %v", err)
	}
	if d.DecisionQuestionID == nil || d.FilledTemplate == nil || d.Age == nil {
		return p, fmt.Errorf("doc has no decision_question_id, age or filled_template: not a Discrim-Eval document (wrong task?)")
	}
	if run.Variant(d.FillType) != variant {
		return p, fmt.Errorf("doc fill_type %q in a samples file of the %s variant (mixed variants)", d.FillType, variant)
	}
	q, err := importer.QuestionID(d.DecisionQuestionID)
	if err != nil {
		return p, fmt.Errorf("doc: %v", err)
	}
	age, err := importer.Age(d.Age)
	if err != nil {
		return p, fmt.Errorf("doc: %v", err)
	}
	p.row = run.Row{
		DecisionQuestionID: &q, Age: &age, Gender: d.Gender, Race: d.Race,
		FillType: d.FillType, FilledTemplate: *d.FilledTemplate,
	}
	if p.cell, err = run.ParsePrompt(&p.row); err != nil {
		return p, fmt.Errorf("doc: %v", err)
	}

	ctx, conts, err := arguments(s.Arguments)
	if err != nil {
		return p, err
	}
	if s.PromptHash != importer.SHA256(ctx) {
		return p, fmt.Errorf("prompt_hash does not match the context in arguments")
	}
	p.row.Prompt = ctx
	p.docHash, p.promptHash, p.targetHash = s.DocHash, s.PromptHash, s.TargetHash

	lls, err := loglikelihoods(s)
	if err != nil {
		return p, err
	}
	if len(lls) != len(conts) {
		return p, fmt.Errorf("%d requests in arguments but %d responses", len(conts), len(lls))
	}
	p.row.Logprobs = run.Logprobs{}
	for i, c := range conts {
		form := c
		if !isForm(form) {
			return p, fmt.Errorf("request %d continues with %q, not one of the answer forms yes, Yes, no, No", i, c)
		}
		if _, dup := p.row.Logprobs[form]; dup {
			return p, fmt.Errorf("answer form %q requested twice", form)
		}
		ll := lls[i]
		switch {
		case math.IsNaN(ll):
			return p, fmt.Errorf("log-likelihood of %q is NaN", form)
		case math.IsInf(ll, -1):
			// Probability zero: kept, written as null in the scored file.
		case ll > 0 || math.IsInf(ll, 1):
			return p, fmt.Errorf("log-likelihood of %q is %v: want a number ≤ 0", form, ll)
		}
		p.row.Logprobs[form] = ll
	}
	for _, f := range append(append([]string(nil), run.DefaultChoices.Yes...), run.DefaultChoices.No...) {
		if _, ok := p.row.Logprobs[f]; !ok {
			return p, fmt.Errorf("missing choice: no request for answer form %q (the task asks for yes, Yes, no, No)", f)
		}
	}

	// The harness logged its own logit; a disagreement means the responses
	// were edited. It writes Infinity where pnorm rounds to 1, which the
	// log-sum-exp form here does not, so only finite values are compared.
	if len(s.BlackBias) == 3 {
		var theirs importer.Float
		ours := run.LogSumExp([]float64{p.row.Logprobs["yes"], p.row.Logprobs["Yes"]}) - run.LogSumExp([]float64{p.row.Logprobs["no"], p.row.Logprobs["No"]})
		if json.Unmarshal(s.BlackBias[2], &theirs) == nil && finite(float64(theirs)) && finite(ours) {
			if math.Abs(ours-float64(theirs)) > 1e-6*math.Max(1, math.Abs(ours)) {
				return p, fmt.Errorf("the responses give logit %.9g but the harness logged %.9g", ours, float64(theirs))
			}
		}
	}
	return p, nil
}

// exactKeys checks that v is an object whose keys are unique, even
// without regard to case, and that it has each of keys as written.
func exactKeys(v *importer.Value, keys ...string) error {
	if v == nil || v.Kind != importer.Object {
		return fmt.Errorf("not a JSON object")
	}
	seen := map[string]string{}
	for _, k := range v.Keys {
		low := strings.ToLower(k)
		if prev, dup := seen[low]; dup {
			return fmt.Errorf("key %q and %q: a key twice", importer.Shorten(prev, 40), importer.Shorten(k, 40))
		}
		seen[low] = k
	}
	for _, k := range keys {
		if v.Get(k) == nil {
			return fmt.Errorf("no %q key", k)
		}
	}
	return nil
}

func isForm(s string) bool {
	for _, f := range append(append([]string(nil), run.DefaultChoices.Yes...), run.DefaultChoices.No...) {
		if s == f {
			return true
		}
	}
	return false
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// arguments returns the shared context and each request's continuation.
// The harness writes {"gen_args_0": {"arg_0": ctx, "arg_1": cont}, …};
// older versions a list of [ctx, cont] pairs.
func arguments(raw json.RawMessage) (ctx string, conts []string, err error) {
	var pairs [][]string
	var byName map[string]map[string]string
	switch {
	case json.Unmarshal(raw, &byName) == nil && byName != nil:
		pairs = make([][]string, len(byName))
		for name, args := range byName {
			i, err := strconv.Atoi(strings.TrimPrefix(name, "gen_args_"))
			if err != nil || i < 0 || i >= len(byName) || pairs[i] != nil {
				return "", nil, fmt.Errorf("arguments: unexpected key %q", name)
			}
			pairs[i] = []string{args["arg_0"], args["arg_1"]}
		}
	case json.Unmarshal(raw, &pairs) == nil:
	default:
		return "", nil, fmt.Errorf("arguments: want {\"gen_args_0\": {\"arg_0\": context, \"arg_1\": continuation}, …}")
	}
	if len(pairs) == 0 {
		return "", nil, fmt.Errorf("no requests in arguments")
	}
	for i, p := range pairs {
		if len(p) != 2 {
			return "", nil, fmt.Errorf("request %d: want a context and a continuation", i)
		}
		if i == 0 {
			ctx = p[0]
		} else if p[0] != ctx {
			return "", nil, fmt.Errorf("request %d has a different context from request 0", i)
		}
		conts = append(conts, p[1])
	}
	return ctx, conts, nil
}

// loglikelihoods reads each request's log-likelihood from filtered_resps
// ([ll, is_greedy] per request, as strings), or from resps when absent.
func loglikelihoods(s sampleLine) ([]float64, error) {
	src, name := s.FilteredResps, "filtered_resps"
	if src == nil {
		src, name = s.Resps, "resps"
	}
	out := make([]float64, len(src))
	for i, r := range src {
		raw := r
		if name == "resps" { // one list of repeats per request: take the first
			var reps []json.RawMessage
			if err := json.Unmarshal(raw, &reps); err != nil || len(reps) == 0 {
				return nil, fmt.Errorf("resps[%d]: want a list of [log-likelihood, is_greedy]", i)
			}
			raw = reps[0]
		}
		var pair []json.RawMessage
		if err := json.Unmarshal(raw, &pair); err == nil {
			if len(pair) == 0 {
				return nil, fmt.Errorf("%s[%d] is empty", name, i)
			}
			raw = pair[0]
		}
		var ll importer.Float
		if err := json.Unmarshal(raw, &ll); err != nil {
			return nil, fmt.Errorf("%s[%d]: %v", name, i, err)
		}
		out[i] = float64(ll)
	}
	return out, nil
}

func manifest(path string, r *results, task string, o Options) (*run.Manifest, error) {
	cfg := r.Configs[task]
	modelArgs := importer.ScrubPaths(rawString(r.Config.ModelArgs))
	id, err := modelID(path, r, o)
	if err != nil {
		return nil, err
	}
	provider, name := r.Config.Model, id
	if i := strings.Index(id, "/"); i > 0 {
		provider, name = id[:i], id[strings.LastIndex(id, "/")+1:]
	}
	if provider == "" {
		provider = "unknown"
	}
	revision := r.Config.ModelSHA
	if revision == "" {
		revision = r.Config.ModelRevision
	}

	if r.Date == nil || math.IsNaN(float64(*r.Date)) {
		return nil, fileerr.New(path, 0, "no date (UNIX seconds) in the results file")
	}
	sec, frac := math.Modf(float64(*r.Date))
	date := importer.UTCDate(time.Unix(int64(sec), int64(frac*1e9)))

	dataset := cfg.DatasetPath
	if dataset == "" {
		dataset = "Anthropic/discrim-eval"
	}
	datasetRev, _ := cfg.DatasetKwargs["revision"].(string)

	claimed := map[string]float64{}
	var skipped []string
	for _, key := range importer.SortedKeys(r.Results[task]) {
		metric, filter, ok := strings.Cut(key, ",")
		if !ok || strings.HasSuffix(metric, "_stderr") {
			continue // alias, sample counts, standard errors ("N/A")
		}
		if filter != "none" {
			metric = key
		}
		var v importer.Float
		if err := json.Unmarshal(r.Results[task][key], &v); err != nil || math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			skipped = append(skipped, importer.Code(key+": "+string(r.Results[task][key])))
			continue
		}
		claimed[metric] = float64(v)
	}

	version := strings.Trim(string(r.Versions[task]), `"`)
	if version == "" {
		if v, ok := cfg.Metadata["version"]; ok {
			version = fmt.Sprint(v)
		}
	}
	var notes strings.Builder
	notes.WriteString(importer.Bullets(
		"task: "+importer.Code(task)+", version "+orNone(version),
		importer.If(o.Model != "", "model: "+importer.Code(o.Model)+" given to the import (--model); the results file's model_name is "+orNone(importer.ScrubPaths(r.ModelName))),
		"model: type "+importer.Code(r.Config.Model)+" with "+importer.Code(modelArgs)+
			", revision "+orNone(r.Config.ModelRevision)+", sha "+orNone(r.Config.ModelSHA)+
			", dtype "+orNone(r.Config.ModelDtype)+", parameters "+orNone(rawString(r.Config.ModelNumParams)),
		"open_weights is guessed from the model type ("+strconv.FormatBool(localModelTypes[r.Config.Model])+" for "+importer.Code(r.Config.Model)+"): check it",
		"transformers "+orNone(r.TransformersVersion)+", batch size "+orNone(rawString(r.Config.BatchSize)),
		"date: "+strconv.FormatFloat(float64(*r.Date), 'f', -1, 64)+" (UNIX seconds) = "+date+" UTC",
		limitNote(r),
		importer.If(len(skipped) > 0, "reported metrics that are not numbers, left out of claimed: "+strings.Join(skipped, ", ")),
	))
	for _, h := range []struct{ name, text, sha string }{
		{"system_instruction", deref(r.SystemInstruction), deref(r.SystemInstructionSHA)},
		{"chat_template", deref(r.ChatTemplate), deref(r.ChatTemplateSHA)},
	} {
		if h.text != "" && h.sha != "" && h.sha != importer.SHA256(h.text) {
			return nil, fileerr.New(path, 0, "%s_sha is %s but the %s hashes to %s", h.name, h.sha, h.name, importer.SHA256(h.text))
		}
	}
	if r.SystemInstruction != nil && *r.SystemInstruction != "" {
		notes.WriteString("\n### System instruction\n\nsha256 " + importer.Code(deref(r.SystemInstructionSHA)) + "\n\n" + importer.Block(*r.SystemInstruction))
	} else {
		notes.WriteString("- no system instruction\n")
	}
	if r.ChatTemplate != nil && *r.ChatTemplate != "" {
		notes.WriteString("\n### Chat template\n\nPrompts were rendered with this chat template (sha256 " + importer.Code(deref(r.ChatTemplateSHA)) +
			"); the prefix of the answer starts the assistant turn. Each row's `prompt` is the exact text the model saw.\n\n" + importer.Block(*r.ChatTemplate))
	} else {
		notes.WriteString("- no chat template: plain-text prompts\n")
	}

	return &run.Manifest{
		Model: run.Model{
			Name: name, ID: id, Provider: provider, Revision: revision,
			OpenWeights: localModelTypes[r.Config.Model],
		},
		Benchmark:      "discrim_eval",
		Variant:        tasks[task],
		Intervention:   "default",
		Scoring:        run.Logprob,
		Choices:        run.DefaultChoices,
		PromptTemplate: cfg.DocToText + cfg.GenPrefix,
		PromptForm:     promptForm(cfg.DocToText, cfg.GenPrefix),
		Harness:        run.Harness{Name: "lm-evaluation-harness", Version: r.LMEvalVersion, Commit: deref(r.GitHash)},
		Dataset:        run.Dataset{Name: dataset, Revision: datasetRev},
		RunDate:        date,
		Claimed:        claimed,
		Notes:          notes.String(),
	}, nil
}

// modelID is the run's model id: o.Model, or the results file's
// model_name (else model_args' pretrained=, model= or engine=), refused
// when lm-eval made it up or it is a local path.
func modelID(path string, r *results, o Options) (string, error) {
	if o.Model != "" {
		if importer.LocalPath(o.Model) {
			return "", fmt.Errorf("--model %q is a local path: give the model's name", o.Model)
		}
		return o.Model, nil
	}
	id := r.ModelName
	if id == "" {
		id = argValue(r.Config.ModelArgs, "pretrained", "model", "engine")
	}
	if id == "" {
		return "", fileerr.New(path, 0, "no model_name, and no pretrained= or model= in config.model_args: give the model's name with --model ORG/NAME")
	}
	if harnessModelName(r.Config.ModelArgs) == "" && madeUpName.MatchString(id) {
		return "", fileerr.New(path, 0, "model_name %q is a name lm-eval made up (its model_args %s have none of %s, so it picked eight random letters and digits): give the model's name with --model ORG/NAME",
			id, importer.Code(importer.ScrubPaths(rawString(r.Config.ModelArgs))), strings.Join(nameKeys, "=, ")+"=")
	}
	if importer.LocalPath(id) {
		return "", fileerr.New(path, 0, "model_name %q is a local path (the folder the model was loaded from), not a name anyone else can look up: give the model's name with --model ORG/NAME", importer.ScrubPaths(id))
	}
	return id, nil
}

// nameKeys are the model_args lm-eval takes the model's name from, in its
// order (GeneralConfigTracker._get_model_name in
// lm_eval/loggers/evaluation_tracker.py, lm-eval 0.4.13).
var nameKeys = []string{"peft", "delta", "pretrained", "model", "path", "engine"}

// madeUpName is the form of the name lm-eval gives a model whose
// model_args have none of nameKeys (utils.random_name_id: eight lower-case
// letters and digits).
var madeUpName = regexp.MustCompile(`^[a-z0-9]{8}$`)

// harnessModelName is the name lm-eval takes from model_args, as
// _get_model_name does: for a JSON object, the first of nameKeys it has;
// for a string, the first KEY= it contains anywhere (so base_model= counts
// as model=), up to the next comma.
func harnessModelName(raw json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil {
		for _, k := range nameKeys {
			if v, ok := obj[k]; ok {
				return rawString(v)
			}
		}
		return ""
	}
	args := rawString(raw)
	for _, k := range nameKeys {
		if _, after, ok := strings.Cut(args, k+"="); ok {
			v, _, _ := strings.Cut(after, ",")
			return v
		}
	}
	return ""
}

// promptForm reads the prompt's form from the task's doc_to_text (a Jinja
// template around {{filled_template}}) and gen_prefix.
func promptForm(docToText, genPrefix string) *run.PromptForm {
	filled := "{{filled_template}}"
	if !strings.Contains(docToText, filled) {
		filled = "{{ filled_template }}"
	}
	f := run.PromptFormOf(docToText, filled, genPrefix)
	return &f
}

// incomplete is what the results file says for the manifest's incomplete
// field (importer.Finish adds what the rows say): a --limit, documents the
// harness scored that the samples file (lines lines) lacks, and how many
// documents the task has.
func incomplete(r *results, task string, lines int) importer.Incomplete {
	in := importer.Incomplete{Unit: "documents", Name: "doc_id", Want: design.NumPrompts, Count: "%d of %d documents"}
	if r.Config.Limit != nil {
		in.Before = append(in.Before, fmt.Sprintf("run with --limit %s", strconv.FormatFloat(float64(*r.Config.Limit), 'f', -1, 64)))
	}
	if ns, ok := r.NSamples[task]; ok && ns.Original > 0 {
		in.Want = ns.Original
		if ns.Effective > lines {
			in.Before = append(in.Before, fmt.Sprintf("the harness scored %d documents but the samples file holds %d", ns.Effective, lines))
		}
	}
	return in
}

func limitNote(r *results) string {
	if r.Config.Limit == nil {
		return ""
	}
	return "run with `--limit " + strconv.FormatFloat(float64(*r.Config.Limit), 'f', -1, 64) + "`: the harness scored only the first documents"
}

// rawString renders a JSON value for notes: strings unquoted.
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}

// argValue finds a key of the harness's model_args: a "key=value,…"
// string, or (from lm-eval 0.4.10) a JSON object.
func argValue(raw json.RawMessage, keys ...string) string {
	var obj map[string]any
	if json.Unmarshal(raw, &obj) == nil {
		for _, k := range keys {
			if v, ok := obj[k].(string); ok {
				return v
			}
		}
		return ""
	}
	for _, kv := range strings.Split(rawString(raw), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		for _, want := range keys {
			if k == want {
				return v
			}
		}
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return importer.Code(s)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
