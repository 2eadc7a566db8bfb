"""The page ``boneyard watch`` serves on 127.0.0.1: the last cycle's problems, the cards it
re-rendered, the proof sheet and the playtest, reloading itself when a new cycle ends.

Only this machine can reach it (the socket is bound to the loopback address) and it serves only
what the watcher wrote: the page, its state, ``proof.png`` and the card images by face id.
"""

from __future__ import annotations

import html
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from boneyard.pipeline.watch import CycleResult, Watcher

_PNG = re.compile(r"^/png/([A-Za-z0-9_@.-]{1,120}\.png)$")

_SCRIPT = """
<script>
let seen = %d;
async function poll() {
  try {
    const r = await fetch('/state.json', {cache: 'no-store'});
    const s = await r.json();
    if (s.cycle !== seen) { location.reload(); return; }
  } catch (e) { document.getElementById('link').textContent = 'watcher stopped'; }
  setTimeout(poll, 700);
}
setTimeout(poll, 700);
</script>
"""


def page(watcher: Watcher) -> str:
    """The HTML of the page for the watcher's last cycle."""
    last: CycleResult | None = watcher.results[-1] if watcher.results else None
    esc = html.escape
    title = f"boneyard watch: {watcher.root.name}"
    body = [f"<h1>{esc(title)}</h1>", "<p id='link'>reloads by itself when you save</p>"]
    if last is None:
        body.append("<p>first cycle running...</p>")
    else:
        when = time.strftime("%H:%M:%S", time.localtime(last.started))
        saved = f" after saving {esc(', '.join(last.saved))}" if last.saved else ""
        if not last.ok:
            body.append(f"<h2 class='bad'>cycle {last.number} at {when}{saved}: "
                        f"{len(last.problems)} problem(s)</h2><ul>")
            body += [f"<li><code>{esc(p)}</code></li>" for p in last.problems]
            body.append("</ul>")
        else:
            body.append(f"<h2 class='ok'>cycle {last.number} at {when}{saved}: valid "
                        f"(content {esc(last.content_hash)}, {last.seconds:.1f} s)</h2>")
            if last.changed_cards:
                body.append(f"<p>changed: {esc(', '.join(last.changed_cards))}</p>")
            if last.playtest:
                p = last.playtest
                status = "passed" if p["passed"] else "FAILED"
                body.append(f"<p class='{'ok' if p['passed'] else 'bad'}'>playtest "
                            f"({esc(p['profile'])}) {status}: {p['gates_passed']}/"
                            f"{p['gates_total']} gates, {p['games']} games</p><ul>")
                body += [f"<li>{esc(line)}</li>" for line in p["failed"]]
                body.append("</ul>")
            if last.playtest_note:
                body.append(f"<p>playtest: {esc(last.playtest_note)}</p>")
            if last.watermark:
                body.append(f"<p>images marked {esc(last.watermark)} (no passing playtest "
                            "record for this content: run boneyard build)</p>")
            stamp = int(last.started * 1000)
            if last.rendered:
                body.append("<h3>re-rendered</h3><div>")
                body += [f"<img src='/png/{esc(f)}.png?{stamp}' alt='{esc(f)}' title='{esc(f)}' "
                         "width='180'>" for f in last.rendered[:48]]
                body.append("</div>")
            body.append(f"<h3>proof sheet</h3><img src='/proof.png?{stamp}' style='max-width:100%'>")
    cycle = last.number if last else 0
    style = ("<style>body{font-family:sans-serif;margin:1.5em}.bad{color:#a00}.ok{color:#060}"
             "code{white-space:pre-wrap}img{margin:2px}</style>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title>"
            f"{style}</head><body>{''.join(body)}{_SCRIPT % cycle}</body></html>")


def state(watcher: Watcher) -> dict[str, Any]:
    last = watcher.results[-1] if watcher.results else None
    return {"cycle": last.number if last else 0, "ok": bool(last and last.ok),
            "problems": last.problems if last else [],
            "rendered": last.rendered if last else [],
            "playtest": last.playtest if last else None}


_LOCAL = {"127.0.0.1", "localhost", "::1"}


def _local_name(host: str) -> bool:
    """Whether a request's Host names this computer: a web page whose own name was made to
    resolve to 127.0.0.1 (DNS rebinding) could otherwise read the page and the card images."""
    try:
        return (urlsplit(f"//{host}").hostname or "") in _LOCAL
    except ValueError:  # "[bad": not a name at all
        return False


def serve(watcher: Watcher, port: int = 0) -> ThreadingHTTPServer:
    """Start the page on 127.0.0.1:``port`` (0: a free one) in a daemon thread."""
    out: Path = watcher.out

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet terminal
            del format, args

        def _send(self, code: int, kind: str, data: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # the name http.server calls
            if not _local_name(self.headers.get("Host", "")):  # a rebound name: another site's page
                self._send(403, "text/plain", b"this page is served as 127.0.0.1 or localhost only")
                return
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                self._send(200, "text/html; charset=utf-8", page(watcher).encode())
                return
            if path == "/state.json":
                self._send(200, "application/json", json.dumps(state(watcher)).encode())
                return
            m = _PNG.match(path)
            file = out / "proof.png" if path == "/proof.png" else out / "png" / m.group(1) \
                if m else None
            if file is not None and file.is_file() and not file.is_symlink():  # its own files
                self._send(200, "image/png", file.read_bytes())
                return
            self._send(404, "text/plain", b"not found")

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True, name="watch-page").start()
    return server
