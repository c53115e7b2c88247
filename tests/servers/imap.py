"""Real IMAP servers for the tests: Dovecot (when installed) and pymap, each a subprocess on a free
127.0.0.1 port, started once per session. Every username logs in with ``PASSWORD`` and gets its own
empty mailbox, so a test isolates itself with ``new_user(server)``.

- ``dovecot_server``: implicit TLS (imaps) with a trustme certificate; ``dovecot_plain_server``: the
  same Dovecot and mail store on a plain port (STARTTLS offered, plaintext login allowed).
- ``pymap_server``: pymap with STARTTLS (it refuses to log in before STARTTLS when TLS is on).
- ``imap_server``: parametrized over ``dovecot_server`` and ``pymap_server``.

Run as a script, this file serves pymap with users made on first login (``_serve_pymap``)."""

from __future__ import annotations

import contextlib
import grp
import itertools
import os
import pwd
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import trustme
from imapclient import IMAPClient  # type: ignore[import-untyped]

__all__ = [
    "PASSWORD",
    "ImapServer",
    "append",
    "connect",
    "dovecot_plain_server",
    "dovecot_server",
    "imap_ca",
    "imap_server",
    "inbox_settings",
    "logins",
    "new_user",
    "pymap_server",
    "running_imap",
]

PASSWORD = "secret"  # every user's password; Dovecot's XOAUTH2 also takes it as the access token
DOVECOT = Path("/usr/sbin/dovecot")
_START_TIMEOUT = 15.0
_users = itertools.count(1)


@dataclass(frozen=True)
class ImapServer:
    """How to reach one test server. ``security`` is what a client must use ("tls", "starttls" or
    "plain"); ``ssl_context`` trusts the session's test CA (``ca_file``), None on a plain port."""

    host: str
    port: int
    kind: str  # "dovecot" | "pymap"
    ssl_context: ssl.SSLContext | None
    security: str = "plain"
    ca_file: Path | None = None
    password_file: Path | None = None  # holds PASSWORD, for settings that read a secret from a file
    log: Path | None = None  # where the server logs each login (``logins``)


def logins(server: ImapServer, username: str) -> int:
    """Logins of ``username`` so far, as the server logged them: Dovecot's own "Login: user=<...>"
    lines; our pymap wrapper writes the same line."""
    if server.log is None or not server.log.exists():
        return 0
    return server.log.read_text(errors="replace").count(f"Login: user=<{username}>,")


def new_user(server: ImapServer) -> tuple[str, str]:
    """A fresh username (with an empty mailbox on first login) and its password."""
    return f"{server.kind}{next(_users)}-{uuid.uuid4().hex[:8]}", PASSWORD


def connect(server: ImapServer, username: str, password: str = PASSWORD) -> IMAPClient:
    """A logged-in imapclient connection, the way ``server.security`` asks for."""
    client = IMAPClient(
        server.host,
        port=server.port,
        ssl=server.security == "tls",
        ssl_context=server.ssl_context,
        timeout=10,
    )
    if server.security == "starttls":
        client.starttls(server.ssl_context)
    client.login(username, password)
    return client


def append(
    server: ImapServer,
    user: str,
    raw: bytes,
    *,
    folder: str = "INBOX",
    when: datetime | None = None,
    flags: Sequence[str] = (),
) -> int:
    """Deliver ``raw`` into ``user``'s ``folder`` (INTERNALDATE ``when``, aware); returns its UID."""
    client = connect(server, user)
    try:
        response = client.append(folder, raw, flags=flags, msg_time=when)
    finally:
        client.logout()
    match = re.search(rb"APPENDUID \d+ (\d+)", response)
    assert match is not None, f"{server.kind} gave no APPENDUID: {response!r}"
    return int(match.group(1))


def inbox_settings(server: ImapServer, username: str, **extra: Any) -> dict[str, Any]:
    """An ``[inbox]`` table for ``courier.backends.imap.ImapInbox`` that logs in as ``username``."""
    settings: dict[str, Any] = {
        "type": "imap",
        "host": server.host,
        "port": server.port,
        "security": server.security,
        "username": username,
        "password_file": str(server.password_file),
        "timeout": 10,
    }
    if server.ca_file is not None:
        settings["ca_file"] = str(server.ca_file)
    return settings | extra


