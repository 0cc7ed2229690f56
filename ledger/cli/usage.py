"""The framework's usage errors (an unknown command or option, a missing or bad
argument) as one ``error:`` line in the interface's language.  Loaded only when a
command line is wrong."""

from __future__ import annotations

from typing import Any

from ledger.core.i18n import N_


def usage_line(exc: Any) -> str:
    """A usage error (unknown command or option, missing or bad argument) as one line:
    ``error: no such option: --bogus (see 'bigtwo standings --help')``."""
    from ledger.core.i18n import _
    from ledger.core.text import shown

    message = " ".join(exc.format_message().split())  # one line, whatever the framework wrote
    message = message.replace(". Did you mean", "; did you mean").rstrip(".")
    if message[:1].isupper() and message[1:2].islower():  # "No such option" -> "no such option"
        message = message[0].lower() + message[1:]
    message = framework_message(message)
    names: list[str] = []
    ctx = exc.ctx
    while ctx is not None and ctx.parent is not None:  # the program is `bigtwo`, however run
        names.insert(0, ctx.info_name)
        ctx = ctx.parent
    command = " ".join(["bigtwo", *names])
    return shown("error: " + _("{message} (see '{command} --help')").format(
        message=message, command=command))


# The framework's usage errors (click's words, after usage_line made them one line), each
# as a pattern and our message for it: translated, the names and values they quote kept.
_FRAMEWORK_ERRORS: tuple[tuple[str, str], ...] = (
    (r"missing option (?P<name>.+)", N_("missing option {name}")),
    (r"missing argument (?P<name>.+)", N_("missing argument {name}")),
    (r"missing parameter: (?P<name>.+)", N_("missing parameter: {name}")),
    (r"missing command", N_("missing command")),
    (r"no such option: (?P<name>\S+) \(Possible options: (?P<names>.+)\)",
     N_("no such option: {name} (possible options: {names})")),
    (r"no such option: (?P<name>\S+)", N_("no such option: {name}")),
    (r"no such command (?P<name>.+)", N_("no such command {name}")),
    (r"got unexpected extra argument\(s\) \((?P<args>.*)\)",
     N_("got unexpected extra argument(s) ({args})")),
    (r"option (?P<name>'[^']*') does not take a value", N_("option {name} does not take a value")),
    (r"option (?P<name>'[^']*') requires an argument", N_("option {name} requires an argument")),
    (r"option (?P<name>'[^']*') requires (?P<count>\d+) arguments",
     N_("option {name} requires {count} arguments")),
    (r"invalid value for (?P<name>'[^']*'): Value error, (?P<value>'.*') is not one of "
     r"(?P<choices>.+)", N_("invalid value for {name}: {value} is not one of {choices}")),
    (r"invalid value for (?P<name>'[^']*'): Input should be a valid integer\b.*",
     N_("invalid value for {name}: not a whole number")),
    (r"invalid value for (?P<name>'[^']*'): Input should be a valid number\b.*",
     N_("invalid value for {name}: not a number")),
    (r"invalid value for (?P<name>'[^']*'): Value (?P<value>'.*') is not a valid (?P<kind>\w+)",
     N_("invalid value for {name}: {value} is not a valid {kind}")),
    (r"invalid value for (?P<name>'[^']*'): (?P<why>.+)", N_("invalid value for {name}: {why}")),
)


def framework_message(message: str) -> str:
    """A usage error of the framework (``no such option: --bogus``) in the interface's
    language; English stays exactly as click wrote it.  Quoted names and values are kept;
    "did you mean" follows the same language.

    >>> framework_message("missing option '--players'")
    "missing option '--players'"
    """
    from ledger.core.i18n import _, language

    if language() == "en":
        return message
    import re

    head, sep, names = message.partition("; did you mean ")
    for pattern, template in _FRAMEWORK_ERRORS:
        found = re.fullmatch(pattern, head)
        if found:
            head = _(template).format(**found.groupdict())
            break
    if not sep:
        return head
    choices = names.rstrip("?").split(" or ")
    said = choices[0] if len(choices) == 1 else _("{names} or {last}").format(
        names=", ".join(choices[:-1]), last=choices[-1])
    return _("{message}; did you mean {names}?").format(message=head, names=said)
