"""Reading a JSON export a piece at a time (:class:`JsonStream`), for
:mod:`ledger.formats.exchange`: a file of any size is checked in bounded memory, and
every complaint names the file, line and column in the interface's language."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from typing import IO, Any

from ledger.core.errors import InputError
from ledger.core.i18n import N_, _
from ledger.core.phrase import local

FORMAT = "bigtwo-ledger"


def at(where: str, problem: str) -> str:
    """``where: problem``, in the interface's language (``where`` may be a Phrase)."""
    return _("{where}: {problem}").format(where=local(where), problem=problem)


_READ = 1 << 20  # characters read at a time
_SURROGATE = re.compile(r"\\u[dD][89abcdefABCDEF]")
# What Python's JSON reader says (json.decoder): marked, so that it is said in the language.
JSON_PROBLEMS = (
    N_("Expecting value"), N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ':' delimiter"), N_("Expecting ',' delimiter"),
    N_("Unterminated string starting at"), N_("Invalid control character at"),
    N_("Invalid \\escape"), N_("Invalid \\uXXXX escape"), N_("Extra data"),
)


class JsonStream:
    """A JSON export read a piece at a time: the top object's keys, and the items of
    its ``sessions`` list one by one, so memory holds one session, never the file."""

    def __init__(self, f: IO[str], origin: str) -> None:
        self.f, self.origin = f, origin
        self.buf, self.pos, self.eof = "", 0, False
        self.lines_before = 0  # newlines in the text already dropped from buf
        self.decoder = json.JSONDecoder()

    def _more(self, at_least: int = _READ) -> bool:
        if self.eof:
            return False
        self.lines_before += self.buf.count("\n", 0, self.pos)
        chunk = self.f.read(max(at_least, _READ))
        self.buf, self.pos = self.buf[self.pos:] + chunk, 0
        self.eof = not chunk
        return bool(chunk)

    def _fail(self, problem: str, pos: int | None = None) -> InputError:
        pos = self.pos if pos is None else pos
        line = self.lines_before + self.buf.count("\n", 0, pos) + 1
        column = pos - self.buf.rfind("\n", 0, pos)
        return InputError(_("{origin} is not valid JSON: line {line} column {column}: {problem}")
                          .format(origin=self.origin, line=line, column=column, problem=problem))

    def peek(self) -> str:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def take(self, expected: str) -> None:
        got = self.peek()
        if got not in expected or not got:
            if len(expected) == 1:
                raise self._fail(_("expecting {char!r}").format(char=expected))
            raise self._fail(_("expecting {first!r} or {second!r}").format(
                first=expected[0], second=expected[1]))
        self.pos += 1

    def value(self) -> Any:
        """The next JSON value (reading on until it is whole)."""
        self.peek()
        grow = _READ
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if self._more(grow):
                    grow *= 2  # a long value: fewer, longer retries
                    continue
                raise self._fail(_(exc.msg), exc.pos) from None
            except RecursionError:
                raise self._fail(_("nested too deeply")) from None
            except ValueError:  # a number of thousands of digits (Python says how many)
                raise self._fail(_("a number that is too long (more than {digits} digits)").format(
                    digits=sys.get_int_max_str_digits())) from None
            if end == len(self.buf) and not self.eof and self._more():
                continue  # a number may go on in the next piece: read it whole
            if _SURROGATE.search(self.buf, self.pos, end):
                try:
                    json.dumps(value, ensure_ascii=False).encode("utf-8")
                except UnicodeEncodeError:
                    raise self._fail(_("a \\u escape gives half a character (a lone "
                                       "surrogate)")) from None
            self.pos = end
            return value

    def top(self) -> Iterator[tuple[str, Any]]:
        """(key, value) of the top object; ``sessions`` gives ("session", item) per item."""
        if self.peek() != "{":
            first = self.peek()
            if first and first in "[\"0123456789-tfn":  # JSON, but not an object
                raise InputError(at(self.origin, _("must be a JSON object (a {format} export)")
                                    .format(format=FORMAT)))
            self.value()  # the JSON error, if it is not JSON at all
        self.take("{")
        if self.peek() == "}":
            self.pos += 1
        else:
            while True:
                key = self.value()
                if not isinstance(key, str):
                    raise self._fail(_("expecting a key in double quotes"))
                self.take(":")
                if key == "sessions" and self.peek() == "[":
                    self.take("[")
                    if self.peek() == "]":
                        self.pos += 1
                    else:
                        while True:
                            yield "session", self.value()
                            if self.peek() == "]":
                                self.pos += 1
                                break
                            self.take(",")
                    yield "sessions", []
                else:
                    yield key, self.value()
                if self.peek() == "}":
                    self.pos += 1
                    break
                self.take(",")
        if self.peek():
            raise self._fail(_("extra text after the export"))
