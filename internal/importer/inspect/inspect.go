// Package inspect imports an Inspect (inspect_ai) log of a Discrim-Eval task
// as a run: a .eval file (a zip of header.json and samples/*.json, members
// Deflate- or, from inspect_ai 0.3.206, Zstandard-compressed) or a .json
// log, of any version from 0.3.x on (log schema version 2). The task that
// cmd/import ships (discrim_eval.py) writes what the import needs: each
// sample's metadata holds the dataset row's decision_question_id, age,
// gender, race and fill_type.
//
// The answer text of a sample is output.completion when the log has it
// (inspect_ai 0.3.123 and later write it), else the text of the first
// choice's message (a string, or the text parts of a list of content
// parts, joined by newlines, as inspect_ai's ChatMessage.text does).
//
// When any sample's first output token carries top_logprobs, the run is a
// logprob run. Each top-logprob token is matched to an answer form (yes,
// Yes, no, No) by AnswerForm, and tokens of the same form are summed. A
// log-probability of −∞ or at most −9999 (the placeholder vLLM and
// OpenAI-compatible servers write for −∞) is probability zero. A form not
// among the listed tokens has at most the probability of the least likely
// listed one: it gets that value, as an upper bound, marked in the row's
// "bounded" list (zero instead when a zero-probability token is listed, as
// everything below it is zero too). Samples without top_logprobs in a
// logprob run are left out and counted.
//
// Otherwise it is a decision run: each epoch's answer text is one
// decision, read by run.Choices.ParseAnswer when the site is built. A log
// whose generate config asked for log-probabilities and that holds none
// (a provider that drops them: inspect_ai's OpenAI provider does when the
// model reasons) is a decision run only when most of its answers are yes
// or no, and is refused otherwise.
//
// Samples that ended in an error, that stopped at a limit, that the eval
// was to run and the log does not hold (eval.dataset.sample_ids: a
// cancelled eval), and samples whose P(yes) or P(no) is exactly zero (no
// logit), are left out: the manifest's incomplete field counts them and
// names the first few, run.LeftOutFile lists them all.
package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/importer"
	"github.com/discrimeval/leaderboard/internal/run"
)

// Import reads an Inspect log (.eval, or .json possibly gzipped) of a
// Discrim-Eval task (TaskIsDiscrimEval). intervention names the prompt
// intervention the task applied ("default" for none); the log does not
// record it in a standard place.
func Import(logPath, intervention string) (*importer.Result, error) {
	return ImportWith(logPath, Options{Intervention: intervention})
}

// Options are ImportWith's settings.
type Options struct {
	Intervention string // as Import's intervention
	// AnyTask accepts a log whose task name is not a Discrim-Eval task's
	// (a task of another name that writes the same metadata).
	AnyTask bool
	// Model, when set, is the model's id instead of eval.model's (which
	// must be one, not a local path, when Model is not set).
	Model string
}

// TaskIsDiscrimEval reports whether an Inspect task name is a Discrim-Eval
// task's: after any registry prefix ("inspect_evals/"), discrim_eval or
// discrim-eval, alone or followed by _ or - and more (discrim_eval_implicit),
// in any case.
func TaskIsDiscrimEval(task string) bool {
	name := strings.ToLower(task[strings.LastIndexAny(task, "/@")+1:])
	name = strings.ReplaceAll(name, "-", "_")
	return name == "discrim_eval" || strings.HasPrefix(name, "discrim_eval_")
}

// ImportWith is Import with Options.
func ImportWith(logPath string, o Options) (*importer.Result, error) {
	b := newBuilder(logPath)
	var hdr header
	var sum string
	var err error
	switch lower := strings.ToLower(logPath); {
	case strings.HasSuffix(lower, ".eval"):
		hdr, sum, err = readEval(logPath, b.add, func(w string) { b.warnings = append(b.warnings, w) })
	case strings.HasSuffix(lower, ".json"), strings.HasSuffix(lower, ".json.gz"):
		hdr, sum, err = readJSON(logPath, b.add)
	default:
		return nil, fileerr.New(logPath, 0, "want an Inspect log ending in .eval or .json")
	}
	if err != nil {
		return nil, err
	}
	if !o.AnyTask && !TaskIsDiscrimEval(hdr.Eval.Task) {
		where := logPath
		if strings.HasSuffix(strings.ToLower(logPath), ".eval") {
			where += ":header.json"
		}
		return nil, fileerr.New(where, 0, "task %q is not a Discrim-Eval task (discrim_eval, as cmd/import/discrim_eval.py names it): if it is one under another name, import it with --task-name-ok", hdr.Eval.Task)
	}
	return b.finish(&hdr, sum, o)
}

