"""Where a page's join spends its time (issue 34): one traced page load in Chromium.

Used by bench/bench_devices.py for every join; run alone it profiles a returning join
and 4 seats joining at once on a server of its own:

    PYTHONPATH=. .venv/bin/python bench/join_trace.py [--trace-dir DIR]
    PYTHONPATH=. .venv/bin/python bench/join_trace.py --quick   # pool 1: one cold join, traced

What one traced join records, all in the page's own clock (``performance.now()``, ms
from the navigation's start) unless said otherwise:

* **marks** set by an init script: the HTML's first byte and DOMContentLoaded
  (Navigation Timing), the kernel's websocket created and opened (``WebSocket`` is
  wrapped), its first and its last message before the page was interactive, the first
  ``.jupyter-widgets`` element in the DOM, and the entry's Discard button enabled
  (interactive);
* **the kernel's messages** (Playwright ``page.on("websocket")``, ``framereceived``):
  how many, their kinds (``comm_open``, ``comm_msg`` with its ``method``, ``status`` ...)
  and bytes, up to interactive; the jupyter v1 binary protocol is decoded;
* **the main thread** (a Chromium performance trace, ``devtools.timeline``): the time
  the renderer's main thread spent in tasks between the marks, and how much of it was
  JavaScript (``FunctionCall``/``EvaluateScript``/``v8.compile``...), style and layout,
  or HTML parsing.  busy / wall close to 1 means the page was computing, not waiting.
"""
from __future__ import annotations

import json
import struct
import time
from pathlib import Path

#: the Discard button of the entry is shown and enabled: the page is interactive
DISCARD_LABEL = "Discard for 3 credits"

INIT_SCRIPT = """(() => {
  const M = window.__join = {frames: 0};
  const mark = (k) => { if (M[k] === undefined) { M[k] = performance.now(); performance.mark('join:' + k); } };
  window.__joinMark = mark;
  const WS = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new WS(url) : new WS(url, protocols);
    if (/\\/api\\/kernels\\/[^/]+\\/channels/.test(url)) {
      mark('ws created');
      ws.addEventListener('open', () => mark('ws open'));
      ws.addEventListener('message', () => {
        const w = window.__wsTimes || (window.__wsTimes = []);
        w.push(Date.now()); if (w.length > 400) w.splice(0, 200);
        mark('first message');
        if (M['interactive'] === undefined) { M['last message'] = performance.now(); M.frames++; }
      });
    }
    return ws;
  };
  window.WebSocket.prototype = WS.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  const check = () => {
    if (document.querySelector('.jupyter-widgets')) mark('first widget');
    const ok = [...document.querySelectorAll('.entry-action button')].some(
      b => b.textContent.includes('%s') && !b.disabled);
    if (ok) { mark('interactive'); obs.disconnect(); }
  };
  const obs = new MutationObserver(check);
  document.addEventListener('DOMContentLoaded', () => {
    obs.observe(document.body, {subtree: true, childList: true, attributes: true});
    check();
  });
})();""" % DISCARD_LABEL

#: the order of the marks on the way to interactive
ORDER = ["first byte", "html", "ws created", "ws open", "first message", "last message",
         "first widget", "interactive"]
SCRIPT_EVENTS = {"FunctionCall", "EvaluateScript", "v8.compile", "v8.compileModule",
                 "V8.CompileCode", "v8.produceCache", "TimerFire", "EventDispatch",
                 "FireAnimationFrame", "RunMicrotasks", "v8.run", "V8.GCScavenger",
                 "MajorGC", "MinorGC", "V8.GC_MC_BACKGROUND_MARKING"}
STYLE_EVENTS = {"UpdateLayoutTree", "Layout", "RecalculateStyles", "UpdateLayerTree",
                "Paint", "PrePaint", "Layerize", "Commit"}
PARSE_EVENTS = {"ParseHTML", "ParseAuthorStyleSheet"}


