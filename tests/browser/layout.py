"""Layout checks for the phone-first dashboard (issue 15), run in the real page.

:func:`layout_problems` returns what a player would hit at the current size:

- the page scrolls sideways (the document is wider than the viewport);
- a visible control lies past the right edge of the screen (controls inside a
  box that scrolls by itself, such as a long station grid or a wide table,
  are reachable by scrolling that box and are not counted);
- a visible control (button, toggle, select, text field, checkbox, link
  styled as a button, summary) is less than 44 px tall.

``assert_layout(page, where)`` fails with the list, naming each control by
its text and classes.
"""
from __future__ import annotations

MIN_TOUCH_PX = 44

_JS = """(minPx) => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  const doc = document.scrollingElement || document.documentElement;
  if (doc.scrollWidth > vw + 1) out.push(`page scrolls sideways: ${doc.scrollWidth} > ${vw}`);
  // Voila scrolls the page inside #rendered_cells; no panel may slide sideways either
  // (only the boxes meant to scroll by themselves may: grids and wide tables)
  const own = '.station-grid, .sse-board, .scroll-x';
  for (const el of document.querySelectorAll('#rendered_cells, .companion-root .widget-box, .companion-root .widget-html-content')) {
    if (el.matches(own) || el.closest(own)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'hidden')
      out.push(`slides sideways (${el.scrollWidth} > ${el.clientWidth}): ` +
               Array.from(el.classList).filter(c => !c.startsWith('lm-') && !c.startsWith('jupyter') && !c.startsWith('widget')).join('.') + ' ' + el.id);
  }
  const controls = document.querySelectorAll(
    '.companion-root button, .companion-root select, .companion-root input[type=text], ' +
    '.companion-root input:not([type]), .companion-root input[type=number], ' +
    '.companion-root input[type=checkbox], .companion-root a.export-link, ' +
    '.companion-root summary, .companion-root .lm-TabBar-tab');
  const inScrollBox = (el) => {
    return !!el.closest('.station-grid, .sse-board, .scroll-x');
  };
  const name = (el) => ((el.textContent || el.value || el.placeholder || '').trim().slice(0, 40)
                        + ' <' + el.tagName.toLowerCase() + ' '
                        + Array.from((el.closest('.jupyter-widgets') || el).classList)
                            .filter(c => !c.startsWith('lm-') && !c.startsWith('jupyter') &&
                                         !c.startsWith('widget')).slice(0, 3).join('.') + '>');
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;                 // not shown
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden') continue;
    let h = r.height;
    if (el.type === 'checkbox') {                                 // the label is the target
      const box = el.closest('.widget-checkbox') || el.parentElement;
      h = box.getBoundingClientRect().height;
    }
    if (el.tagName === 'SELECT' && el.multiple) h = Math.max(h, minPx);
    if (r.right > vw + 1 && !inScrollBox(el)) out.push(`past the right edge (${Math.round(r.right)} > ${vw}): ${name(el)}`);
    if (h < minPx - 0.5) out.push(`${Math.round(h)} px tall: ${name(el)}`);
  }
  return out;
}"""


def layout_problems(page) -> list[str]:
    return page.evaluate(_JS, MIN_TOUCH_PX)


def assert_layout(page, where: str) -> None:
    problems = layout_problems(page)
    assert not problems, f"{where}: {len(problems)} layout problem(s):\n" + "\n".join(problems[:40])


def cards_fit(page) -> list[str]:
    """The first label of each final card shown; asserts every card is within the screen
    and needs no sideways scroll."""
    got = page.evaluate("""() => [...document.querySelectorAll('.final-card')]
        .filter(c => c.offsetParent !== null)
        .map(c => ({first: c.querySelector('dt').textContent.trim(),
                    fits: c.getBoundingClientRect().left >= 0
                          && c.getBoundingClientRect().right <= window.innerWidth
                          && c.scrollWidth <= c.clientWidth + 1}))""")
    assert got and all(c["fits"] for c in got), got
    return [c["first"] for c in got]