// header is the part of the log without samples.
type header struct {
	Status string `json:"status"`
	Eval   struct {
		EvalID      string          `json:"eval_id"`
		RunID       string          `json:"run_id"`
		Created     string          `json:"created"`
		Task        string          `json:"task"`
		TaskVersion json.RawMessage `json:"task_version"`
		Dataset     struct {
			Name      string            `json:"name"`
			Location  string            `json:"location"`
			SampleIDs []json.RawMessage `json:"sample_ids"`
		} `json:"dataset"`
		Model               string          `json:"model"`
		ModelArgs           map[string]any  `json:"model_args"`
		ModelGenerateConfig json.RawMessage `json:"model_generate_config"`
		Config              struct {
			Limit  json.RawMessage `json:"limit"`
			Epochs *int            `json:"epochs"`
		} `json:"config"`
		Revision *struct {
			Type   string `json:"type"`
			Origin string `json:"origin"`
			Commit string `json:"commit"`
			Dirty  *bool  `json:"dirty"`
		} `json:"revision"`
		Packages map[string]string `json:"packages"`
	} `json:"eval"`
	// Plan.Config is the generate config where logs before
	// eval.model_generate_config kept it.
	Plan struct {
		Config json.RawMessage `json:"config"`
	} `json:"plan"`
	Stats struct {
		ModelUsage map[string]usage `json:"model_usage"`
	} `json:"stats"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

type usage struct {
	InputTokens     int64 `json:"input_tokens"`
	OutputTokens    int64 `json:"output_tokens"`
	TotalTokens     int64 `json:"total_tokens"`
	ReasoningTokens int64 `json:"reasoning_tokens"`
}

type sample struct {
	ID       json.RawMessage            `json:"id"`
	Epoch    int                        `json:"epoch"`
	Input    json.RawMessage            `json:"input"`
	Target   json.RawMessage            `json:"target"` // read only to check it
	Messages []message                  `json:"messages"`
	Metadata map[string]json.RawMessage `json:"metadata"`
	Output   struct {
		// Absent (nil) in logs older than inspect_ai 0.3.123.
		Completion *string  `json:"completion"`
		Error      *string  `json:"error"`
		Choices    []choice `json:"choices"`
	} `json:"output"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	// ErrorRetries are the errors of earlier tries (--retry-on-error).
	ErrorRetries []json.RawMessage `json:"error_retries"`
	// Limit is set when the sample stopped at a limit (tokens, time,
	// messages…) before it finished: {type, limit, reason} (limitText).
	Limit       json.RawMessage   `json:"limit"`
	Attachments map[string]string `json:"attachments"`
}

type choice struct {
	Message    message `json:"message"`
	StopReason string  `json:"stop_reason"`
	Logprobs   *struct {
		Content []struct {
			Token       string       `json:"token"`
			TopLogprobs []topLogprob `json:"top_logprobs"`
		} `json:"content"`
	} `json:"logprobs"`
}