def decode(payload) -> dict:
    """One kernel websocket frame -> {'channel', 'msg_type', 'method', 'target'}:
    JSON text (the legacy protocol) or the v1 binary protocol (jupyter_server)."""
    try:
        if isinstance(payload, (bytes, bytearray)):
            n = struct.unpack_from("<Q", payload, 0)[0]
            offs = struct.unpack_from(f"<{n}Q", payload, 8)
            part = lambda i: bytes(payload[offs[i]:offs[i + 1]])  # noqa: E731
            channel = part(0).decode()
            header = json.loads(part(1))
            content = json.loads(part(4)) if n > 5 else {}
        else:
            msg = json.loads(payload)
            channel, header, content = msg.get("channel"), msg["header"], msg.get("content", {})
        data = content.get("data") if isinstance(content, dict) else None
        return {"channel": channel, "msg_type": header.get("msg_type"),
                "method": (data or {}).get("method") if isinstance(data, dict) else None,
                "target": content.get("target_name") if isinstance(content, dict) else None,
                "states": len((data or {}).get("states") or {}) if isinstance(data, dict) else 0}
    except Exception:                       # noqa: BLE001 - an unknown frame is counted as such
        return {"channel": "?", "msg_type": "?", "method": None, "target": None, "states": 0}


class Frames:
    """The kernel socket's frames a page receives, with their sizes and the time of arrival
    (``time.perf_counter()`` of this process)."""

    def __init__(self, page):
        self.got: list[tuple[float, int, dict]] = []
        self.sent: list[tuple[float, int, dict]] = []
        page.on("websocket", self._on_ws)

    def _on_ws(self, ws):
        if "/channels" not in ws.url:
            return
        ws.on("framereceived", lambda p: self.got.append(
            (time.perf_counter(), len(p), decode(p))))
        ws.on("framesent", lambda p: self.sent.append((time.perf_counter(), len(p), decode(p))))

    def summary(self, until: float | None = None) -> dict:
        got = [f for f in self.got if until is None or f[0] <= until]
        kinds: dict[str, int] = {}
        for _, _, m in got:
            k = m["msg_type"] or "?"
            if m["method"]:
                k += f"/{m['method']}"
            kinds[k] = kinds.get(k, 0) + 1
        states = max([m["states"] for _, _, m in got] or [0])
        return {"frames": len(got), "kB": sum(n for _, n, _ in got) / 1024, "kinds": kinds,
                "models": states, "sent": len(self.sent)}


def busy(trace: dict, marks_ts: dict[str, float]) -> dict[str, dict[str, float]]:
    """The renderer main thread's time in tasks (ms) between consecutive marks of
    ``marks_ts`` (trace clock, us), split into script / style+layout / parse / other."""
    events = trace.get("traceEvents", trace if isinstance(trace, list) else [])
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    # the page's renderer: the main thread that holds the marks
    mark_threads = {(e["pid"], e["tid"]) for e in events
                    if str(e.get("name", "")).startswith("join:")}
    main = (main & {(p, t) for p, t in main if any(p == mp for mp, _ in mark_threads)}) or main
    tasks, inner = [], []
    for e in events:
        if (e.get("pid"), e.get("tid")) not in main or e.get("ph") != "X" or "dur" not in e:
            continue
        if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask"):
            tasks.append((e["ts"], e["ts"] + e["dur"]))
        elif e["name"] in SCRIPT_EVENTS | STYLE_EVENTS | PARSE_EVENTS:
            inner.append((e["ts"], e["ts"] + e["dur"], e["name"]))
    names = [k for k in ORDER if k in marks_ts]
    bounds = [("navigation", marks_ts.get("navigation", min((a for a, _ in tasks), default=0)))]
    bounds += [(k, marks_ts[k]) for k in names]
    out: dict[str, dict[str, float]] = {}

    def overlap(a, b, lo, hi):
        return max(0.0, min(b, hi) - max(a, lo))

    # tasks nest (a task runs a nested run loop): count the union of their spans
    merged: list[list[float]] = []
    for a, b in sorted(tasks):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    for (k0, lo), (k1, hi) in zip(bounds, bounds[1:]):
        if hi <= lo:
            continue
        task = sum(overlap(a, b, lo, hi) for a, b in merged)
        parts = {"script": 0.0, "style/layout": 0.0, "parse": 0.0}
        # count only outermost inner events of each kind group (they nest)
        for group, names_ in (("script", SCRIPT_EVENTS), ("style/layout", STYLE_EVENTS),
                              ("parse", PARSE_EVENTS)):
            spans = sorted((a, b) for a, b, n in inner if n in names_)
            end = -1.0
            for a, b in spans:
                if b <= end:
                    continue
                a = max(a, end)
                parts[group] += overlap(a, b, lo, hi)
                end = b
        out[f"{k0} -> {k1}"] = {"wall": (hi - lo) / 1000, "busy": task / 1000,
                                **{g: v / 1000 for g, v in parts.items()}}
    return out


