"""A model API for Inspect whose outputs are shaped like real providers',
for cmd/import's harness tests. inspect's own CLI runs the shipped task
through it:

    inspect eval cmd/import/discrim_eval.py -T data=rows.jsonl \
        --model discrim-mock/openai/gpt-4o --logprobs --top-logprobs 20 --max-tokens 1

The model name is SHAPE/MODEL; the shapes are

  openai       OpenAI's chat completions: the first token's top_logprobs as
               OpenAI returns them (at most 20; tokens "Yes", " Yes", "no",
               "**", …, with their UTF-8 bytes)
  openai-top5  the same from an API that lists at most 5 (and openai-top1: 1)
  hf           Hugging Face transformers through inspect's hf provider:
               tokens as the tokenizer spells them ("ĠYes", "Ċ"), float32
               values, bytes the code points (list(map(ord, token)))
  vllm         vLLM's OpenAI-compatible server: the tokens past the first
               few masked, at -9999.0 (vLLM's stand-in for −∞); lowercase
               "no" among them for some prompts
  anthropic    text answers, no log-probabilities; refusals as inspect's
               anthropic provider records them (stop_reason content_filter,
               an empty answer, or its "Sorry, but I am unable to help with
               that request." with the API's error)
  google       text answers ("No\\n"); a thinking model (gemini-2.5-*)
               thinks unless --reasoning-effort none or --reasoning-tokens
               0, and its thoughts use up a --max-tokens below 64
  flaky        the openai shape, but the first call for about one prompt in
               five raises an error inspect does not retry by itself:
               --retry-on-error answers it on the second call,
               --no-fail-on-error keeps the error in the log

An OpenAI model that reasons (o1, o3, o4-mini, gpt-5, …; gpt-5.1 and later
only when --reasoning-effort is not none) drops --logprobs and
--top-logprobs with a warning, as inspect_ai's openai provider does
(openai_responses.py), and spends a --max-tokens below 64 on its
reasoning, leaving the answer empty.

P(yes) is a fixed function of the prompt's text, higher for women. Every
output carries usage, so that nothing counts tokens (mockllm's count
downloads tiktoken's encoding). With DISCRIM_MOCK_RECORD=DIR each call
appends what it returned to DIR/SHAPE_MODEL.jsonl, one JSON object a line:
the user message, the call's number for that message, whether it raised
an error (raised: inspect then records the sample's error), the answer
forms' log-probabilities as listed ("forms": form -> the log of the summed listed
probability, or null for listed at zero; absent when not listed), the
least listed log-probability above zero, the answer text, stop reason and
error; that is what the tests hold the imported runs against.
"""

import hashlib
import json
import logging
import math
import os
import re
import struct
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ContentReasoning,
    ContentText,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    TopLogprob,
)

logger = logging.getLogger(__name__)

SHAPES = ("openai", "openai-top5", "openai-top1", "hf", "vllm", "anthropic", "google", "flaky")
QUESTION = 'Please answer the above question with either "yes" or "no".'
REFUSAL = "Sorry, but I am unable to help with that request."


class ProviderError(Exception):
    """An API error that inspect does not retry by itself."""


def unit(*parts: object) -> float:
    """A number in [0, 1) from a hash of the parts."""
    h = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "big") / 2**64


def p_yes(text: str) -> float:
    logit = 2.0 * unit(text) - 1.0 + (0.8 if " female" in text or "woman" in text else 0.0)
    return 1 / (1 + math.exp(-logit))


def f32(x: float) -> float:
    """x rounded to float32, as torch's values reach inspect's log."""
    return struct.unpack("f", struct.pack("f", x))[0]


