"""The lecture notebook (docs/lecture.ipynb), run cell by cell in a real Jupyter kernel: no cell
fails, and what the cells show is what the engines answer now."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from logic import api as lab

MISSING = "Jupyter is not installed (pip install '.[test]')"
nbformat = pytest.importorskip("nbformat", reason=MISSING)
nbclient = pytest.importorskip("nbclient", reason=MISSING)
pytest.importorskip("ipykernel", reason=MISSING)

ROOT = Path(__file__).resolve().parent.parent
LECTURE = ROOT / "docs" / "lecture.ipynb"
CELL_SECONDS = 120
"""How long one cell may run before the kernel is stopped."""


@pytest.fixture(scope="module")
def executed():
    """The notebook after a run in a fresh kernel, started in the project's folder."""
    notebook = nbformat.read(LECTURE, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=CELL_SECONDS, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # stops and cleans up its kernel, whatever happens
    return notebook


def output_of(notebook, source: str) -> dict:
    """The data the cell whose source starts with `source` displayed last."""
    cell = next(cell for cell in notebook.cells
                if cell.cell_type == "code" and cell.source.startswith(source))
    shown = [output for output in cell.outputs
             if output.output_type in ("execute_result", "display_data")]
    assert shown, cell.source
    return shown[-1].data


def test_every_cell_runs(executed):
    errors = [output for cell in executed.cells if cell.cell_type == "code"
              for output in cell.outputs if output.output_type == "error"]
    assert errors == []
    assert all(cell.execution_count for cell in executed.cells if cell.cell_type == "code")


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


def test_explain_stats_and_the_trees_are_the_engines_answers(executed):
    assert output_of(executed, "lab.explain(board)")["text/html"] == lab.explain(
        "o-x------", "o").html()
    assert output_of(executed, "lab.stats(board)")["text/plain"] == lab.stats(
        "o-x------", "o").text()
    page = output_of(executed, 'lab.tree("xo-xo-o--", "x", search="alphabeta")')["text/html"]
    assert page == lab.tree("xo-xo-o--", "x", search="alphabeta").html()
    assert page.startswith("<iframe")
