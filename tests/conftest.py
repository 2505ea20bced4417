"""Shared fixtures: throw-away npubuild projects built with the real doit."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="session")
def _private_cache_home(tmp_path_factory):
    """The per-machine cache secret (npubuild.core.cache_auth) of the tests lives in a temporary
    XDG_CACHE_HOME, inherited by every build the tests start, never in the user's ~/.cache."""
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", help="also run the tests marked slow (CI=true does too)")


def _slow_wanted(config) -> bool:
    """Slow tests run in CI, with --run-slow, or when -m picks tests by marker itself."""
    ci = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
    return ci or config.getoption("--run-slow") or bool(config.getoption("-m"))


def pytest_collection_modifyitems(config, items):
    if _slow_wanted(config):
        return
    slow = [i for i in items if "slow" in i.keywords]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [i for i in items if "slow" not in i.keywords]


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    # said at the end, where -q and pytest-xdist still show it (the deselected count stays in the workers)
    if not _slow_wanted(config) and not hasattr(config, "workerinput"):
        terminalreporter.write_line("tests marked slow were left out: --run-slow (or CI=true) runs them too")


SUMMARY = re.compile(r"npubuild: (\d+) kernels(?:, (\d+) graphs?)?; compiled (\d+)(?: \(\d+ on the compile farm\))?, from store (\d+)(?: \((\d+) from shared stores\))?, "
                     r"up to date (\d+)")


@dataclass
class BuildResult:
    rc: int
    out: str
    err: str

    @property
    def summary(self) -> dict:
        m = SUMMARY.search(self.out)
        assert m, f"no summary line in build output:\n{self.out}\n{self.err}"
        kernels, graphs, compiled, store, _, uptodate = m.groups()
        counts = {"kernels": int(kernels), "compiled": int(compiled), "store": int(store), "uptodate": int(uptodate)}
        return {**counts, "graphs": int(graphs)} if graphs else counts  # the line names graphs only when there are some

    @property
    def shared(self) -> int:
        """How many of the store hits came from shared stores (the summary's "(N from shared stores)")."""
        m = SUMMARY.search(self.out)
        assert m, f"no summary line in build output:\n{self.out}\n{self.err}"
        return int(m.group(5) or 0)

    def executed(self, prefix: str) -> list[str]:
        """Names of tasks doit executed (its '.  name' lines) that start with prefix."""
        return [l[3:] for l in self.out.splitlines() if l.startswith(".  " + prefix)]


class Project:
    def __init__(self, root: Path):
        self.root = root
        self.artifacts = root / "artifacts"

    def write(self, rel: str, text: str) -> Path:
        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
        return p

    def _run(self, module: str, args, env: dict | None, check: bool) -> BuildResult:
        full_env = dict(os.environ)
        full_env.update(env or {})
        r = subprocess.run(
            [sys.executable, "-m", module, *args], cwd=self.root, capture_output=True, text=True, env=full_env, timeout=600
        )
        res = BuildResult(r.returncode, r.stdout, r.stderr)
        if check:
            assert r.returncode == 0, f"{module} {' '.join(args)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
        return res

    def doit(self, *args, env: dict | None = None, check: bool = True) -> BuildResult:
        return self._run("doit", args, env, check)

    def npubuild(self, *args, env: dict | None = None, check: bool = True) -> BuildResult:
        return self._run("npubuild.cli", args, env, check)


def new_project(root: Path, kernels: str | None = None, graphs: str | None = None, targets=("ref", "host")) -> Project:
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "dodo.py", root / "dodo.py")
    (root / "pyproject.toml").write_text(
        "[tool.npubuild]\n" f"targets = [{', '.join(repr(t) for t in targets)}]\n".replace("'", '"')
    )
    p = Project(root)
    if kernels:
        p.write("specs/kernels/k.yaml", kernels)
    if graphs:
        p.write("specs/graphs/g.yaml", graphs)
    return p


@pytest.fixture
def project(tmp_path):
    return lambda kernels=None, graphs=None, **kw: new_project(tmp_path / "proj", kernels, graphs, **kw)
