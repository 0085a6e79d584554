"""Print one of README.md's two set-up commands, so CI runs exactly what the README says.

    python3 .ci/readme.py install   # the first command (install + main job)
    python3 .ci/readme.py demo      # the first command with the main job reduced to two samples (CI's time)
    python3 .ci/readme.py demo-install  # demo's commands up to the install: demo is "demo-install && demo-job"
    python3 .ci/readme.py demo-job      # the rest of demo (builds the demo model, runs the main job)
    python3 .ci/readme.py test      # the second command (the tests)
"""

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
# One right answer (ok) and one answer to another invoice with a text layer to check it against (review).
DEMO_INPUTS = "samples/invoice-de-einfach.pdf samples/invoice-fr-services.pdf"


def commands() -> list[str]:
    """The ```bash blocks above README.md's first horizontal rule."""
    head = README.read_text(encoding="utf-8").split("\n---\n", 1)[0]
    return re.findall(r"```bash\n(.*?)\n```", head, re.S)


def split_after_install(command: str) -> tuple[str, str]:
    """(the commands up to and including ``pip install``, the rest): ``command`` is the two joined by `` && ``."""
    parts = command.split(" && ")
    ends = [i for i, part in enumerate(parts) if part.startswith("pip install ")]
    if len(ends) != 1 or ends[0] == len(parts) - 1:
        raise SystemExit("README's first command no longer has one `pip install` before its job: update .ci/readme.py")
    return " && ".join(parts[:ends[0] + 1]), " && ".join(parts[ends[0] + 1:])


def main(which: str) -> str:
    install, test = commands()
    if which == "install":
        return install
    if which == "demo":
        reduced = install.replace("extract samples/ ", f"extract {DEMO_INPUTS} ")
        if reduced == install:
            raise SystemExit("README's first command no longer runs `extract samples/ ...`: update .ci/readme.py")
        return reduced
    if which in ("demo-install", "demo-job"):
        install_part, job = split_after_install(main("demo"))
        return install_part if which == "demo-install" else job
    if which == "test":
        return test
    raise SystemExit(__doc__)


if __name__ == "__main__":
    print(main(sys.argv[1] if len(sys.argv) > 1 else ""))
