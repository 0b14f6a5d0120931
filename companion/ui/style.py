"""The dashboard's shared stylesheet: one hand on a phone, a glance on a laptop.

Applies to everything under ``.companion-root`` (both games' tabs and History):

* no sideways scrolling at any width: boxes wrap, fixed widths shrink to the
  screen, wide tables and long station grids scroll inside their own box;
* every button, toggle, select, text field and checkbox is a touch target at
  least 44 px tall;
* SVG pictures (stations, hex maps, charts) scale down to the width.

Class hooks used here: ``scroll-x`` (a box that scrolls sideways inside
itself; ``final-sources``, the final table's sources, is one), ``station-grid``
and ``sse-board`` (grids that scroll in their box),
``turn-entry`` / ``values-form`` (the card form beside the grid, issue 37) and
``scroll-here-<n>`` (:func:`scroll_into_view`: an element the page brings into view).
"""
import itertools

TOUCH_PX = 44

CSS = f"""<style>
.companion-root {{ max-width: 100%; overflow-x: hidden; box-sizing: border-box;
  --jp-widgets-inline-height: {TOUCH_PX}px; --jp-widgets-horizontal-tab-height: {TOUCH_PX}px; }}
.companion-root .widget-box, .companion-root .widget-inline-hbox,
.companion-root .widget-inline-vbox {{ max-width: 100%; box-sizing: border-box; }}
.companion-root .widget-hbox {{ flex-wrap: wrap; }}
.companion-root .widget-text, .companion-root .widget-dropdown, .companion-root .widget-select,
.companion-root .widget-combobox, .companion-root .widget-inline-hbox,
.companion-root .widget-intslider, .companion-root .widget-inttext,
.companion-root .widget-tagsinput {{ max-width: 100%; }}
/* touch targets */
.companion-root button, .companion-root .widget-button, .companion-root .widget-toggle-button,
.companion-root .jupyter-button {{ min-height: {TOUCH_PX}px; }}
.companion-root .widget-text input, .companion-root .widget-combobox input,
.companion-root .widget-inttext input, .companion-root .widget-dropdown select,
.companion-root .widget-dropdown > select {{ min-height: {TOUCH_PX}px; height: {TOUCH_PX}px; }}
.companion-root .widget-text, .companion-root .widget-combobox, .companion-root .widget-dropdown,
.companion-root .widget-inttext {{ height: auto; min-height: {TOUCH_PX}px; }}
.companion-root .widget-checkbox {{ min-height: {TOUCH_PX}px; height: auto; align-items: center; }}
.companion-root .widget-checkbox input[type=checkbox] {{ width: 22px; height: 22px; }}
.companion-root .widget-checkbox label {{ min-height: {TOUCH_PX}px; display: flex;
  align-items: center; }}
.companion-root .widget-toggle-buttons {{ flex-wrap: wrap; height: auto; }}
.companion-root .widget-toggle-buttons .widget-toggle-button {{ height: auto; }}
.companion-root .widget-radio-box label {{ min-height: {TOUCH_PX}px; display: flex;
  align-items: center; }}
.companion-root .widget-accordion .lm-AccordionPanel-title,
.companion-root .jupyter-widget-Collapse-header {{ min-height: {TOUCH_PX}px; display: flex;
  align-items: center; }}
.companion-root summary {{ min-height: {TOUCH_PX}px; line-height: 1.35; padding: 11px 0;
  box-sizing: border-box;
  display: list-item; cursor: pointer; }}
.companion-root a.export-link {{ min-height: {TOUCH_PX}px; box-sizing: border-box;
  display: inline-flex; align-items: center; }}
/* pictures and tables fit the width; wide ones scroll in their own box */
.companion-root svg {{ max-width: 100%; height: auto; }}
.companion-root .scroll-x {{ overflow-x: auto; max-width: 100%; -webkit-overflow-scrolling: touch; }}
/* the final table's "Every VP with its source" (long rules in its rows): its own box
   swipes sideways on a phone, never the page */
.companion-root .final-sources {{ overflow-x: auto; max-width: 100%;
  -webkit-overflow-scrolling: touch; }}
/* ... wide enough that its rule column reads in lines, not a word a line (the box
   swipes instead); CSS: a min-width above the max-width wins */
.companion-root .final-sources table {{ min-width: 620px; }}
.companion-root .station-grid {{ overflow: auto; max-width: 100%; max-height: 60vh; }}
.companion-root .sse-board {{ overflow: auto; max-width: 100%; }}
.companion-root table {{ max-width: 100%; }}
.companion-root .widget-html-content {{ max-width: 100%; overflow-wrap: break-word;
  line-height: 1.35; }}
.companion-root .widget-html-content table th {{ white-space: nowrap; }}
.companion-root .score-table td, .companion-root .score-table th {{ padding: 3px 8px; }}
.companion-root .game-tabs .lm-TabBar-tabLabel {{ white-space: normal; line-height: 1.15; }}
/* contrast (axe color-contrast, WCAG AA 4.5:1): Lumino's unselected tab and the
   collapsed boxes' titles are a light grey by default */
.companion-root .lm-TabBar-tab:not(.lm-mod-current) .lm-TabBar-tabLabel,
.companion-root .jupyter-widget-Collapse-header,
.companion-root .jupyter-widget-Collapse-header span {{ color: #333 !important; }}
/* words for a screen reader only (a column's name the screen shows by its place) */
.companion-root .sr-only {{ position: absolute; width: 1px; height: 1px; padding: 0;
  margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }}
/* tab titles share the width */
.companion-root .game-tabs .lm-TabBar {{ min-height: {TOUCH_PX}px; }}
.companion-root .game-tabs .lm-TabBar-tab {{ min-width: 0; flex: 1 1 auto;
  min-height: {TOUCH_PX}px; display: flex; align-items: center; }}
.companion-root .game-tabs .lm-TabBar-content {{ min-height: {TOUCH_PX}px; align-items: stretch; }}
/* ... as specific as ipywidgets' own tab rules (".jupyter-widgets.widget-tab > .lm-TabBar
   .lm-TabBar-tab"), which won before: at 390 px "Small Star Empires" was cut (issue 50) */
.companion-root .game-tabs.widget-tab > .lm-TabBar .lm-TabBar-tab {{ min-width: 0;
  flex: 1 1 auto; height: auto; min-height: {TOUCH_PX}px; }}
.companion-root .game-tabs.widget-tab > .lm-TabBar .lm-TabBar-tabLabel {{ white-space: normal;
  overflow: visible; line-height: 1.15; height: auto; }}
.companion-root .game-tabs.widget-tab > .lm-TabBar {{ height: auto; }}
/* a check box's words wrap instead of ending in "…" (setup's "Score a finished game ...") */
.companion-root .widget-checkbox .widget-label-basic,
.companion-root .widget-checkbox .widget-label-basic span {{ white-space: normal;
  overflow: visible; text-overflow: clip; line-height: 1.3; height: auto; }}
@media (max-width: 600px) {{
  .companion-root {{ font-size: 15px; }}
  .companion-root .widget-label {{ width: auto !important; max-width: 40%; }}
  .companion-root .widget-inline-hbox .widget-label {{ flex: 0 0 auto; }}
  .companion-root .widget-text, .companion-root .widget-combobox,
  .companion-root .widget-dropdown, .companion-root .widget-select,
  .companion-root .widget-inttext {{ width: auto !important; flex: 1 1 auto;
    max-width: calc(100% - 4px); }}
  .companion-root .widget-vbox > .widget-text, .companion-root .widget-vbox > .widget-combobox,
  .companion-root .widget-vbox > .widget-dropdown, .companion-root .widget-vbox > .widget-select,
  .companion-root .widget-vbox > .widget-inttext {{ align-self: stretch; }}
  .companion-root .phone-hide {{ display: none !important; }}
  .companion-root h2 {{ font-size: 1.15em; }}
  .companion-root .game-tabs .lm-TabBar-tab {{ font-size: 12px; padding: 0 4px; }}
}}
</style>"""

