"""inspect's own command line (inspect_ai._cli.main, what the `inspect`
script runs), given several command lines in one Python process: each is
run as `inspect ARGS...` would run it, one after the other. Starting
Python with inspect_ai costs about as much CPU as a test's evals, so
TestInspectCLI's commands share one start.

    python inspect_cli.py COMMANDS.json

COMMANDS.json is a list of {"args": [...], "env": {...}}: the arguments
after `inspect`, and environment variables set while that command runs
(the mock provider's DISCRIM_MOCK_RECORD). A command that fails stops the
script with its exit status, after saying which one it was.
"""

import json
import os
import sys

from inspect_ai._cli.main import inspect


def main() -> None:
    with open(sys.argv[1]) as f:
        commands = json.load(f)
    for i, c in enumerate(commands):
        saved = {k: os.environ.get(k) for k in c.get("env", {})}
        os.environ.update(c.get("env", {}))
        print(f"inspect_cli.py: command {i + 1} of {len(commands)}: inspect {' '.join(c['args'])}", flush=True)
        try:
            inspect.main(args=c["args"], prog_name="inspect", auto_envvar_prefix="INSPECT", standalone_mode=False)
        except SystemExit as ex:
            if ex.code:
                sys.exit(f"inspect_cli.py: command {i + 1} exited with {ex.code}")
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


if __name__ == "__main__":
    main()
