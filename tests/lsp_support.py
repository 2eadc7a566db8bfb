"""A minimal Language Server Protocol client over stdio, to drive yaml-language-server the way an
editor does (tests/test_editor_schema.py): open a card file, ask for completions, read the
diagnostics it publishes."""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

CACHE = Path.home() / ".cache" / "boneyard" / "yaml-ls"
SERVER = CACHE / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
PACKAGE = "yaml-language-server@1"


def ensure_server() -> str | None:
    """The server's path, installing it with npm into ~/.cache/boneyard/yaml-ls once; None and
    a reason when node, npm or the package cannot be had."""
    if shutil.which("node") is None:
        return "node is not installed"
    if SERVER.is_file():
        return None
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not installed"
    CACHE.mkdir(parents=True, exist_ok=True)
    if not (CACHE / "package.json").is_file():
        (CACHE / "package.json").write_text('{"private": true}\n')
    try:
        subprocess.run([npm, "install", "--no-audit", "--no-fund", PACKAGE], cwd=CACHE,
                       check=True, capture_output=True, timeout=240)
    except (subprocess.SubprocessError, OSError) as exc:
        return f"npm install {PACKAGE} failed: {exc}"
    return None if SERVER.is_file() else f"npm install {PACKAGE} did not install the server"


class LspClient:
    """yaml-language-server on stdio; requests block for their answer (with a timeout)."""

    def __init__(self, root: Path) -> None:
        node = shutil.which("node") or "node"
        self.proc = subprocess.Popen([node, str(SERVER), "--stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.answers: dict[int, Any] = {}
        self.notes: queue.Queue[dict[str, Any]] = queue.Queue()
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {
            "processId": None, "rootUri": root.as_uri(),
            "capabilities": {"textDocument": {
                "completion": {"completionItem": {"snippetSupport": False}},
                "publishDiagnostics": {}},
                "workspace": {"configuration": True}}})
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": {"yaml": self.settings()}})

    @staticmethod
    def settings() -> dict[str, Any]:
        return {"validate": True, "completion": True, "hover": True, "schemaStore":
                {"enable": False}, "schemas": {}}

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            msg = json.loads(out.read(length))
            if "method" in msg and "id" in msg:  # the server asks the client
                result: Any = None
                if msg["method"] == "workspace/configuration":
                    result = [self.settings() for _ in msg["params"]["items"]]
                self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            elif "id" in msg:
                with self.lock:
                    self.answers[msg["id"]] = msg
                    self.lock.notify_all()
            else:
                self.notes.put(msg)

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = 30) -> Any:
        self.next_id += 1
        rid = self.next_id
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        with self.lock:
            if not self.lock.wait_for(lambda: rid in self.answers, timeout):
                raise TimeoutError(f"{method}: no answer in {timeout} s")
            msg = self.answers.pop(rid)
        if "error" in msg:
            raise RuntimeError(f"{method}: {msg['error']}")
        return msg.get("result")

    def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
        return uri

    def completion_labels(self, uri: str, line: int, character: int) -> list[str]:
        result = self.request("textDocument/completion", {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
        items = result.get("items", []) if isinstance(result, dict) else (result or [])
        return [str(i["label"]) for i in items]

    def diagnostics(self, uri: str, timeout: float = 30) -> list[str]:
        """The messages of the first non-empty diagnostics published for ``uri``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.notes.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if msg.get("method") == "textDocument/publishDiagnostics" \
                    and msg["params"]["uri"] == uri and msg["params"]["diagnostics"]:
                return [d["message"] for d in msg["params"]["diagnostics"]]
        return []

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=5)
            self.notify("exit", None)
        except (TimeoutError, RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()
