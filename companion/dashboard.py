"""``star-companion-dashboard``: serve the table companion's dashboard
(``companion.ipynb``) with Voila, as ``./dashboard`` does (it runs this command).

    star-companion-dashboard                     # http://127.0.0.1:8866/ on this machine only
    star-companion-dashboard --port 9000         # another port
    star-companion-dashboard --lan               # reachable from the table's phones/tablets,
                                                 # protected by a random token
    COMPANION_TOKEN=... star-companion-dashboard --lan      # your own token (16+ characters)
    star-companion-dashboard --lan --token-file ~/.companion-token
    star-companion-dashboard --lan --token-file ~/.companion-token --show-token
                                                 # ... and print it, and its QR code

The notebook and its Voila configuration (``notebooks/config/voila.py``: kernel
culling, shutdown on tab close, the Host allowlist, the token, the page template
``star-companion``) are the checkout's ``notebooks/`` or, installed from the wheel,
the package's copy of it (:func:`companion.core.paths.notebooks_dir`).
Stop the server with Ctrl-C.
"""
from __future__ import annotations

import os
import re
import secrets
import socket
import sys
from pathlib import Path

from .core.paths import notebooks_dir

PROG = "star-companion-dashboard"
MIN_TOKEN = 16
DEFAULT_PORT = 8866
TEMPLATE = "star-companion"
_TOKEN_CHARS = re.compile(r"[A-Za-z0-9._~-]+")
_HOST_CHARS = re.compile(r"[A-Za-z0-9.:_-]+")


class Refused(Exception):
    """A wrong option: one line on standard error, exit code 2."""


def usage() -> str:
    pool = os.environ.get("COMPANION_POOL_SIZE", "4")
    cull = os.environ.get("COMPANION_CULL_IDLE", "1200")
    gone = os.environ.get("COMPANION_DISCONNECTED_SECONDS", "75")
    head = __doc__.split("\n\n")[1] if __doc__ else ""
    return f"""Serve the table companion dashboard with Voila.

{head}

Options:
  --port N           port to listen on (default {DEFAULT_PORT})
  --lan              listen on all interfaces (0.0.0.0); a token is then required
                     on every route and socket (pages, files, websockets)
  --token-file PATH  read the --lan token from a file (first line, 16+ characters)
  --token TOKEN      the --lan token itself (16+ characters); it is passed to the
                     server through the environment, never on its command line,
                     but prefer COMPANION_TOKEN or --token-file (a command line is
                     visible to other users while the command starts)
  --show-token       with your own token (COMPANION_TOKEN, --token-file, --token):
                     print it at start, in the host's address; without it your
                     token is never printed (a random token always is: nobody
                     else knows it).  The token is the host's: the table view's
                     QR code and each seat's carry a capability instead (a view,
                     a seat), never the token
  --allow-host NAME  also answer requests addressed to NAME (a host name or an
                     address this machine is reached by); may be repeated
  --database URL     keep the saved games in the club's PostgreSQL database
                     (postgresql://user@host/db; prefer COMPANION_DATABASE_URL when
                     the address holds a password) instead of games.sqlite
  --table NAME       this server lists only the games of table NAME (1-40
                     characters; a convention's tables share one club database);
                     games created here are tagged with it; History stays the club's
  -h, --help         this help

Without a token option, --lan uses COMPANION_TOKEN if it is set, otherwise a
random token printed at start (your own token is printed only with
--show-token).  The address with the token is the host's page: open it on
this laptop only.  A QR code of the table view's address (a view-only
capability, no token) is printed for the TV's or a phone's camera; each
seat's code is on the host's page. Requests whose Host: is not this machine (127.0.0.1,
localhost, and under --lan this machine's names and addresses) are refused.
A page's kernel stops when its tab closes, when its page's
connection has been gone for {gone} s (a phone closed or asleep: its page reloads
itself when it wakes, nothing is lost), when a new page opens the same link, or
when its link is re-issued; else after {cull} s idle. {pool} kernels
are kept preheated so a joining phone gets its page at once (COMPANION_POOL_SIZE,
0 = none). A link that no longer works shows a page saying so. Stop the server
with Ctrl-C (or SIGTERM); it can be started again on the same port at once.
"""


class Options:
    def __init__(self) -> None:
        self.port = DEFAULT_PORT
        self.lan = False
        self.token = ""
        self.token_given = False
        self.token_file = ""
        self.show_token = False
        self.allow_hosts: list[str] = []
        self.database = ""
        self.table = ""
        self.help = False


