"""The validator of the JSON Schema the package ships for `grade --json`, made once per
process when first used (jsonschema takes a second or more to import, which every xdist
worker would otherwise pay while collecting)."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def grade_schema() -> Any:
    """The validator of the schema the package ships for `grade --json`."""
    from jsonschema import Draft202012Validator

    from minimax_lab.compare.grader.outputs import results_json
    return Draft202012Validator(results_json.schema())
