"""A command run as a user would run it, also when the tests run as root.

Root ignores file modes, so a read-only folder stops no write of root's.  Under root, the
command runs under ``setpriv`` without the capabilities that let root past file modes
(CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER): it meets a read-only folder as a
player's account does.  The test is skipped where setpriv is missing."""
from __future__ import annotations

import os
import shutil

import pytest

#: setpriv's option that drops root's permission override from the command's bounding set
DROP_OVERRIDE = "--bounding-set=-dac_override,-dac_read_search,-fowner"


def as_user(cmd: list[str]) -> list[str]:
    """``cmd`` itself for a user; under root, ``cmd`` under setpriv without the override."""
    if os.geteuid() != 0:
        return list(cmd)
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is not installed: cannot drop root's permission override")
    return ["setpriv", DROP_OVERRIDE, *cmd]
