#!/usr/bin/env bash
# Python environments for the harness tests (cmd/import: TestInspectCLI,
# TestInspectCLIOldVersion, TestLMEvalForReal), made from pinned requirements with hashes
# (--require-hashes: every package and version fixed, every file checked).
# .ci/run calls it; run it by hand to make the same environments.
#
#   .ci/venv/inspect      cmd/import/inspect-requirements.txt      inspect-ai 0.3.285
#   .ci/venv/inspect-old  cmd/import/inspect-old-requirements.txt  inspect-ai 0.3.122
#   .ci/venv/lmeval       cmd/import/lmeval-requirements.txt       lm-eval 0.4.13
#                         + cmd/import/lmeval-sdist-requirements.txt
#
# Both inspect venvs also get the tests' model provider, the package in
# cmd/import/testdata/mockprovider (from the repository, not PyPI: no hash
# to check; uv builds it itself, with no build backend downloaded), which
# registers discrim-mock/... with inspect by entry point.
#
# The installer is uv (.ci/venv/uv, installed by pip from the hashed
# .ci/uv-requirements.txt), with pip's flags. On a cold cache this script
# took 28 CPU-seconds (73 s wall at load 11, the uv bootstrap included);
# with pip it took 3 min 33 s of CPU and 8 min 24 s wall, spent in pip's
# own downloading and hashing, in unpacking every wheel once per venv (uv
# unpacks a wheel once into its cache and links it into each venv) and
# in byte-compiling every file. uv does not byte-compile: Python compiles
# what a harness test imports as it imports it, which cost the three
# harness tests about 20 CPU-seconds (178 against 158 with every file
# compiled); compiling every file cost pip 35 CPU-seconds for the inspect
# and lmeval venvs alone.
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

# current DIR SUM: DIR was made from requirements whose SHA-256 is SUM (it
# is kept in the venv), and is not made again.
current() {
  [ -x "$1/bin/python" ] && [ "$(cat "$1/.requirements.sha256" 2>/dev/null)" = "$2" ]
}

mkdir -p .ci/venv
uv=.ci/venv/uv/bin/uv
sum=$(sha256sum <.ci/uv-requirements.txt | cut -d' ' -f1)
if ! current .ci/venv/uv "$sum"; then
  rm -rf .ci/venv/uv
  "$python" -m venv .ci/venv/uv
  .ci/venv/uv/bin/pip install -q --disable-pip-version-check --no-deps --require-hashes --only-binary :all: -r .ci/uv-requirements.txt
  echo "$sum" >.ci/venv/uv/.requirements.sha256
fi
# uv uses this python3, never one it would download.
export UV_PYTHON_DOWNLOADS=never

# The mock provider's files, whose change makes the inspect venvs again.
provider=cmd/import/testdata/mockprovider
provider_files=$(find "$provider" -name pyproject.toml -o -name '*.py' | LC_ALL=C sort)

# venv DIR WHEELS [SDISTS] [PROVIDER]
venv() {
  local dir=$1 req=$2 src=${3:-} local=${4:-} sum
  sum=$(cat "$req" $src ${local:+$provider_files} | sha256sum | cut -d' ' -f1)
  if current "$dir" "$sum"; then
    return
  fi
  echo ".ci/python.sh: making $dir from $req"
  rm -rf "$dir"
  "$uv" venv -q --python "$python" "$dir"
  "$uv" pip install -q --python "$dir/bin/python" --no-deps --require-hashes --only-binary :all: -r "$req"
  if [ -n "$src" ]; then
    "$uv" pip install -q --python "$dir/bin/python" --no-deps --require-hashes --no-binary :all: --no-build-isolation -r "$src"
  fi
  if [ -n "$local" ]; then
    "$uv" pip install -q --python "$dir/bin/python" --no-deps --offline "$local"
  fi
  echo "$sum" >"$dir/.requirements.sha256"
  echo ".ci/python.sh: made $dir"
}

# The three side by side (uv shares its cache between them). Each one's
# status is checked.
pids=() names=()
venv .ci/venv/inspect cmd/import/inspect-requirements.txt "" "$provider" &
pids+=($!) names+=(inspect)
venv .ci/venv/inspect-old cmd/import/inspect-old-requirements.txt "" "$provider" &
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