def trace_marks(trace: dict) -> dict[str, float]:
    """The ``join:`` user-timing marks (and the navigation's start) in the trace clock."""
    events = trace.get("traceEvents", [])
    out: dict[str, float] = {}
    for e in events:
        name = str(e.get("name", ""))
        if name.startswith("join:") and e.get("ph") in ("R", "I", "n", "b", "e"):
            out.setdefault(name[5:], e["ts"])
        elif name == "navigationStart" and "navigation" not in out:
            out["navigation"] = e["ts"]
    return out


def read_marks(page) -> dict[str, float]:
    """The page's marks in seconds from its navigation's start."""
    m = page.evaluate("""() => { const t = performance.getEntriesByType('navigation')[0] || {};
        return Object.assign({}, window.__join || {}, {'first byte': t.responseStart,
                                                     'html': t.domContentLoadedEventEnd}); }""")
    return {k: v / 1000 for k, v in m.items() if k != "frames" and isinstance(v, (int, float)) and v}


def format_marks(marks: dict[str, float]) -> str:
    return ", ".join(f"{k} {marks[k]:.2f} s" for k in ORDER if k in marks)


def format_busy(b: dict[str, dict[str, float]]) -> str:
    return "; ".join(f"{k}: {v['wall']:.0f} ms, main thread busy {v['busy']:.0f} "
                     f"(script {v['script']:.0f}, style/layout "
                     f"{v['style/layout']:.0f})" for k, v in b.items())


def main(argv=None) -> int:
    """A server of its own; a returning join traced, then 4 seats at once traced."""
    import argparse
    import sys
    import tempfile
    sys.path[:0] = [str(Path(__file__).resolve().parent)]
    import bench_devices as bd
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trace-dir", default=None, help="keep the Chromium traces here")
    ap.add_argument("--pool", type=int, default=None, help="preheated kernels (4; --quick: 1)")
    ap.add_argument("--quick", action="store_true",
                    help="one cold join traced (no returning joins, no 4 seats at once)")
    args = ap.parse_args(argv)
    if args.pool is None:
        args.pool = 1 if args.quick else 4
    kinds = ("cold",) if args.quick else ("cold", "returning", "returning")
    pause = 0 if args.quick else 3
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory(prefix="companion-join-trace-") as tmp:
        s = bd.VoilaServer(Path(tmp) / "home", Path(tmp) / "work", config=True,
                           env={"COMPANION_TOKEN": bd.TOKEN, "COMPANION_POOL_SIZE": str(args.pool)})
        s.start()
        try:
            gid = bd.make_game(s.home)
            bd.wait_for(lambda: bd.pool_waiting(s) >= args.pool, timeout=120)
            url = f"{s.url}?seat=Ana&game={gid}&token={bd.TOKEN}"
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=bd.CHROMIUM, args=bd.CHROMIUM_ARGS)
                ctx = browser.new_context(viewport={"width": 390, "height": 844})
                for kind in kinds:
                    bd.wait_for(lambda: bd.pool_waiting(s) >= args.pool, timeout=120)
                    time.sleep(pause)
                    r = bd.join(ctx, url, browser=browser, trace_to=args.trace_dir and
                                Path(args.trace_dir) / f"{kind}-{time.time():.0f}.json")
                    print(f"{kind}: {r['took']:.2f} s; {format_marks(r['marks'])}\n  {r['fetched']}"
                          f"\n  {r['frames']}\n  {format_busy(r['busy'])}", flush=True)
                ctx.close()
                if not args.quick:
                    bd.wait_for(lambda: bd.pool_waiting(s) >= args.pool, timeout=120)
                    time.sleep(pause)
                    res = bd.seats_at_once(browser, s, gid, trace=True)
                    cpu = res.pop("_cpu")
                    print(f"at once: CPU {cpu}")
                    for p, r in res.items():
                        print(f"at once {p}: {r.get('took', float('nan')):.2f} s; "
                              f"{format_marks(r['marks'])}\n  {r['frames']}", flush=True)
                browser.close()
            import re
            log = s.log_path.read_text(errors="replace")
            print("server log, slow requests:", "\n".join(
                ln for ln in log.splitlines() if re.search(r"\d+\.\d+ms", ln))[-3000:])
        finally:
            s.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
