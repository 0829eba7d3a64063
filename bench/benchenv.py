"""The bench's own Python environment: zxing-cpp 3.1 (a peer reader) and the image libraries
the dense-photo generator uses, from PyPI, in .build/bench-venv (git-ignored). Never a
dependency of qrseal.

    python3 bench/benchenv.py        # create or complete it; prints the venv's python
"""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VENV = REPO / ".build" / "bench-venv"
PYTHON = VENV / "bin" / "python"
# Pinned so that generated images and peer figures are the same on every machine.
PACKAGES = ["zxing-cpp==3.1.1", "numpy==2.4.6", "pillow==13.0.0",
            "opencv-python-headless==5.0.0.93"]
MODULES = ["zxingcpp", "numpy", "PIL", "cv2"]


def ready():
    if not PYTHON.is_file():
        return False
    check = "import " + ", ".join(MODULES)
    return subprocess.run([str(PYTHON), "-c", check], capture_output=True).returncode == 0


def ensure(log=lambda m: sys.stderr.write(m + "\n")):
    """The venv's python, made and filled if need be; None (and a message) when that fails."""
    if ready():
        return str(PYTHON)
    log("[venv] setting up %s from PyPI: %s" % (VENV, " ".join(PACKAGES)))
    steps = [[sys.executable, "-m", "venv", str(VENV)],
             [str(PYTHON), "-m", "pip", "install", "-q", "--disable-pip-version-check"] + PACKAGES]
    for cmd in steps:
        if VENV.exists() and cmd[1:3] == ["-m", "venv"] and PYTHON.is_file():
            continue
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            log("[venv] failed: %s\n%s" % (" ".join(cmd), (p.stderr or p.stdout).strip()[-600:]))
            return None
    return str(PYTHON) if ready() else None


if __name__ == "__main__":
    py = ensure()
    if py is None:
        sys.exit(1)
    print(py)