# ---------------------------------------------------------------- Small Star Empires, History
#: Issue 15 for the Small Star Empires and History tabs (appended: the rules above are shared).
#: The SSE board of hex buttons is sized from its box (``.sse-board-wrap`` is a CSS size
#: container; companion/ui/sse_screen.py ``col_css``): a 2-player map fits a phone, larger maps
#: keep 44 px hexes and scroll sideways inside ``.sse-board``.
SSE_HISTORY_CSS = """<style>
.companion-root .sse-board-wrap { container-type: inline-size; overflow: visible; }
.companion-root .sse-board { justify-content: start; }
.companion-root .sse-root .jupyter-button { max-width: 100%; }
.companion-root .sse-turn .widget-html-content { overflow: hidden; }
.companion-root .sse-turn-line { white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
  font-size: 1.05em; padding: 2px 0; }
.companion-root .sse-message .widget-html-content > div { padding: 2px 0 !important; }
/* while the SSE play screen is shown, its message sits next to the entry (.sse-message, the
   same text): the status line above the tabs would only repeat it */
.companion-root:has(.game-tabs .widget-tab-contents > .lm-Widget:not(.lm-mod-hidden) .sse-play)
  > .companion-status { display: none; }
.companion-root .sse-entry .widget-toggle-buttons .widget-toggle-button { width: auto;
  min-width: 44px; padding: 0 10px; }
.companion-root .sse-entry .widget-toggle-buttons .widget-label { width: auto; min-width: 0;
  margin-right: 6px; }
.companion-root .sse-entry .sse-hint { font-size: 0.92em; }
/* the label of a choice on the left of its buttons, the buttons wrapping (one row less) */
.companion-root .sse-entry .widget-toggle-buttons { display: flex; flex-wrap: nowrap;
  align-items: center; }
.companion-root .sse-entry .widget-toggle-buttons > div { flex: 1 1 0; min-width: 0;
  display: flex; flex-wrap: wrap; }
.companion-root .sse-turn-over { white-space: normal; }
.companion-root .sse-score td { white-space: nowrap; }
/* a wide final table scrolls under the players' names (the total is the 2nd column) */
.companion-root .sse-final-table td:first-child, .companion-root .sse-final-table th:first-child,
.companion-root .final-table td:first-child, .companion-root .final-table th:first-child
  { position: sticky; left: 0; background: white; z-index: 1; }
/* headers wrap (the shared rule keeps table headers on one line) */
.companion-root .widget-html-content table.sse-score th,
.companion-root .widget-html-content table.sse-final-table th,
.companion-root .widget-html-content table.sse-whatif-table th,
.companion-root .widget-html-content table.sse-score-more-table th,
.companion-root .widget-html-content table.history-table th { white-space: normal;
  vertical-align: bottom; }
.companion-root .sse-score td, .companion-root .sse-score th { padding: 3px 8px; }
.companion-root .sse-setup .widget-vbox > .widget-text { max-width: 100%; }
.companion-root .sse-setup .widget-checkbox { width: auto; max-width: calc(100% - 4px); }
.companion-root .sse-setup .widget-checkbox label { white-space: normal; line-height: 1.3; }
/* the line of entry (issue 40): the cell or system a sentence named, until confirmed */
.companion-root .grid-cell.said-cell, .companion-root .sse-hex.said {
  outline: 4px solid #1d4ed8; outline-offset: -4px; font-weight: 700; }
.companion-root .say-box .say-line input { min-height: 40px; font-size: 16px; }
.companion-root .say-row { flex-wrap: nowrap !important; }
.companion-root .say-row .say-line { flex: 1 1 0% !important; min-width: 0 !important;
  width: auto !important; }
.companion-root .say-row .say-line input { min-width: 0; width: 100%; }
/* a camera button: its icon only (the file input's label and count hidden) */
.companion-root .camera-icon { font-size: 0 !important; padding: 0 !important; }
.companion-root .camera-icon i { font-size: 18px; margin: 0 !important; }
.companion-root .history-tab a.export-link { text-decoration: none !important; }
.companion-root .history-tab .history-table td,
.companion-root .history-tab .history-table th { padding: 2px 8px; text-align: left; }
.companion-root .history-tab .widget-intslider { max-width: 100%; }
.companion-root .history-tab .widget-select select { min-height: 44px; }
@media (max-width: 600px) {
  .companion-root .sse-entry .widget-toggle-buttons .widget-toggle-button { padding: 0 6px; }
  .companion-root .sse-final-table td, .companion-root .sse-final-table th { padding: 2px 5px; }
  .companion-root .sse-root .sse-hex { font-size: 10px; }
  .companion-root .sse-root table.sse-score td,
  .companion-root .sse-root table.sse-score th { padding: 3px 5px; }
  .companion-root .sse-score .status { font-size: 0.85em; }
  .companion-root .sse-root .sse-hex.legal { font-size: 13px; }
  .companion-root .history-tab .widget-hbox > .history-step { flex: 1 1 100%; order: -1;
    width: auto !important; }
  .companion-root .history-tab .widget-hbox > .history-prev,
  .companion-root .history-tab .widget-hbox > .history-next { flex: 1 1 40%; }
  .companion-root .history-tab h3 { font-size: 1.05em; margin: 8px 0 4px; }
}
</style>"""
CSS += SSE_HISTORY_CSS