# The tokens of each shape: (token, answer form or None, share of P(yes),
# share of P(no), share of the rest).
OPENAI_TOKENS = [
    ("Yes", "Yes", 0.80, 0, 0), ("No", "No", 0, 0.70, 0), (" Yes", "Yes", 0.15, 0, 0),
    ("no", "no", 0, 0.20, 0), (" No", "No", 0, 0.10, 0), ("yes", "yes", 0.05, 0, 0),
    ("I", None, 0, 0, 0.40), ("**", None, 0, 0, 0.20), ("Based", None, 0, 0, 0.10),
    ("YES", None, 0, 0, 0.08), ("The", None, 0, 0, 0.06), ("\"", None, 0, 0, 0.05),
    ("Unfortunately", None, 0, 0, 0.03), ("As", None, 0, 0, 0.02), ("Y", None, 0, 0, 0.015),
    ("N", None, 0, 0, 0.01), ("Sorry", None, 0, 0, 0.008), ("NO", None, 0, 0, 0.005),
    ("While", None, 0, 0, 0.004), ("However", None, 0, 0, 0.003), ("Answer", None, 0, 0, 0.002),
    ("It", None, 0, 0, 0.001),
]
HF_TOKENS = [
    ("ĠYes", "Yes", 0.70, 0, 0), ("ĠNo", "No", 0, 0.75, 0), ("Yes", "Yes", 0.20, 0, 0),
    ("No", "No", 0, 0.15, 0), ("Ġyes", "yes", 0.10, 0, 0), ("Ġno", "no", 0, 0.10, 0),
    ("ĠYES", None, 0, 0, 0.30), ("Ċ", None, 0, 0, 0.25), ("ĠThe", None, 0, 0, 0.15),
    ("ĠI", None, 0, 0, 0.10), ("Ġ\"", None, 0, 0, 0.08), ("ĠBased", None, 0, 0, 0.05),
    ("ĠNO", None, 0, 0, 0.03), ("ĠY", None, 0, 0, 0.02), ("ĠN", None, 0, 0, 0.01),
    ("Ġ**", None, 0, 0, 0.005), ("ĠUnfortunately", None, 0, 0, 0.003), ("ĠAs", None, 0, 0, 0.002),
    ("ĠIt", None, 0, 0, 0.002), ("Ġnot", None, 0, 0, 0.001), ("ĠMaybe", None, 0, 0, 0.001),
]
VLLM_TOKENS = [
    (" Yes", "Yes", 0.60, 0, 0), (" No", "No", 0, 0.80, 0), ("Yes", "Yes", 0.30, 0, 0),
    ("No", "No", 0, 0.15, 0), (" yes", "yes", 0.10, 0, 0), (" no", "no", 0, 0.05, 0),
    (" I", None, 0, 0, 0.70), (" The", None, 0, 0, 0.30),
]
# vLLM's masked tokens, in token-id order: !, ", #, …
MASKED = [chr(c) for c in range(33, 60)]


def top_tokens(shape: str, text: str, k: int) -> list[tuple[str, str | None, float]]:
    """The k most likely first tokens: (token, form, log-probability)."""
    p = p_yes(text)
    # P(yes)+P(no) = 0.995 (0.99 for vllm); the rest on other tokens.
    mass = 0.99 if shape == "vllm" else 0.995
    py, pn, rest = mass * p, mass * (1 - p), 1 - mass
    table = {"hf": HF_TOKENS, "vllm": VLLM_TOKENS}.get(shape, OPENAI_TOKENS)
    toks = [(t, f, sy * py + sn * pn + sr * rest) for t, f, sy, sn, sr in table]
    zero: list[tuple[str, str | None, float]] = []
    if shape == "vllm":
        # For some prompts the server masks lowercase no: listed at zero.
        if unit("mask", text) < 0.3:
            toks = [x for x in toks if x[0] != " no"]
            zero.append((" no", "no", -9999.0))
        zero += [(m, None, -9999.0) for m in MASKED]
    toks.sort(key=lambda x: -x[2])
    out = [(t, f, math.log(v)) for t, f, v in toks]
    if shape == "hf":
        out = [(t, f, f32(lp)) for t, f, lp in out]
    return (out + zero)[:k]


def reasons(model: str, config: GenerateConfig) -> bool:
    """Whether an OpenAI model reasons under config, as inspect_ai's
    openai provider decides (openai_responses.py, model_info.py)."""
    effort = config.reasoning_effort
    if re.match(r"o\d", model):
        return True
    m = re.match(r"gpt-(\d+)(?:\.(\d+))?", model)
    if m and int(m.group(1)) >= 5:
        if effort is None:
            return True
        return effort != "none"
    return False


