"""Dataclasses as JSON and back, each field's JSON form declared once, on the field
(`field(metadata=key(...))`): its name, how it is written and read, when it is left out, what
an older JSON without it means. `to_json` and `from_json` are each other's inverse on every
field carried; a field without a key is written under its own name, as its type says.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

REQUIRED: Any = object()
"""A field whose key must be there to be read."""
DEFAULT: Any = object()
"""A field whose key may be missing (an older JSON, or left out when `omit` holds): its
default is read."""


@dataclass(frozen=True)
class Key:
    """How one field is written in JSON. `name` is its key (`a.b`: key `b` of the object
    under `a`; None: the field's own name); `encode` and `decode` convert its value (else its
    type says how); `spread` fields write their keys into the object itself and are read from
    the whole object; `omit` leaves the field out where it holds; `absent` is what a missing
    key reads as (REQUIRED: an error; DEFAULT: the field's default); a field not `carried`
    is never written and reads as its default."""

    name: str | None = None
    encode: Callable[[Any], Any] | None = None
    decode: Callable[[Any], Any] | None = None
    spread: bool = False
    omit: Callable[[Any], bool] | None = None
    absent: Any = REQUIRED
    carried: bool = True


def key(name: str | None = None, **how: Any) -> dict[str, Key]:
    """A field's metadata: its JSON key (`Key`)."""
    return {"json": Key(name, **how)}


NOT_CARRIED = key(carried=False)
"""The metadata of a field the JSON does not carry."""


def _key(field: dataclasses.Field[Any]) -> Key:
    found = field.metadata.get("json")
    return found if isinstance(found, Key) else Key()


_HINTS: dict[type, dict[str, Any]] = {}
"""Each dataclass's fields' types, resolved once."""


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    return _HINTS[cls]


def to_json(value: Any) -> Any:
    """`value` as JSON: a dataclass as an object of its carried fields (then the keys its
    `json_derived(written)` adds, if it has one), an enum as its value, sequences as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        written: dict[str, Any] = {}
        for field in dataclasses.fields(value):
            how = _key(field)
            item = getattr(value, field.name)
            if not how.carried or (how.omit is not None and how.omit(item)):
                continue
            data = how.encode(item) if how.encode is not None else to_json(item)
            if how.spread:
                written.update(data)
            else:
                _put(written, how.name or field.name, data)
        derived = getattr(value, "json_derived", None)
        if derived is not None:
            derived(written)
        return written
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {name: to_json(item) for name, item in value.items()}
    return value


def from_json(cls: type[T], data: Mapping[str, Any], **known: Any) -> T:
    """The `cls` that `to_json` wrote as `data`, with the fields `known` given instead of
    read; a `KeyError` for a required key missing, a `TypeError` or `ValueError` for a value
    of another shape."""
    if not isinstance(data, Mapping):
        raise TypeError(f"{cls.__name__} is an object, not {type(data).__name__}")
    hints = _hints(cls)
    given: dict[str, Any] = {}
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        how = _key(field)
        if field.name in known or not how.carried or not field.init:
            continue
        if how.spread:
            given[field.name] = how.decode(data) if how.decode is not None else None
            continue
        found, item = _get(data, how.name or field.name)
        if not found:
            if how.absent is REQUIRED:
                raise KeyError(how.name or field.name)
            if how.absent is not DEFAULT:
                given[field.name] = how.absent
            continue
        given[field.name] = (how.decode(item) if how.decode is not None
                             else _read(hints[field.name], item))
    return cls(**given, **known)


def _read(hint: Any, item: Any) -> Any:
    """`item` read as the type `hint`: dataclasses, enums, lists, tuples, dicts and optional
    values of them; anything else as it is."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if item is None:
            return None
        kinds = [arg for arg in args if arg is not type(None)]
        return _read(kinds[0], item) if len(kinds) == 1 else item
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return from_json(hint, item)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(item)
    if origin is list:
        return [_read(args[0], one) for one in _items(item)]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], one) for one in _items(item))
        return tuple(_read(arg, one) for arg, one in zip(args, _items(item), strict=True))
    if origin is dict:
        if not isinstance(item, Mapping):
            raise TypeError(f"an object, not {type(item).__name__}")
        return {name: _read(args[1], one) for name, one in item.items()}
    return item


def _items(item: Any) -> list[Any]:
    if not isinstance(item, list):
        raise TypeError(f"a list, not {type(item).__name__}")
    return item


def _put(written: dict[str, Any], name: str, data: Any) -> None:
    *path, last = name.split(".")
    for part in path:
        written = written.setdefault(part, {})
    written[last] = data


def _get(data: Mapping[str, Any], name: str) -> tuple[bool, Any]:
    item: Any = data
    for part in name.split("."):
        if not isinstance(item, Mapping) or part not in item:
            return False, None
        item = item[part]
    return True, item