# ---------------------------------------------------------------- the live line (issue 20)
#: "● live" only while the page template's watchdog hears the kernel's heartbeat
#: (``body.companion-live``); "○ not connected" while it knows it does not
#: (``body.companion-offline``); neither before it knows (a page without the watchdog).
#: "○ not connected to the games' store" (``.live-store``) while the kernel's polls of the
#: store get no answer (companion.ui.live.poll_store, issue 35).
LIVE_CSS = """<style>
.live-state .live-on, .live-state .live-off { display: none; }
body.companion-live .live-state .live-on { display: inline; }
body.companion-offline .live-state .live-off { display: inline; color: #b3261e;
  font-weight: 600; }
.live-state .live-store { color: #b3261e; font-weight: 600; }
.companion-heartbeat { display: none !important; }
</style>"""
CSS += LIVE_CSS

# ------------------------------------------------------- SSE sector tiles (issue 24)
#: Typing a tile at 390 px with one hand: the brushes in a 3-column grid (3 rows, not 9),
#: the tile's kind in 2 columns, the list's rows on one line each.
TILES_CSS = """<style>
.companion-root .sse-tile-brush > div, .companion-root .sse-tile-kind > div {
  display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 4px; width: 100%; }
.companion-root .sse-tile-kind > div { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.companion-root .sse-tile-brush, .companion-root .sse-tile-kind { width: 100%; max-width: 420px; }
.companion-root .sse-tile-brush .widget-toggle-button,
.companion-root .sse-tile-kind .widget-toggle-button { width: auto; min-width: 0; margin: 0;
  font-size: 15px; }
.companion-root .sse-tile-brush .widget-toggle-button.mod-active,
.companion-root .sse-tile-kind .widget-toggle-button.mod-active {
  background-color: #1e3a8a !important; color: white !important; font-weight: bold; }
/* a small gap between the typing grid's hexes: each hex reads as its own target */
.companion-root .sse-tile-grid .sse-hex, .companion-root .sse-form-grid .sse-hex {
  transform: scale(0.93); }
.companion-root .sse-tile-list .widget-hbox { align-items: center; flex-wrap: nowrap; }
.companion-root .sse-lay .widget-hbox { align-items: center; }
.companion-root .sse-lay .widget-hbox .widget-dropdown { flex: 1 1 0; min-width: 0; }
</style>"""
CSS += TILES_CSS

