#!/usr/bin/python3
"""Writes pydumps.jsonl: test vectors for importer.PyDumps and PyFloatRepr.

Each output line is {"line": L, "indent2": D} where L is json.dumps(value,
ensure_ascii=False) (how lm-evaluation-harness writes a doc inside a samples
line) and D is json.dumps(value, indent=2, ensure_ascii=False) (what its
doc_hash is the SHA-256 of). Run from this folder: /usr/bin/python3 pydumps.py
"""
import json

real = json.loads(open("../../../testdata/explicit-excerpt-q0.jsonl", encoding="utf-8").readline())
values = [
    real,
    {"filled_template": "two\nlines </filled_template >", "age": 20.0, "x": [], "y": {}},
    {"ctl": "\x00\x01\x1f\x7f\b\f\r\t\"\\/", "curly": "patient\u2019s \u00e9 \u2028 \U0001F600"},
    {"floats": [0.0, -0.0, 1e-05, 0.0001, 1e16, 1e15, 1.5e16, 123456789.125, 0.1, 2.5e-300, 1.7976931348623157e308, -3.0]},
    {"ints": [0, -1, 12345678901234567890], "bools": [True, False, None]},
    {"nonfinite": [float("nan"), float("inf"), float("-inf")], "nested": [[1, [2, {}]], {"a": {"b": []}}]},
    {"NaN string": "NaN", "Infinity": "-Infinity"},
    "just a string",
    [],
]
with open("pydumps.jsonl", "w", encoding="utf-8") as f:
    for v in values:
        f.write(json.dumps({"line": json.dumps(v, ensure_ascii=False), "indent2": json.dumps(v, indent=2, ensure_ascii=False)}, ensure_ascii=False) + "\n")