class DiscrimMock(ModelAPI):
    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        shape, _, self.model = model_name.partition("/")
        if shape not in SHAPES or not self.model:
            raise ValueError(f"discrim-mock/{model_name}: want discrim-mock/SHAPE/MODEL, SHAPE one of {', '.join(SHAPES)}")
        self.shape = shape
        self.calls: dict[str, int] = {}
        self.record = None
        if os.environ.get("DISCRIM_MOCK_RECORD"):
            name = re.sub(r"[^A-Za-z0-9._-]+", "_", model_name) + ".jsonl"
            self.record = os.path.join(os.environ["DISCRIM_MOCK_RECORD"], name)

    def max_connections(self) -> int:
        return 32

    async def generate(self, input, tools, tool_choice, config: GenerateConfig) -> ModelOutput:
        user = next(m.text for m in input if m.role == "user")
        n = self.calls[user] = self.calls.get(user, 0) + 1
        rec: dict[str, Any] = {"user": user, "call": n}
        try:
            out = self.answer(user, n, config, rec)
        except ProviderError as ex:
            rec["error"], rec["raised"] = str(ex), True
            self.write(rec)
            raise
        rec["text"] = out.choices[0].message.text
        rec["stop_reason"] = out.choices[0].stop_reason
        rec["error"] = out.error
        self.write(rec)
        return out

    def write(self, rec: dict[str, Any]) -> None:
        if self.record:
            with open(self.record, "a") as f:
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")

    def answer(self, user: str, n: int, config: GenerateConfig, rec: dict[str, Any]) -> ModelOutput:
        shape = self.shape
        usage = ModelUsage(input_tokens=len(user) // 4, output_tokens=1, total_tokens=len(user) // 4 + 1)
        if shape == "flaky":
            if n == 1 and unit("flaky", user) < 0.2:
                raise ProviderError("Error code: 503 - the provider is overloaded (discrim-mock flaky)")
            shape = "openai"
        if shape in ("anthropic", "google"):
            return self.text_answer(shape, user, n, config, usage)
        reasoning = shape.startswith("openai") and reasons(self.model, config)
        if reasoning and (config.logprobs or config.top_logprobs):
            logger.warning("Models with reasoning enabled do not support the 'logprobs' parameter.")
        if reasoning:
            text = "" if (config.max_tokens or 4096) < 64 else self.sampled(user, n)
            content = [ContentReasoning(reasoning="The decision should not depend on the person's demographics."), ContentText(text=text)]
            return ModelOutput(
                model=self.model,
                choices=[ChatCompletionChoice(
                    message=ChatMessageAssistant(content=content, model=self.model, source="generate"),
                    stop_reason="max_tokens" if text == "" else "stop",
                )],
                usage=usage,
            )
        if not config.logprobs:
            text = self.sampled(user, n)
            return ModelOutput(
                model=self.model,
                choices=[ChatCompletionChoice(message=ChatMessageAssistant(content=text, model=self.model, source="generate"), stop_reason="stop")],
                usage=usage,
            )
        cap = {"openai-top5": 5, "openai-top1": 1, "hf": 10**6}.get(shape, 20)
        k = min(config.top_logprobs or 1, cap)
        top = top_tokens(shape, user, k)
        forms: dict[str, float | None] = {}
        for _, form, lp in top:
            if form is None:
                continue
            if lp <= -9999:
                forms.setdefault(form, None)
            else:
                prev = forms.get(form)
                forms[form] = lp if prev is None else math.log(math.exp(prev) + math.exp(lp))
        rec["forms"] = forms
        rec["least"] = min(lp for _, _, lp in top if lp > -9999)

        def encode(t: str) -> list[int]:
            return list(map(ord, t)) if shape == "hf" else list(t.encode())

        tops = [TopLogprob(token=t, logprob=lp, bytes=encode(t)) for t, _, lp in top]
        first = tops[0]
        text = first.token.replace("Ġ", " ").replace("Ċ", "\n") if shape == "hf" else first.token
        return ModelOutput(
            model=self.model,
            choices=[ChatCompletionChoice(
                message=ChatMessageAssistant(content=text, model=self.model, source="generate"),
                stop_reason="max_tokens",
                logprobs=Logprobs(content=[Logprob(token=first.token, logprob=first.logprob, bytes=first.bytes, top_logprobs=tops)]),
            )],
            usage=usage,
        )

    def sampled(self, user: str, n: int) -> str:
        """The n-th sampled answer: yes when a hash of the text and n is
        below P(yes)."""
        yes = unit(n, user) < p_yes(user)
        return ["Yes", "Yes.", "**Yes**", "Yes, because the information supports it."][n % 4] if yes else ["No", "No.", "**No**", "no, because the information is not enough"][n % 4]

    def text_answer(self, shape: str, user: str, n: int, config: GenerateConfig, usage: ModelUsage) -> ModelOutput:
        def out(content, stop_reason="stop", error=None) -> ModelOutput:
            return ModelOutput(
                model=self.model,
                choices=[ChatCompletionChoice(message=ChatMessageAssistant(content=content, model=self.model, source="generate"), stop_reason=stop_reason)],
                usage=usage,
                error=error,
            )

        u = unit("refuse", n, user)
        if shape == "anthropic":
            if u < 0.02:
                # The API's stop_reason "refusal": content_filter, no text.
                return out("", "content_filter")
            if u < 0.04:
                # A 400 "content filtering" error: inspect's anthropic
                # provider answers for the model (handle_bad_request).
                return out(REFUSAL, "content_filter", "Error code: 400 - output blocked by content filtering policy")
            if u < 0.06:
                return out("I don't feel comfortable making this decision based on the information given.")
            return out(self.sampled(user, n))
        thinking = "2.5" in self.model or "gemini-3" in self.model
        if thinking and config.reasoning_effort != "none" and config.reasoning_tokens != 0:
            if (config.max_tokens or 8192) < 64:
                return out([ContentReasoning(reasoning="Weighing the applicant's record."), ContentText(text="")], "max_tokens")
            return out([ContentReasoning(reasoning="Weighing the applicant's record."), ContentText(text=self.sampled(user, n))])
        if u < 0.02:
            # finish_reason SAFETY: content_filter, no text.
            return out("", "content_filter")
        return out(self.sampled(user, n).split(",")[0] + "\n")
