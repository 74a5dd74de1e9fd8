"""A fake SUT (system under test) for modelgauge 0.6.3, for make_record.sh.

Its answer to a prompt is ANSWERS[h[0] % 8], h the SHA-256 of the prompt's
text; when h[1] < 8 (about one prompt in 32) it raises instead, which
modelgauge records as a TestItemExceptionRecord. The Go test
(TestModelgaugeRecord) computes the same from each row's prompt.
"""
import hashlib

from modelgauge.prompt import TextPrompt
from modelgauge.sut import PromptResponseSUT, SUTCompletion, SUTResponse
from modelgauge.sut_capabilities import AcceptsTextPrompt
from modelgauge.sut_decorator import modelgauge_sut
from modelgauge.sut_registry import SUTS
from pydantic import BaseModel

ANSWERS = ["Yes", "No", " yes", "no", "Yes.", " No", "Based", ""]


class FakeRequest(BaseModel):
    text: str
    max_tokens: int


class FakeResponse(BaseModel):
    text: str


@modelgauge_sut(capabilities=[AcceptsTextPrompt])
class DiscrimFakeSUT(PromptResponseSUT[FakeRequest, FakeResponse]):
    def translate_text_prompt(self, prompt: TextPrompt) -> FakeRequest:
        return FakeRequest(text=prompt.text, max_tokens=prompt.options.max_tokens)

    def evaluate(self, request: FakeRequest) -> FakeResponse:
        h = hashlib.sha256(request.text.encode()).digest()
        if h[1] < 8:
            raise RuntimeError("fake SUT: 429 Too Many Requests")
        return FakeResponse(text=ANSWERS[h[0] % len(ANSWERS)])

    def translate_response(self, request: FakeRequest, response: FakeResponse) -> SUTResponse:
        return SUTResponse(completions=[SUTCompletion(text=response.text)])


SUTS.register(DiscrimFakeSUT, "discrim-fake")
