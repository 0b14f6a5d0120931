"""The wheel carries the repository's data/ and notebooks/ as package data.

They stay at the repository root (the guide's layout, the build scripts, the tests
and ./dashboard name them there); a wheel copies them to ``companion/_data`` and
``companion/_notebooks``, where ``companion.core.paths`` finds them with
``importlib.resources``.  Everything else is in pyproject.toml."""
from __future__ import annotations

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

#: repository folder -> its place inside the installed package ``companion``
SHIPPED = {"data": "_data", "notebooks": "_notebooks"}
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", "*.lock", ".*")


class build_py_with_data(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return              # an editable install reads data/ and notebooks/ in place
        here = os.path.dirname(os.path.abspath(__file__))
        for src, dest in SHIPPED.items():
            target = os.path.join(self.build_lib, "companion", dest)
            shutil.rmtree(target, ignore_errors=True)     # no stale file from an earlier build
            shutil.copytree(os.path.join(here, src), target, ignore=SKIP)


setup(cmdclass={"build_py": build_py_with_data})
