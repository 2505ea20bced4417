"""[tool.npubuild] values of the wrong type, and misspelt keys, are one message naming the file."""
from __future__ import annotations

import pytest

from npubuild.core.config import load_config
from npubuild.core.errors import UserError


@pytest.mark.parametrize(
    "line,message",
    [
        ('max_open_kernels = "x"', "[tool.npubuild] max_open_kernels must be an integer such as 16, got 'x'"),
        ("specs = 3", '[tool.npubuild] specs must be a path string such as "specs", got 3'),
        ('targets = "host"', "[tool.npubuild] targets must be a list such as [\"ref\", \"host\"], got 'host'"),
        ("targets = [1]", "[tool.npubuild] targets must be a list of target names"),
        ("limits = 3", "[tool.npubuild] limits must be a table: [tool.npubuild.limits], got 3"),
        ("max_open_kernel = 4", "unknown key 'max_open_kernel' in [tool.npubuild] (did you mean 'max_open_kernels'?)"),
        ("xdna_device = true", "[tool.npubuild] xdna_device must be a string such as \"npu1\", got True"),
    ],
)
def test_bad_config_values_are_one_message(tmp_path, monkeypatch, line, message):
    for var in ("NPUBUILD_XDNA_DEVICE", "NPUBUILD_MAX_OPEN_KERNELS"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "pyproject.toml").write_text(f"[tool.npubuild]\n{line}\n")
    with pytest.raises(UserError) as e:
        load_config(tmp_path)
    assert str(e.value).startswith(f"{tmp_path / 'pyproject.toml'}: ") and message in str(e.value)
