"""``./dashboard``'s ``companion.dashboard.main`` run up to the moment it would start Voila
(``os.execv``), on a made-up LAN address: what it printed, Voila's command line and the
environment it would give the server.  Shared by tests/test_bad_files_one_line.py and
tests/test_readme_commands.py."""
from __future__ import annotations

import os

import pytest


class StoppedAtVoila(Exception):
    """Raised instead of os.execv: the dashboard got as far as starting Voila."""


def stopped_at_voila(monkeypatch, capsys, lan_ip: str):
    """``start(argv, env={}) -> (out, err, Voila's command line, the server's environment)``.
    The variables main() sets are deleted first (monkeypatch restores them afterwards)."""
    from companion import dashboard
    for var in ("JUPYTER_DATA_DIR", "TRAITLETS_APPLICATION_RAISE_CONFIG_FILE_ERROR",
                "COMPANION_TOKEN", "COMPANION_TOKEN_FILE", "COMPANION_ALLOWED_HOSTS",
                "COMPANION_PUBLIC_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(dashboard, "lan_address", lambda: lan_ip)
    monkeypatch.setattr(dashboard, "own_names", lambda ip: [ip])
    monkeypatch.setattr(dashboard, "port_free", lambda ip, port: True)
    seen: dict = {}

    def execv(path, cmd):
        seen["cmd"], seen["env"] = list(cmd), dict(os.environ)
        raise StoppedAtVoila()
    monkeypatch.setattr(dashboard.os, "execv", execv)

    def start(argv, env=None):
        for k, v in (env or {}).items():
            monkeypatch.setenv(k, v)
        capsys.readouterr()
        with pytest.raises(StoppedAtVoila):
            dashboard.main(list(argv))
        got = capsys.readouterr()
        return got.out, got.err, seen["cmd"], seen["env"]
    return start
