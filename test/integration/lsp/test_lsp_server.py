"""tspipe-lsp-server smoke test: initialize, open a kernel that breaks R1,
and receive the diagnostic, rule id included, as a publishDiagnostics
notification.

The server is the one installed with the package (the environment's bin/),
or $TSPIPE_LSP_SERVER.
"""

import json
import os
import pathlib
import select
import subprocess
import sys

import pytest

INPUT = pathlib.Path(__file__).parent.parent / "Inputs" / "r1-error.mlir"
TIMEOUT_S = 60


def _server_path():
    env = os.environ.get("TSPIPE_LSP_SERVER")
    if env:
        return pathlib.Path(env)
    return pathlib.Path(sys.executable).parent / "tspipe-lsp-server"


class _Client:
    """JSON-RPC over the server's stdin/stdout (LSP base protocol)."""

    def __init__(self, proc):
        self.proc = proc
        self.buf = b""

    def send(self, payload):
        body = json.dumps(payload).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read_exactly(self, n):
        fd = self.proc.stdout.fileno()
        while len(self.buf) < n:
            ready, _, _ = select.select([fd], [], [], TIMEOUT_S)
            if not ready:
                raise TimeoutError("no answer from tspipe-lsp-server")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("tspipe-lsp-server closed its output")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def receive(self):
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            header += self._read_exactly(1)
        length = None
        for line in header.decode().split("\r\n"):
            if line.lower().startswith("content-length:"):
                length = int(line.split(":", 1)[1])
        assert length is not None, header
        return json.loads(self._read_exactly(length))

    def receive_until(self, predicate):
        while True:
            message = self.receive()
            if predicate(message):
                return message


def test_lsp_server_reports_rule_id():
    server = _server_path()
    assert server.is_file(), f"{server} is missing (make install builds it)"
    proc = subprocess.Popen([str(server)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    client = _Client(proc)
    try:
        client.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"processId": os.getpid(), "rootUri": None,
                                "capabilities": {}}})
        init = client.receive_until(lambda m: m.get("id") == 1)
        assert "capabilities" in init["result"]
        client.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

        uri = INPUT.resolve().as_uri()
        client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                     "params": {"textDocument": {
                         "uri": uri, "languageId": "mlir", "version": 1,
                         "text": INPUT.read_text()}}})
        note = client.receive_until(
            lambda m: m.get("method") == "textDocument/publishDiagnostics")
        assert note["params"]["uri"] == uri
        messages = [d["message"] for d in note["params"]["diagnostics"]]
        assert any("[R1]" in m for m in messages), messages
        # The diagnostic is on the pipeline op's line (0-based line 4).
        r1 = next(d for d in note["params"]["diagnostics"]
                  if "[R1]" in d["message"])
        assert r1["range"]["start"]["line"] == 4
        assert r1["severity"] == 1

        client.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        client.receive_until(lambda m: m.get("id") == 2)
        client.send({"jsonrpc": "2.0", "method": "exit"})
        assert proc.wait(timeout=TIMEOUT_S) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
