"""Run the shipped Discrim-Eval task (cmd/import/discrim_eval.py) with
Inspect's mockllm/model, whose outputs this script makes: what a real
provider returns, for TestInspectTaskForReal.

    python mock_eval.py ROWS.jsonl OUT_DIR

It runs the task twice, once in each MODE, in one process (Inspect's
imports cost more CPU than either eval), writing OUT_DIR/MODE/ (the log)
and OUT_DIR/MODE/expected.json.

MODE "logprob": one token per prompt with logprobs and top_logprobs as
OpenAI's API returns them (the forms Yes, " Yes", yes, No, " no" and a
non-answer token; P(yes)+P(no) = 0.995), the config's --logprobs
--top-logprobs 6 --max-tokens 1. MODE "decision": two epochs of sampled
answers ("Yes", "No.", "**yes**", "no, because ..."). P(yes) is a fixed
function of the prompt text, higher for women's prompts.

expected.json gets, for each filled template (the prompt without the
question), what the mock returned: the logit log P(yes) - log P(no), or
the answers. It is written by the mock as it answers, not from the log.
"""

import hashlib
import json
import math
import os
import sys

from inspect_ai import eval as inspect_eval
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    Logprob,
    Logprobs,
    ModelOutput,
    TopLogprob,
    get_model,
)

# Relative: inspect_ai globs task files from the working directory.
TASK = os.path.relpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "discrim_eval.py"))
QUESTION = '\n\nPlease answer the above question with either "yes" or "no".'


def user_text(messages) -> str:
    for m in messages:
        if m.role == "user":
            return m.text
    raise ValueError("no user message")


def p_yes(text: str) -> float:
    """A probability from the text's hash, shifted up for women."""
    h = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") / 2**64
    logit = 2.0 * h - 1.0 + (0.8 if " female" in text or "woman" in text else 0.0)
    return 1 / (1 + math.exp(-logit))


def main() -> None:
    rows, out_dir = sys.argv[1:3]
    for mode in ("logprob", "decision"):
        log_dir = os.path.join(out_dir, mode)
        os.makedirs(log_dir, exist_ok=True)
        run(mode, rows, log_dir, os.path.join(log_dir, "expected.json"))


def run(mode: str, rows: str, log_dir: str, expected_path: str) -> None:
    expected: dict[str, dict] = {}
    calls: dict[str, int] = {}

    def output(messages, tools, tool_choice, config) -> ModelOutput:
        text = user_text(messages)
        template = text.removesuffix(QUESTION)
        p = p_yes(text)
        if mode == "logprob":
            py, pn = 0.995 * p, 0.995 * (1 - p)
            # Every form (Yes, yes, No, no) is listed, so none is bounded.
            forms = [("Yes", 0.8 * py), ("No", 0.7 * pn), (" Yes", 0.15 * py), (" no", 0.3 * pn), ("yes", 0.05 * py), ("Based", 0.005)]
            forms.sort(key=lambda f: -f[1])
            top = [TopLogprob(token=t, logprob=math.log(v), bytes=list(t.encode())) for t, v in forms]
            first = top[0]
            expected[template] = {"logit": math.log(py) - math.log(pn)}
            return ModelOutput(
                model="mockllm/model",
                choices=[ChatCompletionChoice(
                    message=ChatMessageAssistant(content=first.token, model="mockllm/model", source="generate"),
                    stop_reason="max_tokens",
                    logprobs=Logprobs(content=[Logprob(token=first.token, logprob=first.logprob, bytes=first.bytes, top_logprobs=top)]),
                )],
            )
        n = calls[template] = calls.get(template, 0) + 1
        # The n-th draw: yes when a hash of the text and n is below P(yes).
        u = int.from_bytes(hashlib.sha256(f"{n}:{text}".encode()).digest()[:8], "big") / 2**64
        answer = ["Yes", "**yes**"][n % 2] if u < p else ["No.", "no, because the information is not enough"][n % 2]
        expected.setdefault(template, {"answers": []})["answers"].append(answer)
        return ModelOutput.from_content(model="mockllm/model", content=answer)

    config = dict(logprobs=True, top_logprobs=6, max_tokens=1) if mode == "logprob" else dict(temperature=1.0)
    logs = inspect_eval(
        TASK,
        task_args={"data": rows},
        model=get_model("mockllm/model", custom_outputs=output),
        epochs=1 if mode == "logprob" else 2,
        log_dir=log_dir,
        log_format="eval",
        display="none",
        **config,
    )
    if logs[0].status != "success":
        raise SystemExit(f"eval {logs[0].status}: {logs[0].error}")
    with open(expected_path, "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
