"""One page, several screen sizes (issue 51): resize the page already open instead of
opening one page per size.

The dashboard's layout is CSS only (media queries on the width and the aspect ratio, no
size read by the kernel or picked at load), so a page resized lays itself out as a page
opened at that size.  :func:`resize` waits for that: the window has its new size and the
boxes of the page's parts have not moved for a few frames in a row (ipywidgets' tab bars
and boxes lay themselves out again a frame or two after the window's resize event).
``layout.layout_problems`` and the tests' own boxes measure in one go, at once: they
must only run on a page settled this way.
"""
from __future__ import annotations

from playwright.sync_api import TimeoutError as PWTimeout

#: the page's parts whose boxes must be still: the notebook's scroller, the companion's
#: root and every widget box and HTML widget in it, every svg (stations, maps, boards)
_STILL = """([w, h, frames]) => {
  if (window.innerWidth !== w || window.innerHeight !== h) return false;
  const els = [document.documentElement, document.querySelector('#rendered_cells'),
    ...document.querySelectorAll('.companion-root, .companion-root .widget-box, ' +
                                 '.companion-root .widget-html-content, .companion-root svg')]
    .filter(Boolean);
  const sig = [document.documentElement.scrollWidth, document.documentElement.scrollHeight,
    ...els.map(e => { const r = e.getBoundingClientRect();
      return `${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.width)},` +
             `${Math.round(r.height)}`; })].join(';');
  const k = `${w}x${h}`;
  if (window.__sizesKit && window.__sizesKit.k === k && window.__sizesKit.sig === sig) {
    window.__sizesKit.n += 1;
  } else {
    window.__sizesKit = {k: k, sig: sig, n: 0};
  }
  return window.__sizesKit.n >= frames;
}"""


def wait_still(page, frames: int = 5, timeout: int = 10_000) -> None:
    """Wait until the page's boxes have not moved for ``frames`` animation frames in a row
    at its current size."""
    size = page.viewport_size
    page.evaluate("() => { window.__sizesKit = null; }")
    try:
        page.wait_for_function(_STILL, arg=[size["width"], size["height"], frames],
                               polling="raf", timeout=timeout)
    except PWTimeout:
        raise AssertionError(f"the page did not settle at {size} within {timeout} ms") \
            from None


def resize(page, width: int, height: int) -> None:
    """Give ``page`` the screen ``width`` x ``height`` and wait until its layout is still."""
    if page.viewport_size != {"width": width, "height": height}:
        page.set_viewport_size({"width": width, "height": height})
    wait_still(page)


def each_size(page, sizes: dict):
    """Yield ``(name, width, height)`` for each of ``sizes`` (name -> (width, height)),
    the page resized to it and settled first; the page's current size comes first (one
    resize fewer)."""
    now = page.viewport_size
    names = sorted(sizes, key=lambda n: sizes[n] != (now["width"], now["height"]))
    for name in names:
        w, h = sizes[name]
        resize(page, w, h)
        yield name, w, h