type topLogprob struct {
	Token   string         `json:"token"`
	Logprob importer.Float `json:"logprob"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// gathered is one sample id: a row of the run, with its epochs.
type gathered struct {
	pos    importer.Position
	id     string
	row    run.Row
	cell   design.Prompt
	epochs map[int]string // answer text by epoch
	first  int            // lowest epoch seen: its transcript and log-probabilities are kept
	hasTop bool
}

// builder gathers samples as they are read, one at a time.
type builder struct {
	path    string
	byID    map[string]*gathered
	byCell  map[design.Prompt]*gathered
	order   []*gathered
	variant run.Variant
	errored []string                        // labels with the error, for a log of nothing else
	left    []run.LeftOut                   // samples left out as read: errors, limits
	seen    map[sampleKey]importer.Position // where each sample was read
	// warnings are the log's, as read: members not read (readEval).
	warnings []string
	counts   counts
	form     *run.PromptForm // of the first sample read
}

func newBuilder(path string) *builder {
	return &builder{path: path, byID: map[string]*gathered{}, byCell: map[design.Prompt]*gathered{}, seen: map[sampleKey]importer.Position{}}
}

// sampleKey is a sample id and epoch.
type sampleKey struct {
	id    string
	epoch int
}

// counts are what the notes report.
type counts struct {
	samples, fromChoices, refusals, empty, zeroForms, boundedForms, retried int
}

func (b *builder) add(pos importer.Position, s *sample) error {
	b.counts.samples++
	id := s.id()
	// A sample twice, under two members' names or twice in a .json
	// log's list, ended in an error or not: one of the two is not the
	// harness's.
	if prev, dup := b.seen[sampleKey{id, s.Epoch}]; dup {
		return pos.Errorf("stored twice: also at %s:%d", prev.Path, prev.Line)
	}
	b.seen[sampleKey{id, s.Epoch}] = pos
	if len(s.ErrorRetries) > 0 && s.Error == nil {
		b.counts.retried++
	}
	limit, limited := s.limitText()
	if s.Error != nil || limited {
		var row *run.Row
		if r, err := s.row(); err == nil {
			row = &r
		}
		if s.Error != nil {
			b.errored = append(b.errored, pos.Label+" ("+importer.Shorten(importer.Detail(s.Error.Message), 80)+")")
			b.left = append(b.left, importer.LeftOutOf(pos, row, run.LeftError, s.Error.Message))
			return nil
		}
		b.left = append(b.left, importer.LeftOutOf(pos, row, run.LeftLimit, limit))
		return nil
	}
	if s.Epoch < 1 {
		return pos.Errorf("epoch %d: want 1 or more", s.Epoch)
	}
	row, err := s.row()
	if err != nil {
		return pos.Errorf("%v", err)
	}
	cell, err := run.ParsePrompt(&row)
	if err != nil {
		return pos.Errorf("metadata: %v", err)
	}
	if b.form == nil {
		b.form = s.promptForm(row.FilledTemplate)
	}
	g := b.byID[id]
	if g == nil {
		if b.variant == "" {
			b.variant = run.Variant(row.FillType)
		}
		if run.Variant(row.FillType) != b.variant {
			return pos.Errorf("fill_type %q after samples of fill_type %q (mixed variants)", row.FillType, b.variant)
		}
		if prev := b.byCell[cell]; prev != nil {
			return pos.Errorf("question %d, %s is also sample %s (%s:%d)", cell.Q, cell.Label(), prev.id, prev.pos.Path, prev.pos.Line)
		}
		g = &gathered{pos: pos, id: id, row: row, cell: cell, epochs: map[int]string{}}
		b.byID[id], b.byCell[cell] = g, g
		b.order = append(b.order, g)
	} else if cell != g.cell {
		return pos.Errorf("metadata differs from epoch %d of the same sample (question %d, %s)", g.first, g.cell.Q, g.cell.Label())
	}
	text, fromChoices := s.answer()
	if fromChoices {
		b.counts.fromChoices++
	}
	if s.refused() {
		b.counts.refusals++
		if text == "" && s.Output.Error != nil {
			text = *s.Output.Error
		}
	}
	if strings.TrimSpace(text) == "" {
		b.counts.empty++
	}
	g.epochs[s.Epoch] = run.Shorten(text, run.MaxUnparsedRunes)
	if g.first != 0 && s.Epoch > g.first {
		return nil
	}
	// The lowest epoch so far: its transcript and log-probabilities.
	g.first = s.Epoch
	g.row.Messages = s.transcript()
	g.row.Response = text
	g.row.Logprobs, g.row.Bounded, g.hasTop = nil, nil, false
	if top := s.topLogprobs(); top != nil {
		lps, bounded, zero, err := logprobs(top)
		if err != nil {
			return pos.Errorf("%v", err)
		}
		g.row.Logprobs, g.row.Bounded, g.hasTop = lps, bounded, true
		b.counts.zeroForms += zero
		b.counts.boundedForms += len(bounded)
	}
	return nil
}

func (b *builder) finish(hdr *header, sum string, o Options) (*importer.Result, error) {
	if len(b.order) == 0 {
		if len(b.errored) > 0 {
			return nil, fileerr.New(b.path, 0, "every sample ended in an error: %s", importer.List(b.errored, 5))
		}
		if len(b.left) > 0 {
			return nil, fileerr.New(b.path, 0, "every sample stopped at a limit before it answered: %s (%s)", b.left[0].ID, b.left[0].Detail)
		}
		return nil, fileerr.New(b.path, 0, "the log holds no samples")
	}
	logprob := false
	for _, g := range b.order {
		logprob = logprob || g.hasTop
	}
	// A log that asked for log-probabilities and got none: a provider
	// that drops them (inspect_ai's OpenAI provider does, with only a
	// warning, when the model reasons). It is a decision run only when
	// its answers are decisions.
	var warnings []string
	asked := askedLogprobs(hdr)
	if !logprob && asked != "" {
		answers, parsed := 0, 0
		for _, g := range b.order {
			for _, a := range g.epochs {
				answers++
				if _, ok := run.DefaultChoices.ParseAnswer(a); ok {
					parsed++
				}
			}
		}
		if 2*parsed <= answers {
			return nil, fileerr.New(b.path, 0, "the eval asked for log-probabilities (%s) and no sample has any: the provider returned none "+
				"(inspect_ai's OpenAI provider drops them, with only a warning, when the model reasons: the o-series, gpt-5), and the answers are no decisions either "+
				"(%d of %d are yes or no, %d empty). For log-probabilities, run a model that does not reason (or turn reasoning off: --reasoning-effort none where the model allows it); "+
				"for a decision run, drop --logprobs and --top-logprobs, give the reasoning room (--max-tokens 4096) and sample several answers: "+
				"inspect eval cmd/import/discrim_eval.py --model %s --epochs 5 --max-tokens 4096", asked, parsed, answers, b.counts.empty, hdr.Eval.Model)
		}
		w := fmt.Sprintf("the eval asked for log-probabilities (%s) and no sample has any (the provider returned none): imported as a decision run, as %d of its %d answers are yes or no", asked, parsed, answers)
		warnings = append(warnings, w)
	}
	sort.Slice(b.order, func(i, j int) bool {
		x, y := b.order[i].cell, b.order[j].cell
		if x.Q != y.Q {
			return x.Q < y.Q
		}
		return x.Index() < y.Index()
	})
	var rows []run.Row
	var kept []*gathered
	left := slices.Clone(b.left)
	maxEpochs, short := 0, 0
	for _, g := range b.order {
		maxEpochs = max(maxEpochs, len(g.epochs))
	}
	for _, g := range b.order {
		if logprob && !g.hasTop {
			left = append(left, importer.LeftOutOf(g.pos, &g.row, run.LeftNoLogprobs, "no top_logprobs on the first output token"))
			continue
		}
		if !logprob {
			epochs := make([]int, 0, len(g.epochs))
			for e := range g.epochs {
				epochs = append(epochs, e)
			}
			sort.Ints(epochs)
			for _, e := range epochs {
				g.row.Decisions = append(g.row.Decisions, g.epochs[e])
			}
			if len(g.epochs) < maxEpochs {
				short++
			}
		}
		rows = append(rows, g.row)
		kept = append(kept, g)
	}
	if len(rows) == 0 {
		return nil, fileerr.New(b.path, 0, "no sample has top_logprobs on its first output token")
	}
	left = append(left, b.notRun(hdr)...)
	m, err := manifest(b.path, sum, o, hdr, b.variant, logprob, maxEpochs, b.counts)
	if err != nil {
		return nil, err
	}
	m.PromptForm = b.form
	in := importer.Incomplete{Unit: "samples", Name: "sample", Want: design.NumPrompts, Count: "%d of the dataset's %d rows", Left: left}
	if hdr.Status != "success" {
		in.Before = append(in.Before, "the eval's status is "+strconv.Quote(hdr.Status))
	}
	if l := string(hdr.Eval.Config.Limit); l != "" && l != "null" {
		in.Before = append(in.Before, "run with limit "+l)
	}
	if short > 0 {
		in.After = append(in.After, fmt.Sprintf("%d samples have fewer than %d epochs", short, maxEpochs))
	}
	res, err := importer.Finish(m, rows, func(i int) importer.Position { return kept[i].pos }, in)
	if err != nil {
		return nil, err
	}
	if len(warnings) > 0 {
		m.Notes += importer.Bullets(warnings...)
	}
	res.Warnings = append(b.warnings, warnings...)
	if logprob {
		note, matters := boundNote(m, res.Rows)
		m.Notes += note
		if matters > 0 {
			res.Warnings = append(res.Warnings, strings.TrimPrefix(strings.TrimSpace(note), "- "))
		}
	}
	m.Notes += usageTable(hdr)
	return res, nil
}

// askedLogprobs says how the eval asked for log-probabilities ("logprobs
// true, top_logprobs 20"), from its generate config (eval's
// model_generate_config, or plan.config in older logs); "" when it did
// not.
func askedLogprobs(hdr *header) string {
	var cfg struct {
		Logprobs    *bool `json:"logprobs"`
		TopLogprobs *int  `json:"top_logprobs"`
	}
	var parts []string
	for _, raw := range []json.RawMessage{hdr.Eval.ModelGenerateConfig, hdr.Plan.Config} {
		cfg.Logprobs, cfg.TopLogprobs = nil, nil
		if json.Unmarshal(raw, &cfg) != nil {
			continue
		}
		if cfg.Logprobs != nil && *cfg.Logprobs {
			parts = append(parts, "logprobs true")
		}
		if cfg.TopLogprobs != nil && *cfg.TopLogprobs > 0 {
			parts = append(parts, fmt.Sprintf("top_logprobs %d", *cfg.TopLogprobs))
		}
		if len(parts) > 0 {
			break
		}
	}
	return strings.Join(parts, ", ")
}

// notRun lists the samples the eval was to run (eval.dataset.sample_ids,
// each for eval.config.epochs) that the log does not hold: those a
// cancelled or interrupted eval never ran.
func (b *builder) notRun(hdr *header) []run.LeftOut {
	epochs := 1
	if e := hdr.Eval.Config.Epochs; e != nil && *e > 0 {
		epochs = *e
	}
	var out []run.LeftOut
	for _, raw := range hdr.Eval.Dataset.SampleIDs {
		id := (&sample{ID: raw}).id()
		for e := 1; e <= epochs; e++ {
			if _, ok := b.seen[sampleKey{id, e}]; !ok {
				out = append(out, run.LeftOut{ID: id, Epoch: e, Reason: run.LeftNotRun})
			}
		}
	}
	return out
}

// usageTable lists the log's token usage per model.
func usageTable(hdr *header) string {
	if len(hdr.Stats.ModelUsage) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n### Token usage\n\n| model | input | output | reasoning | total |\n|---|---:|---:|---:|---:|\n")
	for _, k := range importer.SortedKeys(hdr.Stats.ModelUsage) {
		u := hdr.Stats.ModelUsage[k]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", importer.Code(k), u.InputTokens, u.OutputTokens, u.ReasoningTokens, u.TotalTokens)
	}
	return b.String()
}

// boundNote says how many rows have forms taken at their top-k bound, and
// in how many (matters) the bound moves the logit by more than
// run.BoundTolerance.
func boundNote(m *run.Manifest, rows []run.Row) (note string, matters int) {
	var n int
	for i := range rows {
		if len(rows[i].Bounded) == 0 {
			continue
		}
		n++
		if c, err := m.ToCell(i+1, &rows[i]); err == nil && c.BoundGap > run.BoundTolerance {
			matters++
		}
	}
	if n == 0 {
		return "", 0
	}
	return fmt.Sprintf("- %d rows have answer forms missing from top_logprobs, taken at the least likely listed probability (an upper bound; their answer mass counts the listed forms only); in %d of them the bound moves the logit by more than %g (rerun with a larger --top-logprobs to remove it)\n", n, matters, run.BoundTolerance), matters
}

// limitText says which limit stopped the sample ("token limit 16: …"),
// and whether one did: the log's {type, limit, reason}, or a string.
func (s *sample) limitText() (string, bool) {
	raw := bytes.TrimSpace(s.Limit)
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var l struct {
		Type   string          `json:"type"`
		Limit  json.RawMessage `json:"limit"`
		Reason string          `json:"reason"`
	}
	if json.Unmarshal(raw, &l) != nil {
		var str string
		if json.Unmarshal(raw, &str) == nil {
			return str + " limit", true
		}
		return "limit " + importer.Shorten(string(raw), 60), true
	}
	why := strings.TrimSpace(l.Type + " limit " + string(l.Limit))
	if l.Reason != "" {
		why += ": " + l.Reason
	}
	return why, true
}

// rowFields are the metadata keys a row is read from.
var rowFields = []string{"decision_question_id", "age", "gender", "race", "fill_type", "filled_template"}

// row reads the dataset row from the sample's metadata.
func (s *sample) row() (run.Row, error) {
	var r run.Row
	md := s.Metadata
	for _, k := range rowFields[:5] { // filled_template is optional
		if _, ok := md[k]; !ok {
			return r, fmt.Errorf("metadata has no %s (an import needs the dataset row's demographics in each sample's metadata, as cmd/import/discrim_eval.py writes them)", k)
		}
	}
	q, err := importer.QuestionID(md["decision_question_id"])
	if err != nil {
		return r, fmt.Errorf("metadata %v", err)
	}
	age, err := importer.Age(md["age"])
	if err != nil {
		return r, fmt.Errorf("metadata %v", err)
	}
	r.DecisionQuestionID, r.Age = &q, &age
	for _, f := range []struct {
		key string
		dst *string
	}{{"gender", &r.Gender}, {"race", &r.Race}, {"fill_type", &r.FillType}} {
		if err := json.Unmarshal(md[f.key], f.dst); err != nil {
			return r, fmt.Errorf("metadata %s %s is not a string", f.key, importer.Shorten(string(md[f.key]), 40))
		}
	}
	if v := run.Variant(r.FillType); v != run.Explicit && v != run.Implicit {
		return r, fmt.Errorf("metadata fill_type %q: want explicit or implicit", r.FillType)
	}
	// The scenario text: metadata.filled_template if the task kept it, else
	// the input when it is a string, else the first user message.
	if raw, ok := md["filled_template"]; ok && json.Unmarshal(raw, &r.FilledTemplate) == nil && r.FilledTemplate != "" {
		return r, nil
	}
	if json.Unmarshal(s.Input, &r.FilledTemplate) == nil && r.FilledTemplate != "" {
		r.FilledTemplate = s.resolve(r.FilledTemplate)
		return r, nil
	}
	var msgs []message
	json.Unmarshal(s.Input, &msgs)
	for _, m := range append(msgs, s.Messages...) {
		if m.Role == "user" {
			r.FilledTemplate = s.text(m.Content, true)
			return r, nil
		}
	}
	return r, fmt.Errorf("no scenario text: no metadata.filled_template, string input or user message")
}

// answer is the sample's answer text: output.completion, else (logs
// before inspect_ai 0.3.123) the first choice's message text.
func (s *sample) answer() (text string, fromChoices bool) {
	if c := s.Output.Completion; c != nil && *c != "" {
		return s.resolve(*c), false
	}
	if len(s.Output.Choices) == 0 {
		return "", false
	}
	return s.text(s.Output.Choices[0].Message.Content, false), s.Output.Completion == nil
}

// refused reports a provider refusal: a content-filter stop or the
// output's error (which inspect_ai sets for content moderation).
func (s *sample) refused() bool {
	if s.Output.Error != nil && *s.Output.Error != "" {
		return true
	}
	return len(s.Output.Choices) > 0 && s.Output.Choices[0].StopReason == "content_filter"
}

// transcript flattens the messages: content-part lists become their text
// parts joined by newlines; reasoning is kept, marked; other parts (images,
// audio) are named.
func (s *sample) transcript() []run.Message {
	out := make([]run.Message, 0, len(s.Messages))
	for _, m := range s.Messages {
		out = append(out, run.Message{Role: m.Role, Content: s.text(m.Content, true)})
	}
	return out
}

// text is a message content's text: a string, or the text parts of a
// list joined by newlines (ChatMessage.text); with all, reasoning and
// other parts are kept too, marked.
// promptForm reads the prompt's form from the first user message (the
// scenario text filled, then the question) and, when the model's answer
// follows another assistant message (a prefill), that message.
func (s *sample) promptForm(filled string) *run.PromptForm {
	var user, prefix string
	var assistant []string
	for _, m := range s.Messages {
		switch m.Role {
		case "user":
			if user == "" {
				user = s.text(m.Content, true)
			}
		case "assistant":
			assistant = append(assistant, s.text(m.Content, false))
		}
	}
	if len(assistant) > 1 {
		prefix = assistant[0]
	}
	if user == "" {
		json.Unmarshal(s.Input, &user)
	}
	f := run.PromptFormOf(user, filled, prefix)
	return &f
}

func (s *sample) text(raw json.RawMessage, all bool) string {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return s.resolve(str)
	}
	var parts []struct {
		Type      string `json:"type"`
		Text      string `json:"text"`
		Reasoning string `json:"reasoning"`
	}
	json.Unmarshal(raw, &parts)
	var texts []string
	for _, p := range parts {
		switch {
		case p.Type == "text":
			texts = append(texts, s.resolve(p.Text))
		case !all:
		case p.Type == "reasoning":
			texts = append(texts, "[reasoning]\n"+s.resolve(p.Reasoning)+"\n[/reasoning]")
		default:
			texts = append(texts, "["+p.Type+"]")
		}
	}
	return strings.Join(texts, "\n")
}

// resolve replaces an attachment:// reference (Inspect moves large content
// out of messages) by the attached text.
func (s *sample) resolve(text string) string {
	if ref, ok := strings.CutPrefix(text, "attachment://"); ok {
		if a, ok := s.Attachments[ref]; ok {
			return a
		}
	}
	return text
}

func (s *sample) topLogprobs() []topLogprob {
	if len(s.Output.Choices) == 0 || s.Output.Choices[0].Logprobs == nil || len(s.Output.Choices[0].Logprobs.Content) == 0 {
		return nil
	}
	return s.Output.Choices[0].Logprobs.Content[0].TopLogprobs
}

// Placeholder is the log-probability at or below which a value stands for
// −∞ (vLLM and OpenAI-compatible servers write −9999.0).
const Placeholder = -9999.0

// logprobs maps the first token's top_logprobs to the answer forms; see
// the package comment for the rule. zero counts forms of probability zero.
func logprobs(top []topLogprob) (lps run.Logprobs, bounded []string, zero int, err error) {
	probs := map[string]float64{}
	seen := map[string]bool{}
	least, zeroListed := math.Inf(1), false
	for _, t := range top {
		lp := float64(t.Logprob)
		if math.IsNaN(lp) || lp > 0 {
			return nil, nil, 0, fmt.Errorf("top_logprobs: token %q has log-probability %v: want a number ≤ 0", t.Token, lp)
		}
		isZero := lp <= Placeholder
		if isZero {
			zeroListed = true
		} else {
			least = math.Min(least, lp)
		}
		f := AnswerForm(t.Token)
		if f == "" {
			continue
		}
		seen[f] = true
		if !isZero {
			probs[f] += math.Exp(lp)
		}
	}
	if math.IsInf(least, 1) {
		return nil, nil, 0, fmt.Errorf("top_logprobs lists no token with a probability above zero")
	}
	lps = run.Logprobs{}
	for _, f := range run.DefaultChoices.Forms() {
		switch {
		case probs[f] > 0:
			lps[f] = math.Log(probs[f])
		case seen[f] || zeroListed:
			lps[f] = math.Inf(-1)
			zero++
		default:
			lps[f] = least
			bounded = append(bounded, f)
		}
	}
	return lps, bounded, zero, nil
}

// AnswerForm returns the answer form (yes, Yes, no, No) a token spells,
// or "". Leading white space, the byte-level BPE and SentencePiece space
// markers (Ġ, ▁) and opening quotes (" “ ' ‘ `) are dropped, and trailing
// white space; the rest must equal the form, case included.
func AnswerForm(token string) string {
	t := token
	for {
		trimmed := strings.TrimLeftFunc(t, unicode.IsSpace)
		trimmed = strings.TrimLeft(trimmed, "\"“'‘`")
		trimmed = strings.TrimPrefix(strings.TrimPrefix(trimmed, "Ġ"), "▁")
		if trimmed == t {
			break
		}
		t = trimmed
	}
	t = strings.TrimRightFunc(t, unicode.IsSpace)
	for _, f := range run.DefaultChoices.Forms() {
		if t == f {
			return f
		}
	}
	return ""
}

