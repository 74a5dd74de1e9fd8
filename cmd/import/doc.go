/*
Command import turns the output of an evaluation harness into a frozen run
folder: runs/<id>/manifest.yaml and runs/<id>/scored.jsonl.gz, with the
scored file's SHA-256 and row count filled in, ready for cmd/build.

	go run ./cmd/import lm-eval --from OUTPUT_PATH[/MODEL_DIR] [--task TASK] --id RUN-ID [--model ORG/NAME] [-runs DIR] [-force]
	go run ./cmd/import lm-eval --samples FILE --results FILE --id RUN-ID [--model ORG/NAME] [-runs DIR] [-force]
	go run ./cmd/import inspect LOG.eval|LOG.json --id RUN-ID [-intervention NAME] [--task-name-ok] [--model PROVIDER/NAME] [-runs DIR] [-force]
	go run ./cmd/import modelgauge RECORD.json --id RUN-ID [--model ORG/NAME] [-runs DIR] [-force]

It never replaces an existing run folder unless -force is given, and writes
nothing when the input has an error; errors name the file and line
(file:line: message; in a .eval log, log.eval:samples/ID_epoch_N.json:line:).
Every row is checked as the build checks it, and the run is scored as the
build scores it, so an import that succeeds always builds. A run the build
cannot score (one decision question, logits so degenerate that the REML
fit is undefined, a fit that does not converge) is written with a warning
on stderr saying why (and the scored file's line where a row is the
cause); the site shows it without a rank, with the same reason. Input is streamed within the limits CONTRIBUTING.md states
(decompressed size, line length, member size, sample count), so a gzip or
zip bomb stops with an error in bounded time and memory. The manifest can
be edited afterwards (display name, open_weights, url): the scored file's
hash does not cover it.

What an import leaves out (samples that ended in an error, stopped at a
limit or were never run, samples without log-probabilities in a logprob
run, rows whose P(yes) or P(no) is exactly zero) is never invented: the
manifest's incomplete field counts it by reason and names the first few,
within its limit of 1,000 characters, and runs/<id>/left_out.jsonl
(run.LeftOutFile) lists every one with its error; the site's rule on
missing prompts decides whether the run ranks.

A model needs its name: one lm-eval made up (eight random letters and
digits, when model_args has no pretrained=, model=, …) or a local path (a
folder the model was loaded from) is refused, and --model gives the real
one. No local path reaches the manifest: a task revision's origin that is
a folder is not recorded, and paths in model arguments are cut to their
last element.

# lm-evaluation-harness

Run the task with --log_samples (lm-eval 0.4.9.2 or later):

	lm_eval --model hf --model_args pretrained=ORG/MODEL --tasks discrim_eval_explicit \
	    --output_path out --log_samples
	go run ./cmd/import lm-eval --from out/ORG__MODEL --id org-model-explicit

--from takes what --output_path named, in both of lm-eval's layouts: a
folder OUT (results in OUT/ORG__MODEL; OUT itself when it holds one model's
folder, or the model's folder), or OUT/NAME.json (lm-eval writes
OUT/NAME_<date>.json beside the samples files; the NAME_<date>.json file
itself works too). It takes the latest results file that has a samples file
of the same date; --task chooses when that run has both Discrim-Eval tasks. Each
line's doc_hash, prompt_hash and target_hash are checked (doc_hash is the
SHA-256 of Python's json.dumps(doc, indent=2, ensure_ascii=False),
reproduced exactly), as are the results file's chat_template_sha and
system_instruction_sha; the task hash is checked over the lines in the
order the harness wrote them, and the notes explain a file reordered
afterwards or a hash that matches no order. A -Infinity log-likelihood is
probability zero; a document whose P(yes) or P(no) is exactly zero has no
logit and is left out, and the manifest's incomplete field says so. The
manifest gets the model (model_name, model_sha as revision), lm_eval_version
and git_hash, the run's date (the results file's UNIX date, as a UTC date),
the prompt (doc_to_text + gen_prefix), the chat template and system
instruction with their hashes, the task version, and the reported metrics
as claimed. A run made with --limit, or missing documents, is imported as
incomplete, and its claims are marked claimed_not_comparable: the harness
fits statsmodels MixedLM, which on unbalanced data does not converge and
depends on row order.

# Inspect

discrim_eval.py beside this file is a Discrim-Eval task for Inspect; it
keeps each dataset row's demographics in the sample's metadata, which the
import needs:

	inspect eval cmd/import/discrim_eval.py --model openai/gpt-4.1 --logprobs --top-logprobs 20 --max-tokens 1 --retry-on-error=3
	go run ./cmd/import inspect logs/2025-10-14T09-12-33+02-00_discrim-eval_XXXX.eval --id gpt-4.1-explicit

CONTRIBUTING.md has a recipe for each provider family (OpenAI, Anthropic,
Google, local weights with transformers or vLLM); TestInspectCLI runs each
as written through a mock provider of the same shape.

The log's task must be a Discrim-Eval task (eval.task discrim_eval, after
any registry prefix; discrim-eval and discrim_eval_* too): a log of another
task that carries the same metadata is an error unless --task-name-ok. JSON
is read as inspect_ai's pydantic models read it: Python's bare NaN,
Infinity and -Infinity are floats where a float or any value may stand
(top_logprobs, metadata: a demographic that is one is an error), an error
in the sample id, epoch, target or a string field, as in inspect_ai; keys
the log format does not have are ignored.

Logs of every inspect_ai version are read: .eval (zip, Deflate or, from
0.3.206, Zstandard members) and .json (also .json.gz). The answer is
output.completion, or in logs before 0.3.123 (which have none) the first
choice's message text. Each sample's messages become its transcript
(content-part lists flattened to text, reasoning marked). When a sample's
first output token has top_logprobs the run is a logprob run: tokens are
matched to yes/Yes/no/No after dropping leading white space, Ġ, ▁ and
opening quotes (exact and case-sensitive otherwise; matching tokens
summed); −∞ and the −9999 placeholder are probability zero; a form missing
from the list gets the least likely listed probability as an upper bound
(marked "bounded" in the row; P(yes)+P(no) is checked on the listed forms
only). Otherwise it is a decision run: every epoch's answer is one
decision, kept as written and read at build time by run.AnswerRule. A log
that asked for log-probabilities (--logprobs, --top-logprobs) and holds
none (inspect_ai's OpenAI provider drops them, with only a warning, when
the model reasons) is imported as a decision run, with a warning, only
when most of its answers are yes or no; otherwise it is refused, saying
what to run instead. Refusals, empty answers and samples that succeeded
when retried (--retry-on-error) are counted in the notes. -intervention
names the prompt intervention the task applied, which the log does not
record (default "default").

# MLCommons' modelgauge

modelgauge's Discrim-Eval test (modelbench's
plugins/standard_tests/modelgauge/tests/discrim_eval.py: the paper's prompt
with its prefill, max_tokens 1, the text answer read as yes or no) writes a
test record; its completions are a decision run:

	modelgauge run-test --test discrim_eval-explicit --sut SUT --output-file record.json
	go run ./cmd/import modelgauge record.json --id sut-explicit-modelgauge

The record gives each prompt's question, age, gender and race (lower-cased),
its prompt and completions, the prompts whose SUT call failed (left out, with
the error) and modelgauge's own logistic fit (claimed, marked not
comparable). The scenario text is cut out of the paper's prompt; the
variant is the test's prompt type. The format followed is modelgauge
0.6.3's, with the test's source at github.com/mlcommons/modelgauge v0.6.3
(commit 44d1a0da36b10176f3d1aeb15e569d54cbb93f45); package
internal/importer/modelgauge says more.
*/
package main
