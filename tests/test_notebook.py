"""The lecture notebook (docs/lecture.ipynb), run cell by cell in a real Jupyter kernel: no cell
fails, what the cells show is what the engines answer now, and the outputs stored in the file
(so that it reads on GitHub) are exactly those of this run. In headless Chromium, every stepped
tree it shows steps to the end, and no output is cut at the width of a narrow output area.

`python tests/test_notebook.py` runs the notebook and stores its outputs again.
"""

from __future__ import annotations

import copy
import html
import re
import sys
from pathlib import Path

import pytest

from minimax_lab.logic import api as lab
from minimax_lab.logic.toplevel.prolog_terms import Int, Struct, format_term

MISSING = "Jupyter is not installed (pip install '.[notebook]')"
nbformat = pytest.importorskip("nbformat", reason=MISSING)
nbclient = pytest.importorskip("nbclient", reason=MISSING)
pytest.importorskip("ipykernel", reason=MISSING)

ROOT = Path(__file__).resolve().parent.parent
LECTURE = ROOT / "docs" / "lecture.ipynb"
CELL_SECONDS = 120
"""How long one cell may run before the kernel is stopped."""
TREES = {
    'lab.tree("xo-xo-o--", "x", search="alphabeta")': dict(search="alphabeta"),
    'lab.tree("xo-xo-o--", "x", search="minimax")': dict(search="minimax"),
    'lab.tree("---------", "x", depth=2, search="alphabeta", only_best=True)': dict(
        depth=2, search="alphabeta", only_best=True),
}
"""Each cell of the notebook that draws a tree, with the tree it draws."""


