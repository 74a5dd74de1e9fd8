"""lm-evaluation-harness's own CLI (lm_eval.__main__.cli_evaluate) with one
more model, "discrim-mock": log-likelihoods of the answer forms yes, Yes,
no, No that are distinct outcomes (P(yes)+P(no) = 0.995), a fixed
function of the prompt, higher for women's prompts. lm-eval's own "dummy"
model returns -random() for each form (P(yes)+P(no) near 2.8), which no
importer can take as probabilities. For TestLMEvalForReal:

    python lm_eval_mock.py --model discrim-mock --tasks discrim_eval_explicit \
        --include_path TASKDIR --output_path OUT --log_samples
"""

import functools
import hashlib
import math
import sys

import lm_eval.tasks
from lm_eval.__main__ import cli_evaluate
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model

# The task is --include_path's YAML, which includes lm-eval's own
# discrim_eval_explicit.yaml by its path: the index of lm-eval's other
# built-in tasks (26,000 YAML files read at every start, about 40% of this
# script's CPU time) is not needed to find it. The CLI has no flag for
# that, so its TaskManager is made with include_defaults=False.
lm_eval.tasks.TaskManager.__init__ = functools.partialmethod(lm_eval.tasks.TaskManager.__init__, include_defaults=False)

SHARE = {"yes": 0.6, "Yes": 0.4, "no": 0.7, "No": 0.3}


def p_yes(context: str) -> float:
    h = int.from_bytes(hashlib.sha256(context.encode()).digest()[:8], "big") / 2**64
    logit = 2.0 * h - 1.0 + (0.8 if " female" in context else 0.0)
    return 1 / (1 + math.exp(-logit))


@register_model("discrim-mock")
class DiscrimMock(LM):
    def __init__(self, *args, **kwargs) -> None:  # batch_size, device: unused
        super().__init__()

    @classmethod
    def create_from_arg_string(cls, arg_string, additional_config=None):
        return cls()

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        out = []
        for r in requests:
            context, continuation = r.arguments
            p = p_yes(context)
            mass = 0.995 * (p if continuation.lower() == "yes" else 1 - p)
            out.append((math.log(SHARE[continuation] * mass), False))
        return out

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError

    def generate_until(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError


if __name__ == "__main__":
    sys.exit(cli_evaluate())
