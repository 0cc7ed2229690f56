"""Each op declared once: ``@op`` reads a function's signature, and everything else
follows from it.

>>> @op(write=True)                                              # doctest: +SKIP
... def record(ledger: Ledger, session: SessionRow, line: Line, key: str) -> Any:
...     '''AFTER: the deal written, as ``bigtwo deal LINE --json``.'''

The parameters after ``ledger`` are the op's JSON arguments: their names (a trailing
``_`` dropped: ``from_`` is ``from``), their types (``int``, ``str`` or
``Annotated[str, Limit(n)]`` with its length cap, ``bool``, ``dict[str, Any]`` for an
object, ``list[str] | str`` for names, ``SessionRow`` for a session named by its number),
their defaults (an argument with none is required) and, from ``write``, whether the op
writes: a write takes ``key``, the idempotency key, checked once here.  From that one
declaration come the argument checking (:meth:`Op.call`: an argument the op does not
take is refused, so a typo is never ignored), the hub's routes (``GET /api/<op>`` for
reads, ``POST`` for writes), the phone's worker (the same :func:`ledger.engine.dispatch.call`),
the JavaScript op list (``ledger/web/static/app/ops.js``) and the op tables of
docs/serve.md, both written by ``scripts/make_ops.py`` (a test fails when they are
stale).  Pure Python: it runs in Pyodide too.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from types import NoneType, UnionType
from typing import Annotated, Any, NamedTuple, Union, get_args, get_origin, get_type_hints

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

MAX_TEXT = 2000  # characters of a text argument unless its type says less: a deal line, names
MAX_KEY = 100
KEY_RE = re.compile(r"[A-Za-z0-9-]{8,100}")

Args = Mapping[str, Any]


class Limit(NamedTuple):
    """The most characters a text argument takes: ``Annotated[str, Limit(200)]``."""

    chars: int | None  # None: no cap of its own (the request's size caps it)


# The kinds of argument, as the docs and ops.js name them.
KINDS = {"int": "a whole number", "text": "text", "bool": "true or false", "object": "an object",
         "names": "a list of names, or one text of names split by commas",
         "session": "a session number", "key": "the idempotency key"}


class Param(NamedTuple):
    """One argument of an op: its JSON name, the Python parameter it fills, its kind
    (a key of :data:`KINDS`), whether it must be given, its default, its length cap."""

    name: str
    arg: str
    kind: str
    required: bool
    default: Any = None
    limit: int | None = None

    def read(self, ledger: Ledger, args: Args) -> Any:
        """The argument's value from ``args``, checked against its declared type."""
        value = args.get(self.name)
        if value is None:
            if self.required:
                if self.kind == "session":
                    raise InputError(_('missing "session" in the request: every table is named '
                                       'by its session number'))
                raise InputError(_('missing "{key}" in the request').format(key=self.name))
            return self.default
        if self.kind in ("int", "session"):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(_('"{key}" must be a whole number, e.g. {example}').format(
                    key=self.name, example=f'{{"{self.name}": 3}}'))
            if self.kind == "session":
                from ledger.book.actions import current_session

                return current_session(ledger, value)
            return value
        if self.kind == "bool":
            if value in ("true", "false"):
                return value == "true"
            if not isinstance(value, bool):
                raise InputError(_('"{key}" must be true or false').format(key=self.name))
            return value
        if self.kind == "object":
            if not isinstance(value, dict):
                raise InputError(_('"{key}" must be an object, e.g. {example}').format(
                    key=self.name, example='{"assist": true}'))
            return value
        if self.kind == "names":
            if isinstance(value, str):
                self.capped(value)
                value = value.replace("，", ",").split(",")
            if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
                raise InputError(_('"{key}" must be a list of names, e.g. {example}').format(
                    key=self.name, example='["陳大文", "Ben", "Cat", "Dan"]'))
            return value
        if not isinstance(value, str):
            raise InputError(_('"{key}" must be a string').format(key=self.name))
        self.capped(value)
        if self.kind == "key":
            if not KEY_RE.fullmatch(value):
                raise InputError(_("the idempotency key must be 8 to 100 letters, digits and "
                                   "dashes (a uuid such as 0f8b…-…)"))
            return value.lower()
        return value

    def capped(self, value: str) -> None:
        if self.limit is not None and len(value) > self.limit:
            raise InputError(_('"{key}" is longer than {limit} characters').format(
                key=self.name, limit=self.limit))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "required": self.required,
                "limit": self.limit}