# ------------------------------------------------- the table view as a display (issue 37)
#: ``?view=table`` on the TV or laptop in the middle of the table (companion/ui/tableview.py):
#: the display (``.tv``) fills the viewport under the tabs; a landscape screen shows the
#: stations in a row (or the map) with the scores in large type; a phone held upright
#: stacks them.  The play screen carries ``tv-on`` while it is the display: what the
#: display replaces (turn line, scoreboard, objectives) is hidden, the title too.
TABLE_VIEW_CSS = """<style>
.companion-root:has(.tv-on) > .companion-title { display: none !important; }
.companion-root .tv-on > .turn-info, .companion-root .tv-on > .scoreboard,
.companion-root .tv-on > .objectives-panel, .companion-root .tv-on > .timer-row,
.companion-root .tv-on > .sse-score, .companion-root .tv-on > .sse-score-more,
.companion-root .tv-on > .sse-more { display: none !important; }
.companion-root .tv { --tv-top: 150px; --tv-band: clamp(16px, 1.8vw, 46px);
  display: grid; gap: 1vh 1.5vw; box-sizing: border-box; width: 100%;
  height: calc(100vh - var(--tv-top)); min-height: 360px; line-height: 1.2; }
.companion-root .tv-ats { grid-template-rows: minmax(0, 1fr) auto; }
.companion-root .tv-sse { --tv-top: 96px; --tv-band: clamp(16px, 1.6vw, 42px);
  grid-template-columns: minmax(0, 1fr) clamp(240px, 22vw, 560px); }
.companion-root .tv-stations { display: grid; min-height: 0; gap: 1vh 1.5vw;
  grid-template-columns: repeat(var(--tv-cols), minmax(0, 1fr)); grid-auto-rows: minmax(0, 1fr); }
.companion-root .tv-station { display: flex; flex-direction: column; min-height: 0; min-width: 0; }
.companion-root .tv-name { font-size: clamp(16px, 1.7vw, 42px); font-weight: bold;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.companion-root .tv-name .tv-vp { font-weight: normal; margin-left: 0.6em; color: #333; }
.companion-root .tv-acted { color: #1b7f3b; }
.companion-root .tv-svg { flex: 1 1 0; min-height: 0; display: flex; align-items: center;
  justify-content: center; }
.companion-root .tv-svg svg { width: calc(100% * var(--tv-w)); height: calc(100% * var(--tv-h));
  max-width: none; max-height: none; }
.companion-root .tv-map { min-height: 0; min-width: 0; display: flex; align-items: center;
  justify-content: center; }
.companion-root .tv-map svg.sse-map { width: 100% !important; height: 100% !important;
  max-width: none !important; }
.companion-root .tv-band { display: flex; flex-wrap: wrap; align-items: flex-start;
  gap: 1vh 3vw; font-size: var(--tv-band); min-width: 0; }
.companion-root .tv-sse .tv-band { flex-direction: column; flex-wrap: nowrap; overflow: auto; }
.companion-root .tv-where { font-size: clamp(20px, 2.5vw, 60px); }
.companion-root .tv-turn { font-weight: bold; }
.companion-root .tv-of, .companion-root .tv-last { font-size: 0.6em; color: #444; font-weight: normal; }
.companion-root .widget-html-content table.tv-score { border-collapse: collapse; font-size: var(--tv-band); }
.companion-root table.tv-score th { font-size: 0.6em; text-align: right; padding: 0 0.4em;
  border-bottom: 2px solid #999; }
.companion-root table.tv-score th:first-child, .companion-root table.tv-score td:first-child
  { text-align: left; }
.companion-root table.tv-score td { padding: 0.05em 0.4em; text-align: right;
  font-variant-numeric: tabular-nums; }
.companion-root table.tv-score td.vp { font-weight: bold; }
.companion-root table.tv-score td.tv-who { white-space: nowrap; }
.companion-root .widget-html-content .tv-sse table.tv-score th { white-space: normal; }
.companion-root table.tv-score tr.tv-todo td.tv-who { color: #1e3a8a; font-weight: bold; }
.companion-root table.tv-score tr.tv-todo td.tv-who::after { content: " ◀"; }
.companion-root .tv-dot { display: inline-block; width: 0.7em; height: 0.7em; border-radius: 50%;
  margin-right: 0.3em; vertical-align: middle; }
.companion-root .tv-objectives { font-size: clamp(13px, 1vw, 26px); max-width: 40vw; }
.companion-root .tv-legend { font-size: 12px; }
.companion-root .tv-legend .legend, .companion-root .tv-legend .sse-legend { font-size: clamp(11px, 0.7vw, 18px) !important; }
.companion-root .tv-ats .tv-legend { flex: 1 1 100%; }
/* issue 50: the table view's page is the display alone: no tabs, no title, no news
   banners ("Resumed ...", "Updated from another page"); a refusal still shows */
.companion-root.tv-page > .companion-title, .companion-root.tv-page > .game-tabs > .lm-TabBar,
.companion-root.tv-page .live-note,
.companion-root.tv-page > .companion-status:not(:has(.status-error)),
.companion-root.tv-page .final-message:not(:has(.status-error)),
.companion-root.tv-page .entry-message:not(:has(.status-error)) { display: none !important; }
.companion-root.tv-page .tv { --tv-top: 48px; }
.companion-root.tv-page .tv-on > .table-stations, .companion-root.tv-page .tv-on > .tv-display
  { order: -1; }
.companion-root .tv-end .tv-name .tv-vp { display: none; }
/* ... and at the game's end the winner and the final totals first, in large type */
.companion-root .tv-end { grid-template-columns: auto minmax(0, 1fr); grid-template-rows: minmax(0, 1fr) auto;
  --tv-big: clamp(28px, 3.2vw, 84px); }
.companion-root .tv-end > .tv-result { grid-row: 1 / span 2; min-width: 0; max-width: 46vw;
  overflow: hidden; }
.companion-root .tv-end > .tv-main { min-height: 0; min-width: 0; }
.companion-root .tv-end > .tv-objectives, .companion-root .tv-end > .tv-ended {
  max-width: none; font-size: clamp(14px, 1.1vw, 28px); }
.companion-root .tv-winner { font-size: var(--tv-big); font-weight: bold; color: #14532d;
  line-height: 1.15; margin-bottom: 0.2em; }
.companion-root .tv-decided, .companion-root .tv-pending { font-size: clamp(16px, 1.3vw, 34px);
  color: #333; margin-bottom: 0.4em; }
.companion-root .widget-html-content table.tv-final { border-collapse: collapse;
  font-size: var(--tv-big); }
.companion-root table.tv-final th { font-size: 0.45em; text-align: right; padding: 0 0.4em;
  border-bottom: 2px solid #999; color: #333; }
.companion-root table.tv-final th:nth-child(2) { text-align: left; }
.companion-root table.tv-final td { padding: 0.05em 0.4em; font-variant-numeric: tabular-nums; }
.companion-root table.tv-final td.tv-rank { font-size: 0.6em; color: #555; text-align: right; }
.companion-root table.tv-final td.tv-who { white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; max-width: 24vw; }
.companion-root table.tv-final td.tv-total { font-weight: bold; text-align: right; }
.companion-root table.tv-final tr.tv-won td { color: #14532d; }
@media (max-aspect-ratio: 1/1) {
  .companion-root .tv-end > .tv-result { grid-row: auto; max-width: none; }
  .companion-root .tv-end { --tv-big: clamp(26px, 7vw, 60px); }
}
@media (max-aspect-ratio: 1/1) {
  /* a phone (or a screen) held upright: everything stacked, the page scrolls */
  .companion-root .tv { height: auto; min-height: 0; grid-template-columns: minmax(0, 1fr);
    grid-template-rows: auto; }
  .companion-root .tv-stations { grid-template-columns: repeat(min(var(--tv-n), 2), minmax(0, 1fr));
    grid-auto-rows: auto; }
  .companion-root .tv-svg { flex: none; display: block; text-align: center; }
  .companion-root .tv-svg svg { width: calc(100% * var(--tv-w)); height: auto; }
  .companion-root .tv-map svg.sse-map { height: auto !important; }
  .companion-root .tv-band { font-size: clamp(18px, 4.6vw, 40px); }
  .companion-root .widget-html-content table.tv-score { font-size: clamp(18px, 4.6vw, 40px); }
  .companion-root .tv-where { font-size: clamp(20px, 5.6vw, 48px); }
  .companion-root .tv-objectives { max-width: none; font-size: 15px; }
}
</style>"""
CSS += TABLE_VIEW_CSS