def parse(argv: list[str]) -> Options:
    """The options, as ./dashboard always took them (``--opt value`` or ``--opt=value``)."""
    o = Options()
    port = str(DEFAULT_PORT)
    i = 0
    needs = {"--port": "a number", "--token": "a value", "--token-file": "a path",
             "--allow-host": "a name", "--database": "a postgresql:// address",
             "--table": "a name"}
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name in needs:
            if not eq:
                if i + 1 >= len(argv):
                    raise Refused(f"{name} needs {needs[name]}")
                value = argv[i + 1]
                i += 1
            if name == "--port":
                port = value
            elif name == "--token":
                o.token, o.token_given = value, True
            elif name == "--token-file":
                o.token_file = value
            elif name == "--database":
                if not value.startswith(("postgresql://", "postgres://")):
                    raise Refused(f"--database takes a postgresql:// address, not '{value}'")
                o.database = value
            elif name == "--table":
                from .core.errors import CompanionError
                from .table.club import check_table_name
                try:
                    o.table = check_table_name(value)
                except CompanionError as e:
                    raise Refused(str(e)) from None
            else:
                o.allow_hosts.append(value)
        elif arg == "--lan":
            o.lan = True
        elif arg == "--show-token":
            o.show_token = True
        elif arg in ("-h", "--help"):
            o.help = True
            return o
        else:
            raise Refused(f"unknown option '{arg}' (try --help)")
        i += 1
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise Refused(f"--port must be a number between 1 and 65535, not '{port}'")
    o.port = int(port)
    if (o.token_given or o.token_file) and not o.lan:
        raise Refused("--token/--token-file only apply with --lan (on 127.0.0.1 no token is used)")
    if o.show_token and not o.lan:
        raise Refused("--show-token only applies with --lan (on 127.0.0.1 no token is used)")
    if o.token_given and o.token_file:
        raise Refused("give either --token or --token-file, not both")
    for h in o.allow_hosts:
        if not _HOST_CHARS.fullmatch(h):
            raise Refused(f"--allow-host takes a host name or an address, not '{h}'")
    return o


def check_token(token: str, source: str) -> None:
    if len(token) < MIN_TOKEN:
        raise Refused(f"the token from {source} is {len(token)} characters long; it must be at least\n"
                      f"           {MIN_TOKEN} (leave the token out and a random one is made for you)")
    if not _TOKEN_CHARS.fullmatch(token):
        raise Refused(f"the token from {source} may hold only letters, digits and . _ ~ -")


def _read_token_file(path: str) -> str:
    with open(path, "rb") as fh:
        first = fh.read(4096).split(b"\n", 1)[0]
    return re.sub(r"\s", "", first.decode("utf-8", errors="replace"))


def port_free(ip: str, port: int) -> bool:
    """Whether the server can listen on ``ip:port``, tried as it binds (tornado sets
    SO_REUSEADDR): a server stopped a moment ago leaves its closed connections in
    TIME_WAIT for a minute, which a plain bind took for a port in use (issue 50)."""
    s = socket.socket()
    try:
        if os.name != "nt":
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((ip, port))
    except OSError:
        return False
    finally:
        s.close()
    return True


def lan_address() -> str:
    """This machine's address on the local network, or ''."""
    ip = ""
    try:
        # No packet is sent: connecting a UDP socket only picks the outgoing interface.
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.connect(("192.0.2.1", 9))
        ip = s.getsockname()[0]
        s.close()
    except OSError:
        pass
    return ip if ip and not ip.startswith("127.") else ""