def run(notebook):
    """The notebook after a run in a fresh kernel, started in the project's folder."""
    client = nbclient.NotebookClient(notebook, timeout=CELL_SECONDS, kernel_name="python3",
                                     record_timing=False,
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # stops and cleans up its kernel, whatever happens
    return notebook


@pytest.fixture(scope="module")
def stored():
    return nbformat.read(LECTURE, as_version=4)


@pytest.fixture(scope="module")
def executed(stored):
    return run(copy.deepcopy(stored))


def output_of(notebook, source: str) -> dict:
    """The data the cell whose source starts with `source` displayed last."""
    cell = next(cell for cell in notebook.cells
                if cell.cell_type == "code" and cell.source.startswith(source))
    shown = [output for output in cell.outputs
             if output.output_type in ("execute_result", "display_data")]
    assert shown, cell.source
    return shown[-1].data


def outputs(notebook) -> list[list[dict]]:
    """Each code cell's outputs, as what they show (no counts, no metadata)."""
    found = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        found.append([{key: value for key, value in output.items()
                       if key in ("output_type", "name", "text", "data", "ename")}
                      for output in cell.outputs])
    return found


def test_every_cell_runs(executed):
    errors = [output for cell in executed.cells if cell.cell_type == "code"
              for output in cell.outputs if output.output_type == "error"]
    assert errors == []
    assert all(cell.execution_count for cell in executed.cells if cell.cell_type == "code")


def test_the_notebook_ships_with_the_outputs_of_a_fresh_run(stored, executed):
    """Stored, so that the lecture reads anywhere (GitHub shows them); the same as a run now, so
    that they cannot go stale: `python tests/test_notebook.py` stores them again."""
    assert all(cell.outputs for cell in stored.cells
               if cell.cell_type == "code" and not cell.source.startswith("from minimax_lab"))
    assert outputs(stored) == outputs(executed)


def test_the_board_and_the_decision_draw_themselves(executed):
    assert output_of(executed, 'board = lab.board("o-x------", "o")')["image/svg+xml"] == \
        lab.board("o-x------", "o")._repr_svg_()
    decision = lab.minimax_decision("o-x------", "o")
    assert output_of(executed, "lab.minimax_decision(board)")["text/html"] == decision.html()
    assert decision.answer in output_of(executed, "lab.minimax_decision(board)")["text/plain"]


def test_the_prolog_cells_answer_as_the_engine_does(executed):
    shown = output_of(executed, "%%prolog\nsuccessor(")["text/html"]
    answers = re.findall(r"<td><code[^>]*>\[(.*?)\]</code></td>", shown)
    assert ["".join(answer.split(",")) for answer in answers] == \
        [place.state for place in lab.successor("o-x------", "o")]
    traced = output_of(executed, "%%prolog --trace 2")["text/plain"]
    assert traced.splitlines()[1] == " Call: (1) max_value([o,-,x,-,-,-,-,-,-], o, _)"
    assert traced.endswith(lab.max_value("o-x------", "o").answer)
    values = output_of(executed, "%%prolog\nfindall(C-V")["text/plain"]
    expected = lab.explain("o-x------", "o").values
    pairs = ",".join(format_term(Struct("-", (Int(cell), Int(value))))
                     for cell, value in expected.items())
    assert f"Values = [{pairs}]." in values  # 2- -1, as SWI-Prolog writes it
    assert [int(cell) for cell in re.findall(r"C = (\d)", values)] == [
        cell for cell, value in expected.items() if value == 1]


def test_the_clauses_show_beside_the_rules_and_the_python(executed):
    for name in ("successor", "max_value", "min_value", "minimax_decision"):
        shown = output_of(executed, f'lab.listing("{name}")')
        assert shown["text/html"] == lab.listing(name).html()
        assert shown["text/html"].count('class="listing-part"') == 3
    listed = output_of(executed, "%%prolog\n:listing terminal_state")["text/plain"]
    assert listed.startswith("?- :listing terminal_state\n% the lab in Prolog "
                             "(logic/prolog/lab.pl):\n")
    for title in ("% the lab in pyDatalog (logic/rules.py):",
                  "% the lab in Python (logic/reference.py):",
                  "terminal_state(State, Player, 1) :-\n    once(winning_config(State, Player))."):
        assert title in listed


def test_explain_stats_and_the_trees_are_the_engines_answers(executed):
    assert output_of(executed, "lab.explain(board)")["text/html"] == lab.explain(
        "o-x------", "o").html()
    assert output_of(executed, "lab.stats(board)")["text/plain"] == lab.stats(
        "o-x------", "o").text()
    for source in TREES:
        assert output_of(executed, source)["text/html"] == tree_of(source).html()
        assert output_of(executed, source)["text/html"].startswith("<iframe")


def tree_of(source: str) -> lab.TreeView:
    """The tree a cell of the notebook draws, built here as the cell builds it."""
    state, player = re.match(r'lab\.tree\("(.*?)", "(.)"', source).groups()
    return lab.tree(state, player, **TREES[source])


def test_every_tree_cell_of_the_notebook_is_stepped_here(stored):
    drawn = [cell.source for cell in stored.cells
             if cell.cell_type == "code" and "lab.tree(" in cell.source]
    assert sorted(drawn) == sorted(TREES)


# --- in a browser ----------------------------------------------------------------------------

@pytest.mark.parametrize("source", list(TREES))
def test_every_tree_in_the_notebook_steps_to_the_end_in_its_frame(executed, browser, tmp_path,
                                                                   source):
    from test_tree_html import assert_steps_as_the_search_went, step_open_page

    frame = output_of(executed, source)["text/html"]
    host = tmp_path / "cell.html"
    host.write_text(f"<!DOCTYPE html><html><body>{frame}</body></html>", encoding="utf-8")
    browser.get(host.as_uri())
    browser.switch_to.frame(browser.find_element("tag name", "iframe"))
    try:
        shown = step_open_page(browser)
    finally:
        browser.switch_to.default_content()
    assert_steps_as_the_search_went(tree_of(source).tree, shown, viewport=None)


NARROW = 480
"""A narrow output area, in pixels: a notebook beside a slide, or on a small screen."""


def test_no_output_is_cut_at_the_width_of_a_narrow_output_area(executed, browser, tmp_path):
    shown = [output["data"]["text/html"] for cell in executed.cells if cell.cell_type == "code"
             for output in cell.outputs if "text/html" in output.get("data", {})]
    assert len(shown) >= 10
    for number, piece in enumerate(shown):
        page = tmp_path / f"output{number}.html"
        page.write_text(f'<!DOCTYPE html><html><body style="margin:0"><div id="area" '
                        f'style="width:{NARROW}px;overflow:hidden">{piece}</div></body></html>',
                        encoding="utf-8")
        browser.get(page.as_uri())
        wide = browser.execute_script("""
            const area = document.getElementById('area');
            return [...area.querySelectorAll('*')]
              .filter(e => e.getBoundingClientRect().right > area.getBoundingClientRect().right + 1
                           && getComputedStyle(e).display !== 'none')
              .map(e => e.tagName + ': ' + (e.innerText || '').slice(0, 60));""")
        assert wide == [], html.unescape(piece[:200])


def store() -> None:
    """Run the notebook and store its outputs in it."""
    notebook = run(nbformat.read(LECTURE, as_version=4))
    nbformat.write(notebook, LECTURE)


if __name__ == "__main__":
    store()
    sys.exit(0)