# --- fixtures -------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def imap_ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture(scope="session")
def _imap_root() -> Iterator[Path]:
    # Not pytest's tmp dir: that is 0700 and Dovecot's unprivileged processes must reach into it.
    root = Path(tempfile.mkdtemp(prefix="courier-imap-"))
    root.chmod(0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def _dovecot(imap_ca: trustme.CA, _imap_root: Path) -> Iterator[tuple[ImapServer, ImapServer]]:
    if not DOVECOT.exists():
        pytest.skip(f"Dovecot is not installed ({DOVECOT}); `apt-get install dovecot-imapd` to run these")
    root = _imap_root / "dovecot"
    process, tls, plain = _start_dovecot(root, imap_ca)
    try:
        yield tls, plain
    finally:
        _stop(process)


@pytest.fixture(scope="session")
def dovecot_server(_dovecot: tuple[ImapServer, ImapServer]) -> ImapServer:
    return _dovecot[0]


@pytest.fixture(scope="session")
def dovecot_plain_server(_dovecot: tuple[ImapServer, ImapServer]) -> ImapServer:
    return _dovecot[1]


@pytest.fixture(scope="session")
def pymap_server(imap_ca: trustme.CA, _imap_root: Path) -> Iterator[ImapServer]:
    process, server = _start_pymap(_imap_root / "pymap", imap_ca)
    try:
        yield server
    finally:
        _stop(process)


@pytest.fixture(scope="session", params=["dovecot", "pymap"])
def imap_server(request: pytest.FixtureRequest) -> ImapServer:
    server: ImapServer = request.getfixturevalue(f"{request.param}_server")
    return server


@contextlib.contextmanager
def running_imap(kind: str, root: Path, ca: trustme.CA) -> Iterator[ImapServer]:
    """Dovecot ("dovecot": implicit TLS) or pymap ("pymap") under ``root`` (a new folder Dovecot's
    processes can reach: mode 0755, not pytest's tmp dir) while the block runs; for benchmarks."""
    if kind == "dovecot":
        process, server, _ = _start_dovecot(root, ca)
    else:
        process, server = _start_pymap(root, ca)
    try:
        yield server
    finally:
        _stop(process)


# --- Dovecot --------------------------------------------------------------------------------------


def _start_dovecot(root: Path, ca: trustme.CA) -> tuple[subprocess.Popen[bytes], ImapServer, ImapServer]:
    root.mkdir(mode=0o755)
    login_user, internal_user, mail_user = _dovecot_users()
    mail_group = grp.getgrgid(pwd.getpwnam(mail_user).pw_gid).gr_name
    for folder in ("mail", "home"):
        (root / folder).mkdir()
        shutil.chown(root / folder, mail_user, mail_group)
    cert, key, ca_file, password_file = _tls_files(root, ca)
    plain_port, tls_port = _free_port(), _free_port()
    conf = root / "dovecot.conf"
    conf.write_text(
        _DOVECOT_CONF.format(
            root=root,
            cert=cert,
            key=key,
            plain_port=plain_port,
            tls_port=tls_port,
            login_user=login_user,
            internal_user=internal_user,
            mail_user=mail_user,
            mail_group=mail_group,
            password=PASSWORD,
        ),
        encoding="utf-8",
    )
    log = (root / "stdout.log").open("wb")
    process = subprocess.Popen([str(DOVECOT), "-F", "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT)
    context = ca_context(ca)
    logged = root / "dovecot.log"
    plain = ImapServer("127.0.0.1", plain_port, "dovecot", None, "plain", ca_file, password_file, logged)
    tls = ImapServer("127.0.0.1", tls_port, "dovecot", context, "tls", ca_file, password_file, logged)
    _await_greeting(process, plain_port, root / "dovecot.log")
    return process, tls, plain


def _dovecot_users() -> tuple[str, str, str]:
    """(login user, internal user, mail owner): imap-login refuses to run as root."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid()).pw_name
        return me, me, me
    try:
        for name in ("dovenull", "dovecot", "nobody"):
            pwd.getpwnam(name)
    except KeyError as e:
        pytest.skip(f"Dovecot needs the system users dovenull, dovecot and nobody: {e}")
    return "dovenull", "dovecot", "nobody"


_DOVECOT_CONF = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
instance_name = courier-test-{plain_port}
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
disable_plaintext_auth = no
auth_failure_delay = 0
imap_id_log = *
auth_mechanisms = plain login xoauth2
default_login_user = {login_user}
default_internal_user = {internal_user}
first_valid_uid = 1
mail_location = maildir:{root}/mail/%u
namespace inbox {{
  inbox = yes
  separator = .
}}
passdb {{
  driver = static
  args = password={password}
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={mail_group} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {plain_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = yes
  }}
}}
# After a failed login the next one would wait seconds: tests fail logins on purpose.
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
"""


# --- pymap ----------------------------------------------------------------------------------------


def _start_pymap(root: Path, ca: trustme.CA) -> tuple[subprocess.Popen[bytes], ImapServer]:
    root.mkdir(mode=0o755)
    cert, key, ca_file, password_file = _tls_files(root, ca)
    port = _free_port()
    command = [sys.executable, __file__, "--host", "127.0.0.1", "--port", str(port)]
    command += ["--cert", str(cert), "--key", str(key), "dict"]
    log_path = root / "pymap.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "FQDN": "localhost"}
        )
    server = ImapServer(
        "127.0.0.1", port, "pymap", ca_context(ca), "starttls", ca_file, password_file, log_path
    )
    _await_greeting(process, port, log_path)
    return process, server


def _serve_pymap() -> None:
    """pymap's dict backend knows one demo user; make every login name a user with ``PASSWORD`` on
    first use, so tests get a mailbox each, as with Dovecot's static passdb."""
    from pymap.backend.dict import Identity, Login
    from pymap.imap.state import ConnectionState
    from pymap.main import main
    from pymap.parsing.command.any import IdCommand
    from pymap.user import UserMetadata
    from pysasl.creds.server import ServerCredentials
    from pysasl.hashing import BuiltinHash

    # One round, not pymap's 500,000: a login then costs milliseconds (verification reads the rounds
    # from the stored hash).
    hashed = BuiltinHash(rounds=1).hash(PASSWORD)

    authenticate = Login.authenticate

    async def authenticate_anyone(self: Login, credentials: ServerCredentials) -> Identity:
        name = credentials.authcid
        if name not in self.users_dict:
            self.users_dict[name] = UserMetadata(self.config, name, password=hashed)
        identity = await authenticate(self, credentials)
        print(f"Login: user=<{name}>, as Dovecot logs it", flush=True)  # counted by ``logins``
        return identity

    Login.authenticate = authenticate_anyone  # type: ignore[method-assign]
    answer_id = ConnectionState.do_id

    async def log_id(self: ConnectionState, cmd: IdCommand) -> Any:
        fields = ", ".join(f"{k.decode()}={v.decode()}" for k, v in (cmd.parameters or {}).items())
        print(f"ID sent: {fields}, as Dovecot logs it", flush=True)
        return await answer_id(self, cmd)

    ConnectionState.do_id = log_id  # type: ignore[method-assign]
    main()


# --- shared ---------------------------------------------------------------------------------------


def ca_context(ca: trustme.CA) -> ssl.SSLContext:
    """A client context that trusts the test CA (and verifies hostnames)."""
    context = ssl.create_default_context()
    ca.configure_trust(context)
    return context


def _tls_files(root: Path, ca: trustme.CA) -> tuple[Path, Path, Path, Path]:
    leaf = ca.issue_cert("127.0.0.1", "localhost")
    cert, key, ca_file, password_file = (root / n for n in ("cert.pem", "key.pem", "ca.pem", "password"))
    cert.write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
    key.write_bytes(leaf.private_key_pem.bytes())
    key.chmod(0o600)
    ca.cert_pem.write_to_path(str(ca_file))
    password_file.write_text(PASSWORD + "\n", encoding="utf-8")
    password_file.chmod(0o600)
    return cert, key, ca_file, password_file


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _await_greeting(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + _START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            if sock.recv(200).startswith(b"* OK"):
                return
        time.sleep(0.02)
    _stop(process)
    tail = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
    raise RuntimeError(f"IMAP server on port {port} did not greet (exit {process.returncode}):\n{tail}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


if __name__ == "__main__":
    _serve_pymap()
