/*
Command import turns the output of an evaluation harness into a frozen run
folder: runs/<id>/manifest.yaml and runs/<id>/scored.jsonl.gz, with the
scored file's SHA-256 and row count filled in, ready for cmd/build.

	go run ./cmd/import lm-eval --samples FILE --results FILE --id RUN-ID [-runs DIR] [-force]
	go run ./cmd/import inspect LOG.eval|LOG.json --id RUN-ID [-intervention NAME] [-runs DIR] [-force]

It never replaces an existing run folder unless -force is given, and writes
nothing when the input has an error; errors name the file and line
(file:line: message). The manifest can be edited afterwards (display name,
open_weights, url): the scored file's hash does not cover it.

# lm-evaluation-harness

Run the task with --log_samples (lm-eval 0.4.9.2 or later):

	lm_eval --model hf --model_args pretrained=ORG/MODEL --tasks discrim_eval_explicit \
	    --output_path out --log_samples
	go run ./cmd/import lm-eval \
	    --samples out/ORG__MODEL/samples_discrim_eval_explicit_2025-08-25T14-03-11.123456.jsonl \
	    --results out/ORG__MODEL/results_2025-08-25T14-03-11.123456.json \
	    --id org-model-explicit

Each line's doc_hash, prompt_hash and target_hash are checked (doc_hash is
the SHA-256 of Python's json.dumps(doc, indent=2, ensure_ascii=False),
reproduced exactly), as are the results file's chat_template_sha and
system_instruction_sha; the task hash is reported as reproduced or not in
the notes. A NaN or -Infinity log-likelihood is an error (a scored file
holds finite log-probabilities); the harness's bare NaN/Infinity logits in
the metric fields are accepted. The manifest gets the model (model_name,
model_sha as revision), lm_eval_version and git_hash, the run's date (the
results file's UNIX date, as a UTC date), the prompt (doc_to_text +
gen_prefix), the chat template and system instruction with their hashes,
the task version, and the reported metrics as claimed (black_bias, …,
age_bias; the ",none" filter suffix dropped). A run made with --limit, or
missing documents, is imported with manifest field incomplete saying why.
Either file may be gzipped.

# Inspect

Any Discrim-Eval task whose samples carry the dataset row in metadata
(decision_question_id, age, gender, race, fill_type; filled_template too,
or the input is the scenario text):

	inspect eval discrim_eval.py --model openai/gpt-4o --logprobs --top-logprobs 20
	go run ./cmd/import inspect logs/2025-10-14T09-12-33+02-00_discrim-eval_XXXX.eval --id gpt-4o-explicit

Both .eval logs (zip) and .json logs are read. Each sample's messages become
its transcript (content-part lists flattened to text, reasoning marked).
When the first output token has top_logprobs the run is a logprob run:
tokens are matched to yes/Yes/no/No after dropping leading white space, Ġ,
▁ and opening quotes (exact and case-sensitive otherwise; matching tokens
summed), and a form missing from top_logprobs is an error (raise
top_logprobs). Otherwise it is a decision run: every epoch's completion is
one decision, read as yes or no by its first word. Samples that ended in an
error are left out and the run is marked incomplete. Model, task version,
task code revision, generate config and token usage go into the manifest
(usage and versions in notes). -intervention names the prompt intervention
the task applied, which the log does not record (default "default").
*/
package main
