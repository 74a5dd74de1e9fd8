#!/usr/bin/env bash
# Writes record_for_discrim_eval-explicit_discrim-fake.json.gz: the test
# record MLCommons' modelgauge writes for its own Discrim-Eval test, run by
# modelgauge itself on the repository's real rows with a fake SUT.
#
#   MODELGAUGE_CHECKOUT=/path/to/mlcommons/modelgauge bash make_record.sh
#
# modelgauge 0.6.3 installs from PyPI, but its standard tests
# (modelgauge-standard-tests, which hold discrim_eval.py) were published
# only to MLCommons' own index, so the test's source file is taken from a
# checkout of github.com/mlcommons/modelgauge at the v0.6.3 tag, commit
# 44d1a0da36b10176f3d1aeb15e569d54cbb93f45:
# plugins/standard_tests/modelgauge/tests/discrim_eval.py. It needs
# pandas, statsmodels and scikit-learn. Everything goes into a throwaway
# venv; the run is offline: the test's dataset (Hugging Face's raw
# explicit.jsonl, a WebData dependency) is put where modelgauge's
# dependency helper keeps what it downloaded, as the rows of
# testdata/explicit-excerpt-*.jsonl (questions 0 and 95, 20 rows of 1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
commit=44d1a0da36b10176f3d1aeb15e569d54cbb93f45
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q modelgauge==0.6.3 pandas==3.1.1 statsmodels==0.15.0 scikit-learn==1.9.1
pkg=$("$work/venv/bin/python" -c 'import modelgauge.suts, os; print(os.path.dirname(list(modelgauge.suts.__path__)[0]))')
git -C "$MODELGAUGE_CHECKOUT" show "$commit:plugins/standard_tests/modelgauge/tests/discrim_eval.py" >"$pkg/tests/discrim_eval.py"
cp "$here/discrim_fake.py" "$pkg/suts/"

cat "$root"/testdata/explicit-excerpt-{q0,q95,q1-partial}.jsonl >"$work/rows.jsonl"
version=$(sha256sum "$work/rows.jsonl" | cut -d' ' -f1)
for k in explicit implicit; do
  d="$work/data/tests/DiscrimEval/dependency_data/$k"
  mkdir -p "$d"
  cp "$work/rows.jsonl" "$d/$version"
  echo "{\"version\": \"$version\", \"creation_time_millis\": 1733000000000}" >"$d/$version.metadata"
done

(cd "$work" && venv/bin/modelgauge run-test --sut discrim-fake --test discrim_eval-explicit \
  --data-dir data --output-file record.json --no-caching --no-progress-bar >/dev/null)
gzip -9 -n -c "$work/record.json" >"$here/record_for_discrim_eval-explicit_discrim-fake.json.gz"