def own_names(lan_ip: str) -> list[str]:
    """The names and addresses this machine may be reached by (the Host allowlist)."""
    names = {lan_ip} if lan_ip else set()
    try:
        h = socket.gethostname()
        names |= {h, h + ".local", socket.getfqdn()}
        for info in socket.getaddrinfo(h, None):
            names.add(str(info[4][0]))
    except OSError:
        pass
    return sorted(n.lower() for n in names if n)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        o = parse(args)
        if o.help:
            print(usage())
            return 0
        token_source = ""
        token_file = ""
        if o.lan:
            if o.token_file:
                if not os.path.isfile(o.token_file) or not os.access(o.token_file, os.R_OK):
                    raise Refused(f"cannot read the token file '{o.token_file}'")
                token_file = os.path.realpath(o.token_file)
                check_token(_read_token_file(token_file), token_file)
                token_source = "file"
            elif o.token_given:
                check_token(o.token, "--token")
                token_source = "option"
            elif os.environ.get("COMPANION_TOKEN"):
                o.token = os.environ["COMPANION_TOKEN"]
                check_token(o.token, "COMPANION_TOKEN")
                token_source = "environment"
    except Refused as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    if o.database:
        # the pages' kernels inherit the server's environment: every page opens it
        os.environ["COMPANION_DATABASE_URL"] = o.database
    if o.table:
        os.environ["COMPANION_TABLE"] = o.table       # every page's kernel: its table
    if os.environ.get("COMPANION_TABLE", "").strip():
        from .core.errors import CompanionError
        from .table.club import table_from_env
        try:
            table_from_env()
        except CompanionError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            return 2
    if os.environ.get("COMPANION_DATABASE_URL", "").strip():
        # the club database is checked once before the server starts: one line if it
        # cannot be used (unreachable, not ours, no driver), not a page of errors later
        from .core.errors import StoreError
        from .table.backends import open_store
        try:
            open_store().close()
        except StoreError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            return 1

    notebooks = notebooks_dir()
    notebook = notebooks / "companion.ipynb"
    config = notebooks / "config"
    if not (config / "voila.py").is_file():
        print(f"{PROG}: {config / 'voila.py'} is missing; refusing to start without it",
              file=sys.stderr)
        return 1

    if o.lan:
        ip = "0.0.0.0"
        if not token_source:
            o.token = secrets.token_urlsafe(24)
            token_source = "random"
    else:
        ip = "127.0.0.1"
    if not port_free(ip, o.port):
        print(f"{PROG}: port {o.port} is already in use (is another dashboard running?).\n"
              f"           Stop it, or choose another port: --port {o.port + 1}", file=sys.stderr)
        return 1

    print()
    allow_hosts = list(o.allow_hosts)
    if o.lan:
        lan_ip = lan_address()
        allow_hosts += own_names(lan_ip)
        print("Serving the dashboard to your network (token required).")
        # a token the user chose is never printed, not even inside the QR code, unless
        # they ask for it (--show-token); a random one is: nobody knows it otherwise
        printed = token_source == "random" or o.show_token
        shown = ((_read_token_file(token_file) if token_source == "file" else o.token)
                 if printed else "<your token>")
        # the token is the host's (issue 35: a role is a capability): the other devices
        # join with the table view's capability printed below or a seat's code
        if lan_ip:
            public_url = f"http://{lan_ip}:{o.port}/"
            print(f"The host's page (this laptop only: the token gives every right): "
                  f"http://{lan_ip}:{o.port}/?token={shown}")
        else:
            public_url = ""
            print(f"The host's page (this laptop only: the token gives every right): "
                  f"http://<this machine's IP>:{o.port}/?token={shown}")
            print("(could not work out this machine's LAN address).")
        print(f"On this machine: http://127.0.0.1:{o.port}/?token={shown}")
        if not printed:
            print("(Your own token is not printed; add --show-token to print it.)")
        if public_url:
            print()
            print("The table view (scan with the TV's or a phone's camera: it may look, not "
                  "write); each seat's code is on the host's page:")
            try:
                from .table import capabilities
                from .table.joining import join_url, qr_text
                url = join_url(public_url, view="table", cap=capabilities.view().secret)
                print(qr_text(url), end="")
                print(url)
            except Exception:                  # noqa: BLE001 - a QR code is a convenience
                print("(no QR code)")
        del shown
    else:
        public_url = f"http://127.0.0.1:{o.port}/"
        print(f"Open http://127.0.0.1:{o.port}/ in your browser.")
    print("Press Ctrl-C to stop.")
    print(flush=True)

    env = os.environ
    if sys.prefix != sys.base_prefix and os.access(sys.prefix, os.W_OK):
        # Keep kernel specs and runtime files inside the virtualenv so a kernel spec
        # named "python3" elsewhere in the user's Jupyter setup cannot replace ours.
        env["JUPYTER_DATA_DIR"] = str(Path(sys.prefix) / "jupyter-data")
    # An error in voila.py stops the server instead of being logged and skipped.
    env["TRAITLETS_APPLICATION_RAISE_CONFIG_FILE_ERROR"] = "1"
    # The token never goes on the server's command line (visible in ps).
    env.pop("COMPANION_TOKEN", None)
    env.pop("COMPANION_TOKEN_FILE", None)
    cmd = [sys.executable, "-m", "voila", str(notebook), "--no-browser",
           f"--port={o.port}", f"--Voila.ip={ip}", "--Voila.port_retries=0",
           f"--Voila.config_file_paths={config}", f"--template={TEMPLATE}"]
    if o.lan:
        # fail closed: should the configuration not set the token, Voila makes one
        cmd.append("--Voila.auto_token=True")
        if token_source == "file":
            env["COMPANION_TOKEN_FILE"] = token_file
        else:
            env["COMPANION_TOKEN"] = o.token
    env["COMPANION_ALLOWED_HOSTS"] = ",".join(allow_hosts)
    # the address other devices reach the dashboard by: the pages' QR codes (issue 14)
    if public_url:
        env["COMPANION_PUBLIC_URL"] = public_url
    else:
        env.pop("COMPANION_PUBLIC_URL", None)
    os.execv(sys.executable, cmd)
    return 0                                    # not reached


if __name__ == "__main__":
    sys.exit(main())
