"""Baseline for the start-up benchmark: the smallest Typer + SQLModel program that inserts one row."""

from typing import Annotated

import typer
from sqlmodel import Field, Session, SQLModel, create_engine

app = typer.Typer()


class Row(SQLModel, table=True):
    """One row."""

    id: int | None = Field(default=None, primary_key=True)
    value: int


@app.command()
def insert(db: Annotated[str, typer.Option()], value: int = 1) -> None:
    """Insert one row into a SQLite file."""
    engine = create_engine(f"sqlite:///{db}")
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        session.add(Row(value=value))
        session.commit()


if __name__ == "__main__":
    app()
