"""The HTTP side of the test Sheets server: a stdlib threading server on 127.0.0.1 that hands each
request to an application (``handle(method, target, body, headers) -> Reply``) and sends its reply:
JSON, an HTML page, or nothing (a lost answer: the connection closes without a response)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

from tests.servers.sheets_errors import Reply

__all__ = ["App", "serve"]


class App(Protocol):
    def handle(self, method: str, target: str, body: bytes, headers: Mapping[str, str]) -> Reply: ...


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        reply = self.server.app.handle(
            self.command, self.path, body, {k.lower(): v for k, v in self.headers.items()}
        )
        if reply.lose is not None:  # performed, but the client gets nothing: close the connection
            time.sleep(reply.lose)
            self.close_connection = True
            return
        if reply.html is not None:
            payload, kind = reply.html.encode(), "text/html; charset=UTF-8"
        else:
            payload, kind = json.dumps(reply.body).encode(), "application/json; charset=UTF-8"
        self.send_response(reply.status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    app: App


@contextlib.contextmanager
def serve(app: App) -> Iterator[str]:
    """Serve ``app`` in a thread while the block runs; yields the base URL."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.app = app
    # A short poll interval: shutdown() waits for the next poll (0.5 s by default).
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), name="fake-sheets", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