class Op(NamedTuple):
    """An op: its name, whether it writes, its arguments and the function answering it."""

    name: str
    write: bool
    params: tuple[Param, ...]
    func: Callable[..., Any]

    @property
    def method(self) -> str:
        return "POST" if self.write else "GET"

    @property
    def doc(self) -> str:
        """What it answers: its docstring, as one paragraph."""
        return " ".join((inspect.getdoc(self.func) or "").split())

    def takes(self) -> list[str]:
        return [p.name for p in self.params]

    def call(self, ledger: Ledger, args: Args) -> Any:
        """Check ``args`` against the declaration (unknown names, types, lengths; the
        key of a write first) and run the op."""
        extra = sorted(set(args) - set(self.takes()))
        if extra:
            raise InputError(_("{op} does not take {names}; it takes: {allowed}").format(
                op=self.name, names=", ".join(extra), allowed=", ".join(sorted(self.takes())) or "-"))
        ordered = sorted(self.params, key=lambda p: p.kind != "key")  # the key before anything
        values = {p.arg: p.read(ledger, args) for p in ordered}
        return self.func(ledger, **values)

    def to_dict(self) -> dict[str, Any]:
        """The op as ops.js and the docs have it."""
        return {"name": self.name, "method": self.method, "write": self.write,
                "args": [p.to_dict() for p in self.params]}


OPS: dict[str, Op] = {}  # every op by name, in the order declared


def op(write: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the decorated function an op of the engine, named by the function (a
    trailing ``_`` dropped: ``import_`` is the ``import`` op)."""

    def declare(func: Callable[..., Any]) -> Callable[..., Any]:
        name = func.__name__.rstrip("_")
        if name in OPS:
            raise ValueError(f"op {name} declared twice")
        params = params_of(func)
        has_key = any(p.kind == "key" for p in params)
        if has_key != write:
            raise TypeError(f"op {name}: a write takes key: str, a read does not")
        OPS[name] = Op(name, write, params, func)
        return func

    return declare


def params_of(func: Callable[..., Any]) -> tuple[Param, ...]:
    """The op's arguments from its signature (after ``ledger``)."""
    out = []
    hints = get_type_hints(func, include_extras=True)  # the annotations' text, resolved
    for p in list(inspect.signature(func).parameters.values())[1:]:
        kind, limit = kind_of(hints[p.name])
        required = p.default is inspect.Parameter.empty
        if p.name == "key":
            kind, limit = "key", MAX_KEY
        out.append(Param(p.name.rstrip("_"), p.name, kind, required,
                         None if required else p.default, limit))
    return tuple(out)


def kind_of(hint: Any) -> tuple[str, int | None]:
    """(kind, length cap) of a parameter's type (``X | None``: the kind of ``X``)."""
    if get_origin(hint) in (Union, UnionType):
        members = [a for a in get_args(hint) if a is not NoneType]
        if len(members) == 2 and str in members and list[str] in members:
            return "names", MAX_TEXT
        (hint,) = members
    limit: int | None = MAX_TEXT
    if get_origin(hint) is Annotated:
        hint, *extras = get_args(hint)
        limit = next((e.chars for e in extras if isinstance(e, Limit)), MAX_TEXT)
    if hint is bool:
        return "bool", None
    if hint is int:
        return "int", None
    if hint is str:
        return "text", limit
    if hint is SessionRow:
        return "session", None
    if get_origin(hint) is dict:
        return "object", None
    raise TypeError(f"an op's argument cannot be {hint!r}")
