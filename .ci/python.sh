#!/usr/bin/env bash
# Python environments for the harness tests (cmd/import: TestInspectTaskForReal,
# TestInspectTaskOldVersion, TestLMEvalForReal), made from pinned requirements with hashes
# (pip install --require-hashes: every package and version fixed, every file
# checked). .ci/run calls it; run it by hand to make the same environments.
#
#   .ci/venv/inspect      cmd/import/inspect-requirements.txt      inspect-ai 0.3.260
#   .ci/venv/inspect-old  cmd/import/inspect-old-requirements.txt  inspect-ai 0.3.122
#   .ci/venv/lmeval       cmd/import/lmeval-requirements.txt       lm-eval 0.4.13
#                         + cmd/import/lmeval-sdist-requirements.txt
#
# Everything is a wheel (--only-binary :all:) except the three packages
# lm-eval needs that PyPI has only as source: they are built in a second
# step without build isolation, with the hashed setuptools of the first.
# A venv is made again only when its requirements files changed (their
# SHA-256 is kept in the venv). Provider packages (openai, anthropic) and datasets
# (the Hugging Face dataset path) are in cmd/import/inspect-extras-requirements.txt,
# for real runs, not installed here.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
if ! "$python" -m venv --help >/dev/null 2>&1 || ! "$python" -c 'import ensurepip' >/dev/null 2>&1; then
  echo ".ci/python.sh: installing python3-venv"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3 python3-venv >/dev/null
  python=python3
fi

# venv DIR WHEELS [SDISTS]
venv() {
  local dir=$1 req=$2 src=${3:-} sum
  sum=$(cat "$req" $src | sha256sum | cut -d' ' -f1)
  if [ -x "$dir/bin/python" ] && [ "$(cat "$dir/.requirements.sha256" 2>/dev/null)" = "$sum" ]; then
    return
  fi
  echo ".ci/python.sh: making $dir from $req"
  rm -rf "$dir"
  "$python" -m venv "$dir"
  "$dir/bin/pip" install -q --disable-pip-version-check --no-deps --require-hashes --only-binary :all: -r "$req"
  if [ -n "$src" ]; then
    "$dir/bin/pip" install -q --disable-pip-version-check --no-deps --require-hashes --no-binary :all: --no-build-isolation -r "$src"
  fi
  echo "$sum" >"$dir/.requirements.sha256"
  echo ".ci/python.sh: made $dir"
}

# The three side by side: most of the time is downloading and unpacking,
# one core each at most. Each one's status is checked.
pids=() names=()
venv .ci/venv/inspect cmd/import/inspect-requirements.txt &
pids+=($!) names+=(inspect)
venv .ci/venv/inspect-old cmd/import/inspect-old-requirements.txt &
pids+=($!) names+=(inspect-old)
venv .ci/venv/lmeval cmd/import/lmeval-requirements.txt cmd/import/lmeval-sdist-requirements.txt &
pids+=($!) names+=(lmeval)
failed=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo ".ci/python.sh: making .ci/venv/${names[$i]} failed" >&2
    failed=1
  fi
done
exit "$failed"
