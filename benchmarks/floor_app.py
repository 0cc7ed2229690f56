"""The framework floor: a minimal Typer app that does one SQLite insert.

`bigtwo deal` is measured against this (same interpreter, same Typer).
"""

import sqlite3
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)


@app.command()
def insert(
    db: Annotated[str, typer.Option("--db")],
    values: Annotated[list[str], typer.Argument()],
) -> None:
    """Insert one row."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS t (v TEXT)")
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO t VALUES (?)", [" ".join(values)])
    conn.execute("COMMIT")
    typer.echo("ok")


if __name__ == "__main__":
    app()