func manifest(logPath, sum string, o Options, hdr *header, variant run.Variant, logprob bool, epochs int, n counts) (*run.Manifest, error) {
	e := &hdr.Eval
	if e.Model == "" {
		return nil, fileerr.New(logPath, 0, "eval.model is empty")
	}
	model := e.Model
	if o.Model != "" {
		model = o.Model
	}
	provider, name, _ := strings.Cut(model, "/")
	if name == "" {
		provider, name = "unknown", model
	}
	if o.Model == "" && (importer.LocalPath(name) || importer.LocalPath(model)) {
		return nil, fileerr.New(logPath, 0, "eval.model %q names a local path, not a model: give the model's name with --model PROVIDER/NAME", model)
	}
	created, err := time.Parse(time.RFC3339, e.Created)
	if err != nil {
		return nil, fileerr.New(logPath, 0, "eval.created %q is not an RFC 3339 time", importer.Shorten(e.Created, 60))
	}
	revision, _ := e.ModelArgs["revision"].(string)
	dataset := e.Dataset.Name
	if dataset == "" {
		dataset = "Anthropic/discrim-eval"
	}
	scoring := run.Decision
	if logprob {
		scoring = run.Logprob
	}
	var harnessCommit string
	var revNote string
	if r := e.Revision; r != nil {
		harnessCommit = r.Commit
		dirty := ""
		if r.Dirty != nil && *r.Dirty {
			dirty = ", with uncommitted changes (dirty)"
		}
		origin := importer.Code(r.Origin)
		switch {
		case r.Origin == "":
			origin = "(no origin)"
		case importer.LocalPath(r.Origin):
			// A checkout cloned from a folder: its path is no place anyone
			// else can find the code.
			origin = "(a local folder, not recorded)"
		}
		revNote = "task code: " + r.Type + " " + origin + " at " + importer.Code(r.Commit) + dirty
	}
	method := "decision run: each epoch's answer is one decision. " + run.AnswerRule
	if logprob {
		method = "logprob run: answer forms from the first output token's top_logprobs (leading spaces, Ġ/▁ and opening quotes dropped; tokens of the same form summed; a log-probability of −∞ or ≤ −9999 is probability zero; a form missing from the list is taken at the least likely listed probability, an upper bound)"
		if epochs > 1 {
			method += fmt.Sprintf("; %d epochs, log-probabilities from the first", epochs)
		}
	}
	var notes strings.Builder
	notes.WriteString("Imported from an Inspect log with `cmd/import inspect`.\n\n")
	notes.WriteString(importer.Bullets(
		"log: "+importer.Code(filepath.Base(logPath))+", sha256 "+importer.Code(sum)+", status "+importer.Code(hdr.Status),
		"task: "+importer.Code(e.Task)+", version "+importer.Code(strings.Trim(string(e.TaskVersion), `"`))+", eval "+importer.Code(e.EvalID)+", run "+importer.Code(e.RunID),
		revNote,
		"created "+importer.Code(e.Created)+" = "+importer.UTCDate(created)+" UTC",
		method,
		importer.If(n.fromChoices > 0, fmt.Sprintf("%d answers read from the first choice's message (the log has no output.completion: inspect_ai before 0.3.123)", n.fromChoices)),
		importer.If(n.refusals > 0, fmt.Sprintf("%d answers were refused by the provider (content filter or output error)", n.refusals)),
		importer.If(n.retried > 0, fmt.Sprintf("%d samples ended in an error and succeeded when retried (--retry-on-error): they are the last try's", n.retried)),
		importer.If(n.empty > 0, fmt.Sprintf("%d answers are empty", n.empty)),
		importer.If(n.zeroForms > 0, fmt.Sprintf("%d answer forms have probability zero (−∞, or the −9999 placeholder, in top_logprobs)", n.zeroForms)),
		importer.If(o.Model != "", "model: "+importer.Code(o.Model)+" given to the import (--model); the log says "+logModel(e.Model)),
		importer.If(len(e.ModelArgs) > 0, "model args: "+importer.Code(importer.ScrubPaths(compactJSON(e.ModelArgs)))),
		importer.If(len(e.ModelGenerateConfig) > 2, "generate config: "+importer.Code(importer.ScrubPaths(compactRaw(e.ModelGenerateConfig)))),
		"open_weights is guessed from the provider "+importer.Code(provider)+": check it",
		importer.If(hdr.Error != nil, "the eval ended in an error: "+errMessage(hdr)),
	))
	return &run.Manifest{
		Model: run.Model{
			Name: name, ID: model, Provider: provider, Revision: revision,
			OpenWeights: localProviders[provider],
		},
		Benchmark:    "discrim_eval",
		Variant:      variant,
		Intervention: o.Intervention,
		Scoring:      scoring,
		Choices:      run.DefaultChoices,
		Harness:      run.Harness{Name: "inspect_ai", Version: e.Packages["inspect_ai"], Commit: harnessCommit},
		Dataset:      run.Dataset{Name: dataset},
		RunDate:      importer.UTCDate(created),
		Notes:        notes.String(),
	}, nil
}

// logModel is eval.model for the notes: a local path is not recorded.
func logModel(model string) string {
	_, name, _ := strings.Cut(model, "/")
	if importer.LocalPath(model) || importer.LocalPath(name) {
		return "a local path"
	}
	return importer.Code(model)
}

// Inspect providers that run weights locally.
var localProviders = map[string]bool{
	"hf": true, "vllm": true, "ollama": true, "llama-cpp-python": true, "sglang": true,
	"transformer_lens": true, "nnterp": true,
}

func errMessage(h *header) string {
	if h.Error == nil {
		return ""
	}
	msg, _, _ := strings.Cut(h.Error.Message, "\n")
	return importer.Code(msg)
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func compactRaw(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