# ------------------------------------------- the card-values form beside the grid (issue 37)
#: "At 1366x768 the form pushes the station below the screen": from 900 px wide, while the
#: turn entry (``.turn-entry``) holds a card form (``.values-form > .card-form``: unknown
#: printed values, a new card), the form stands in a column of its own beside the entry,
#: from the entry's top: the grid, the cell to tap and the form's Save are on one screen.
#: The entry's own rows keep their heights (the last row, empty, takes what the form adds).
#: Narrower, the form stays above the grid (one column) and the kernel brings the message
#: and the grid back into view once it is saved (:func:`scroll_into_view`).
CARD_FORM_CSS = """<style>
@media (min-width: 900px) {
  .companion-root .turn-entry:has(> .values-form > .card-form) { display: grid;
    grid-template-columns: minmax(0, 1fr) clamp(500px, 50%, 640px);
    grid-template-rows: repeat(8, auto) 1fr; column-gap: 16px;
    align-content: start; align-items: start; }
  .companion-root .turn-entry:has(> .values-form > .card-form) > * { grid-column: 1; }
  .companion-root .turn-entry:has(> .values-form > .card-form) > .values-form {
    grid-column: 2; grid-row: 1 / -1; }
}
</style>"""
CSS += CARD_FORM_CSS

#: the class token the page template's hook watches (index.html.j2, "brought into view")
SCROLL_TOKEN = "scroll-here-"
_scrolls = itertools.count(1)


def scroll_into_view(*widgets) -> None:
    """Bring ``widgets`` on the screen, in this order (issue 37: "on a phone the player
    scrolls back up" once a form above the grid is saved).  Each gets a new class token
    ``scroll-here-<n>``; the page template scrolls an element whose class gains one into
    view with ``scrollIntoView({block: 'nearest'})``: nothing moves when it is on the
    screen already.  A page without the template ignores the token."""
    for wd in widgets:
        keep = [c for c in wd._dom_classes if not c.startswith(SCROLL_TOKEN)]
        wd._dom_classes = (*keep, f"{SCROLL_TOKEN}{next(_scrolls)}")
