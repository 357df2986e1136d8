"""The web app's database: SQLAlchemy 2 models and a small synchronous store.

A game is stored as what rebuilds it exactly: the rules, the seed of the bag, the seats
and the ordered list of actions (GCG notation, ``challenge`` or ``accept``) with the
wall-clock time each was made. Replaying the actions through `lexiko.game.Game`
with the same seed gives back the same board, racks, bag order, scores and clocks, so a
restart of the server loses nothing.

SQLite (a file) is the default; PostgreSQL works through ``postgresql+psycopg://`` URLs.
The schema is created and upgraded by the Alembic migrations shipped in
``lexiko/web/migrations``, run by `Store.upgrade` at startup.

>>> store = Store("sqlite://")
>>> store.upgrade()
>>> store.create_game("g1", rules_json="{}", seed=7, seats=[SeatSpec(0, "human", "Ann", "h", None)])
>>> store.append_action("g1", ActionData(0, 0, "8D WINDY", 10.0), status="active")
>>> store.load_game("g1").actions[0].text
'8D WINDY'
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, aliased, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from lexiko.rng import Generator
from lexiko.web.identity import name_skeleton

__all__ = [
    "Base",
    "GameRow",
    "SeatRow",
    "ActionRow",
    "MetaRow",
    "EventRow",
    "SeatAddressRow",
    "ServerKeyRow",
    "address_digest",
    "MAX_SEAT_ADDRESSES",
    "AccountRow",
    "SessionRow",
    "Account",
    "Store",
    "StoredGame",
    "SeatSpec",
    "ActionData",
    "AppendData",
    "SubmissionRow",
    "SubmissionData",
    "ConflictError",
    "hash_token",
    "new_token",
    "normalize_url",
    "MIGRATIONS",
]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The PostgreSQL advisory lock key taken while the schema changes ("lexiko" in ASCII).
MIGRATION_LOCK = 0x6C65_7869_6B6F

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # not on Windows: SQLite processes there start one at a time
    fcntl = None
"""The Alembic script folder shipped with the package."""


def _now() -> datetime:
    return datetime.now(UTC)


def new_token(nbytes: int = 24) -> str:
    """A random URL-safe secret."""
    return secrets.token_urlsafe(nbytes)


def hash_token(token: str) -> str:
    """What the database keeps of a player's secret token.

    >>> len(hash_token("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


def normalize_url(url: str) -> str:
    """A database URL as SQLAlchemy takes it: a plain path is a SQLite file and
    ``postgresql://`` / ``postgres://`` use the psycopg (3) driver.

    >>> normalize_url("postgres://u@localhost/db")
    'postgresql+psycopg://u@localhost/db'
    >>> normalize_url("games.db")
    'sqlite:///games.db'
    """
    if "://" not in url:
        return f"sqlite:///{url}"
    scheme, rest = url.split("://", 1)
    if scheme in ("postgres", "postgresql"):
        return f"postgresql+psycopg://{rest}"
    return url


class Base(DeclarativeBase):
    """Declarative base of the web app's tables."""


class GameRow(Base):
    """A game: rules, seed, state and the time its first turn began."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    #: ``waiting`` (for players to join), ``active`` or ``over``.
    status: Mapped[str] = mapped_column(String(16), default="waiting", index=True)
    #: The `lexiko.rules.Rules` as JSON (every field).
    rules: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: True when the creator chose the seed (a game with one person): every player sees it.
    seeded: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: True when the game is listed in the lobby (anyone may join an open seat or watch).
    listed: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0", index=True)
    #: The generator that shuffles the game (`lexiko.rng.Generator`): ``python`` for games
    #: stored before lexiko had its own (the column's default, set by migration 0007).
    generator: Mapped[str] = mapped_column(String(16), default="lexiko", server_default="python")
    #: True once the game's result has changed its players' ratings (it is done once).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: Why a finished game between two accounts was not rated (None: rated, or not to be).
    rating_note: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: Wall-clock time (epoch seconds) when the game started: its first turn's clock.
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Scores as JSON after the last action (for listings; the actions are the truth).
    scores: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: The round a duplicate game is in: submissions are taken for this round only.
    duplicate_round: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    #: The key of the game's open link (whoever opens it takes the next open seat), if any.
    open_invite: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The event whose pairing this game is (`EventRow`), if any.
    event_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)


class SeatRow(Base):
    """A seat of a game: a person (with a secret token, or an invitation until taken) or a bot."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``human`` or the kind of bot (``greedy``).
    kind: Mapped[str] = mapped_column(String(32))
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: SHA-256 of the player's secret token (None for bots and seats not yet taken).
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: The invitation key of a seat not yet taken.
    invite: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The account of the person in the seat, when they were signed in.
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class AccountRow(Base):
    """An optional account: a name, a hashed password and a Glicko-2 rating."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    #: The name casefolded: two accounts never share it.
    key: Mapped[str] = mapped_column(String(64), unique=True)
    #: The name's look (`lexiko.web.identity.name_skeleton`): no two accounts look alike
    #: (None only for an account older than the rule that looked like an older one).
    skeleton: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("skeleton", name="uq_accounts_skeleton"),)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    rd: Mapped[float] = mapped_column(Float, default=350.0)
    vol: Mapped[float] = mapped_column(Float, default=0.06)
    games: Mapped[int] = mapped_column(Integer, default=0)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session key, whose account, until when."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"))
    expires_at: Mapped[float] = mapped_column(Float)


class ActionRow(Base):
    """One action of a game, in order: what was done, by which seat, at what time."""

    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: GCG notation of a move (``8D WINDY``, ``-AEI``, ``-``), or ``challenge`` / ``accept``.
    text: Mapped[str] = mapped_column(String(128))
    #: Wall-clock time (epoch seconds) the action was made; replays charge the clocks with it.
    at: Mapped[float] = mapped_column(Float)


class SubmissionRow(Base):
    """A player's move for a round of a duplicate game (the latest replaces the earlier).

    One row per (game, round, seat): players submitting at the same time on different
    processes write different rows, and the round's ``close`` action (in ``actions``)
    is stored only with every submission of its round read (see `Store.close_round`).
    """

    __tablename__ = "submissions"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The move in GCG notation, or ``-`` for a pass.
    text: Mapped[str] = mapped_column(String(128))
    at: Mapped[float] = mapped_column(Float)
    #: How many times the seat has submitted in this round (each replaces the one before).
    count: Mapped[int] = mapped_column(Integer, default=1, server_default="1")


class EventRow(Base):
    """An event (``lexiko.web.services.events``): the library's JSON event file, what
    the app adds to it (players' keys, each pairing's game), and a version that grows
    with each change: a change is stored only on the version it was computed from."""

    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: ``registering``, ``running`` or ``over``.
    status: Mapped[str] = mapped_column(String(16), default="registering", index=True)
    #: SHA-256 of the director's secret token.
    director_hash: Mapped[str] = mapped_column(String(64))
    #: The key of the registration link.
    register_key: Mapped[str] = mapped_column(String(64))
    #: The `lexiko.rules.Rules` of its games as JSON.
    rules: Mapped[str] = mapped_column(Text)
    #: The event as `lexiko.tournament.files.event_to_json` writes it.
    data: Mapped[str] = mapped_column(Text)
    #: The app's part as JSON: players' seats, each pairing's game, pause and automatic pairing.
    web: Mapped[str] = mapped_column(Text)


class ReviewRow(Base):
    """A game review by simulation (`lexiko.review`), computed once: of a finished game
    (``key`` its id) or of a record sent to be reviewed (``key`` ``gcg-`` and the start of
    the SHA-256 of its text, the text in ``source``). ``result`` is the review as JSON,
    None while it is being computed."""

    __tablename__ = "reviews"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    source: Mapped[str | None] = mapped_column(Text, nullable=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)


class MetaRow(Base):
    """Facts about the server itself: ``heartbeat``, the last wall-clock time it was up."""

    __tablename__ = "server_meta"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[float] = mapped_column(Float)


class SeatAddressRow(Base):
    """An address a seat's player connected from, as its keyed hash (`address_digest`):
    kept while the game may still be rated, so that every process compares the
    addresses any process saw."""

    __tablename__ = "seat_addresses"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)


class ServerKeyRow(Base):
    """A secret of the server shared by its processes: ``address``, the key of the
    addresses' hashes (made at random by the migration that made the table)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


def address_digest(key: str, address: str) -> str:
    """What the database keeps of a client's address: its HMAC-SHA256 under the
    server's key (equal addresses give equal digests; the address cannot be read back
    without the key).

    >>> address_digest("k", "203.0.113.5") == address_digest("k", "203.0.113.5") != address_digest("j", "203.0.113.5")
    True
    >>> len(address_digest("k", "203.0.113.5"))
    64
    """
    return hmac.new(key.encode(), address.encode(), hashlib.sha256).hexdigest()


MAX_SEAT_ADDRESSES = 8
"""Addresses kept per seat of a game, at most (a player moving between networks)."""


@dataclass(frozen=True)
class SeatSpec:
    """A seat as stored."""

    seat: int
    kind: str
    name: str | None
    token_hash: str | None
    invite: str | None
    account_id: int | None = None


@dataclass(frozen=True)
class Account:
    """An account as stored (without its password hash)."""

    id: int
    name: str
    rating: float
    rd: float
    vol: float
    games: int


@dataclass(frozen=True)
class ActionData:
    """An action as stored."""

    seq: int
    seat: int
    text: str
    at: float


@dataclass(frozen=True)
class AppendData:
    """A game's next action to store, with the game's status and scores after it."""

    game_id: str
    action: ActionData
    status: str
    scores_json: str | None


def _append_params(item: AppendData, now: datetime) -> dict[str, Any]:
    a = item.action
    return {
        "g": item.game_id,
        "seq": a.seq,
        "seat": a.seat,
        "text": a.text,
        "at": a.at,
        "status": item.status,
        "scores": item.scores_json,
        "now": now,
    }


@dataclass(frozen=True)
class SubmissionData:
    """A duplicate submission as stored: the round, the seat, the move and when."""

    round: int
    seat: int
    text: str
    at: float
    #: How many times the seat has submitted in the round, this one included.
    count: int = 1


@dataclass(frozen=True)
class StoredGame:
    """Everything stored about a game."""

    id: str
    status: str
    rules_json: str
    seed: int
    started_at: float | None
    seats: list[SeatSpec]
    actions: list[ActionData]
    created_at: datetime
    seeded: bool = False
    listed: bool = False
    #: Duplicate submissions, by round then seat.
    submissions: list[SubmissionData] = field(default_factory=list)
    #: The key of the open link (the next open seat to whoever opens it), if any.
    open_invite: str | None = None
    #: The generator that shuffles it (``python``: stored before `lexiko.rng`).
    generator: Generator = "lexiko"
    #: Why the finished game was not rated, if it was to be and was not.
    rating_note: str | None = None
    #: The event whose pairing the game is, if any.
    event_id: str | None = None


DB_THREADS = 8
"""Threads (and pooled connections) for a PostgreSQL database: moves of different games
are stored at once, each mostly waiting on the network."""


_NEW_ACTION = insert(ActionRow).values(
    game_id=bindparam("g"), seq=bindparam("seq"), seat=bindparam("seat"), text=bindparam("text"), at=bindparam("at")
)
_GAME_MOVED = (
    update(GameRow)
    .where(GameRow.id == bindparam("g"))
    .values(status=bindparam("status"), scores=bindparam("scores"), updated_at=bindparam("now"))
)
_APPEND_WITH = _GAME_MOVED.add_cte(_NEW_ACTION.cte("new_action"))
"""What `Store.append_action` runs, built once: building the statements for each
move cost more than a tenth of a move's processor time."""

_SUBMISSION_COLUMNS = ("game_id", "round", "seat", "text", "at", "count")
_SUBMISSION_ARRAYS = (
    "unnest(CAST(:game_id AS varchar[]), CAST(:round AS integer[]), CAST(:seat AS integer[]), "
    "CAST(:text AS varchar[]), CAST(:at AS double precision[]), CAST(:count AS integer[]))"
)
_INSERT_SUBMISSIONS_PG = text(
    f"INSERT INTO submissions ({', '.join(_SUBMISSION_COLUMNS)}) SELECT * FROM {_SUBMISSION_ARRAYS}"
)
_UPDATE_SUBMISSIONS_PG = text(
    f"UPDATE submissions SET text = u.text, at = u.at, count = u.count FROM {_SUBMISSION_ARRAYS} "
    f"AS u({', '.join(_SUBMISSION_COLUMNS)}) "
    "WHERE submissions.game_id = u.game_id AND submissions.round = u.round AND submissions.seat = u.seat"
)
"""`Store.submit_many`'s new and replaced rows on PostgreSQL: a statement each, with
the values as six arrays."""


def lost_connection(error: BaseException) -> bool:
    """True when ``error`` is a database call that found its connection dead (the
    database restarted or dropped it): the pool has let it go, and the call may be made
    again on a new connection.

    >>> lost_connection(ValueError("no"))
    False
    """
    return isinstance(error, DBAPIError) and bool(error.connection_invalidated)


class ConflictError(Exception):
    """A write that lost a race (a seat taken, an action number already used)."""


class Store:
    """Synchronous access to the database (the server calls it from worker threads)."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = normalize_url(url)
        kwargs: dict[str, Any] = {"echo": echo, "future": True}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
            else:
                path = self.url.split(":///", 1)[1] if ":///" in self.url else ""
                if path:
                    Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        else:
            # no ping before each use (it cost two round trips per call): a connection
            # found dead is dropped with the pool, and GameService._db tries once more
            kwargs.update(pool_size=DB_THREADS, max_overflow=DB_THREADS, pool_recycle=3600)
        self.engine: Engine = create_engine(self.url, **kwargs)
        #: PostgreSQL runs an INSERT inside a WITH (SQLite does not).
        self._dml_ctes = self.engine.dialect.name == "postgresql"
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def sessions(self) -> sessionmaker[Session]:
        """The session factory (``with store.sessions.begin() as s:`` for a transaction)."""
        return self._sessions

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return str(self.engine.dialect.name)

    def describe(self) -> str:
        """The database URL without its password."""
        return self.engine.url.render_as_string(hide_password=True)

    def upgrade(self, revision: str = "head") -> None:
        """Bring the schema up to ``revision`` with the shipped Alembic migrations."""
        self._alembic("upgrade", revision)

    def downgrade(self, revision: str) -> None:
        """Take the schema back to ``revision`` (``base``: no tables)."""
        self._alembic("downgrade", revision)

    def _alembic(self, what: str, revision: str) -> None:
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self._migration_lock(), self.engine.begin() as conn:
            if self.dialect == "postgresql":  # held to the commit: one process migrates at a time
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            getattr(command, what)(cfg, revision)

    @contextlib.contextmanager
    def _migration_lock(self) -> Iterator[None]:
        """For a SQLite file, an exclusive lock on ``FILE.migrate.lock`` beside it while the
        schema changes (PostgreSQL takes an advisory lock in the migration's transaction):
        processes started together wait for the first, then find the schema done."""
        database = self.engine.url.database
        if self.dialect != "sqlite" or not database or database == ":memory:" or fcntl is None:
            yield
            return
        with open(f"{database}.migrate.lock", "a+b") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def current_revision(self) -> str | None:
        """The schema revision the database is at (None before any migration)."""
        from alembic.migration import MigrationContext

        with self.engine.connect() as conn:
            rev = MigrationContext.configure(conn).get_current_revision()
            return str(rev) if rev is not None else None

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # -- writing ---------------------------------------------------------------

    def create_game(
        self,
        game_id: str,
        *,
        rules_json: str,
        seed: int,
        seats: list[SeatSpec],
        seeded: bool = False,
        listed: bool = False,
        open_invite: str | None = None,
    ) -> None:
        """Store a new game and its seats (``seeded``: the creator chose the seed;
        ``listed``: shown in the lobby; ``open_invite``: the key of its open link)."""
        with self._sessions.begin() as s:
            s.add(
                GameRow(
                    id=game_id,
                    rules=rules_json,
                    seed=seed,
                    status="waiting",
                    seeded=seeded,
                    listed=listed,
                    open_invite=open_invite,
                )
            )
            s.flush()
            for sp in seats:
                s.add(
                    SeatRow(
                        game_id=game_id,
                        seat=sp.seat,
                        kind=sp.kind,
                        name=sp.name,
                        token_hash=sp.token_hash,
                        invite=sp.invite,
                        joined_at=_now() if sp.token_hash or sp.kind != "human" else None,
                        account_id=sp.account_id,
                    )
                )

    def claim_seat(
        self, game_id: str, seat: int, *, invite: str, name: str, token_hash: str, account_id: int | None = None
    ) -> None:
        """Give an invited seat to a player; raises ConflictError if it was taken meanwhile."""
        with self._sessions.begin() as s:
            res = s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.invite == invite)
                .where(SeatRow.token_hash.is_(None))
                .values(name=name, token_hash=token_hash, invite=None, joined_at=_now(), account_id=account_id)
            )
            if getattr(res, "rowcount", 0) != 1:
                raise ConflictError("that seat has just been taken")

    def claim_open_seat(
        self, game_id: str, *, open_invite: str, name: str, token_hash: str, account_id: int | None = None
    ) -> int:
        """Give the lowest open seat (not kept for someone by name) to a player who came
        by the game's open link;
        returns its number. Raises ConflictError when the link is not the game's (or
        no longer: the game started) or every seat is taken.

        The game's row is locked for the choice (``FOR UPDATE``): players who open the
        link at once, on any number of processes, get different seats one after another.
        """
        with self._sessions.begin() as s:
            game = s.scalar(select(GameRow).where(GameRow.id == game_id).with_for_update())
            if game is None or game.open_invite is None or not hmac.compare_digest(game.open_invite, open_invite):
                raise ConflictError("this invitation has been used or does not exist")
            # not a seat kept for someone by name: that one is taken by its own link
            row = s.scalars(
                select(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.kind == "human",
                    SeatRow.token_hash.is_(None),
                    SeatRow.name.is_(None),
                )
                .order_by(SeatRow.seat)
                .limit(1)
            ).first()
            if row is None:
                raise ConflictError("every open seat of this game is taken")
            row.name, row.token_hash, row.invite, row.joined_at = name, token_hash, None, _now()
            row.account_id = account_id
            return row.seat

    def start_with_seats_taken(self, game_id: str, started_at: float) -> list[SeatSpec]:
        """Start a game that is waiting, without its open seats: they are deleted, the
        seats taken numbered again from 0 in their order, and the open link closed.
        Returns the seats; raises ConflictError if the game is not waiting (any more).
        The row lock orders this after any seat taken at the same time."""
        with self._sessions.begin() as s:
            game = s.scalar(select(GameRow).where(GameRow.id == game_id).with_for_update())
            if game is None or game.status != "waiting":
                raise ConflictError(f"game {game_id} is not waiting for players")
            rows = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)).all()
            kept = [
                SeatSpec(r.seat, r.kind, r.name, r.token_hash, None, r.account_id)
                for r in rows
                if r.kind != "human" or r.token_hash is not None
            ]
            if not any(k.kind == "human" for k in kept):
                raise ConflictError(f"game {game_id} has nobody in its seats")
            s.execute(
                delete(SeatRow).where(SeatRow.game_id == game_id, SeatRow.kind == "human", SeatRow.token_hash.is_(None))
            )
            for i, k in enumerate(kept):  # in order: each number taken is free by then
                if k.seat != i:
                    s.execute(
                        update(SeatRow)
                        .where(SeatRow.game_id == game_id, SeatRow.seat == k.seat)
                        .values(seat=i)
                        .execution_options(synchronize_session=False)
                    )
            game.status, game.started_at, game.open_invite, game.updated_at = "active", started_at, None, _now()
            return [dataclasses.replace(k, seat=i) for i, k in enumerate(kept)]

    def start_game(self, game_id: str, started_at: float) -> None:
        """Mark a game as started at a wall-clock time."""
        with self._sessions.begin() as s:
            s.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(status="active", started_at=started_at, updated_at=_now())
            )

    def append_action(self, game_id: str, action: ActionData, *, status: str, scores_json: str | None = None) -> None:
        """Add the next action of a game (and its new status) in one transaction.
        Raises ConflictError if an action with that number exists."""
        params = _append_params(AppendData(game_id, action, status, scores_json), _now())
        try:
            if self._dml_ctes:  # one statement, atomic by itself: one round trip, no BEGIN and COMMIT
                with self._autocommit.connect() as conn:
                    conn.execute(_APPEND_WITH, params)
            else:
                with self.engine.begin() as conn:  # statements built once (see below), no ORM
                    conn.execute(_NEW_ACTION, params)
                    conn.execute(_GAME_MOVED, params)
        except IntegrityError:
            raise ConflictError(f"action {action.seq} of game {game_id} is already stored") from None

    def append_actions(self, items: Sequence[AppendData]) -> list[ConflictError | None]:
        """Add the next action of several games in one transaction (one commit for all:
        what a busy server's moves cost the database, batched): for each item, None when
        it was stored, or the ConflictError that `append_action` would have raised. When
        any one of them conflicts, each is stored on its own, so the others still go in.

        >>> store = Store("sqlite://")
        >>> store.upgrade()
        >>> for g in ("g1", "g2"):
        ...     store.create_game(g, rules_json="{}", seed=1, seats=[SeatSpec(0, "human", "Ann", "h", None)])
        >>> store.append_actions([AppendData("g1", ActionData(0, 0, "8D WINDY", 1.0), "active", None),
        ...                       AppendData("g2", ActionData(0, 0, "-", 1.0), "active", None)])
        [None, None]
        >>> [type(r).__name__ for r in store.append_actions(
        ...     [AppendData("g1", ActionData(0, 1, "-", 2.0), "active", None),
        ...      AppendData("g2", ActionData(1, 1, "-", 2.0), "active", None)])]
        ['ConflictError', 'NoneType']
        >>> [a.text for a in store.load_game("g2").actions]
        ['-', '-']
        """
        if len(items) == 1:
            one = items[0]
            try:
                self.append_action(one.game_id, one.action, status=one.status, scores_json=one.scores_json)
            except ConflictError as e:
                return [e]
            return [None]
        now = _now()
        params = [_append_params(it, now) for it in items]
        try:
            with self.engine.begin() as conn:
                conn.execute(_NEW_ACTION, params)
                conn.execute(_GAME_MOVED, params)
        except IntegrityError:  # one lost a race with another process: each on its own
            out: list[ConflictError | None] = []
            for it in items:
                try:
                    self.append_action(it.game_id, it.action, status=it.status, scores_json=it.scores_json)
                except ConflictError as e:
                    out.append(e)
                else:
                    out.append(None)
            return out
        return [None] * len(items)

    # -- duplicate rounds --------------------------------------------------------------

    def submit(self, game_id: str, sub: SubmissionData) -> int:
        """Store a player's move for a round of a duplicate game, replacing their earlier
        one; returns how many times the seat has submitted in the round (its ``count``).
        Raises ConflictError if the game is no longer in that round.

        The game's row is read with a shared lock (``FOR SHARE`` on PostgreSQL; SQLite
        writes one at a time anyway): any number of submissions go ahead together, and
        `close_round`, which locks the row for update, waits for them, so that a
        submission is either in its round's results or refused, never lost.
        """
        with self._sessions.begin() as s:
            current = s.scalar(select(GameRow.duplicate_round).where(GameRow.id == game_id).with_for_update(read=True))
            if current is None:
                raise ConflictError(f"no game {game_id}")
            if current != sub.round:
                raise ConflictError(f"round {sub.round} is over")
            row = s.get(SubmissionRow, (game_id, sub.round, sub.seat))
            if row is None:
                s.add(SubmissionRow(game_id=game_id, round=sub.round, seat=sub.seat, text=sub.text, at=sub.at, count=1))
                return 1
            row.text, row.at, row.count = sub.text, sub.at, row.count + 1
            return row.count

    def submit_many(self, items: Sequence[tuple[str, SubmissionData]]) -> list[int | ConflictError]:
        """Store several submissions (game id, submission) in one transaction, as
        `submit` stores one: for each, its ``count`` or the ConflictError `submit` would
        raise (the others still go in). Each game's row is read once, with the shared
        lock `submit` takes.

        >>> store = Store("sqlite://")
        >>> store.upgrade()
        >>> store.create_game("d", rules_json="{}", seed=1, seats=[SeatSpec(0, "human", "Ann", "h", None)])
        >>> store.start_game("d", 1.0)
        >>> [r if isinstance(r, int) else str(r) for r in store.submit_many(
        ...     [("d", SubmissionData(1, 0, "-", 2.0)), ("d", SubmissionData(1, 1, "-", 2.0)),
        ...      ("d", SubmissionData(1, 0, "8D WINDY", 3.0)), ("d", SubmissionData(2, 2, "-", 3.0))])]
        [1, 1, 2, 'round 2 is over']
        """
        if len(items) == 1:
            try:
                return [self.submit(*items[0])]
            except ConflictError as e:
                return [e]
        out: list[int | ConflictError] = []
        try:
            with self._sessions.begin() as s:
                games = sorted({g for g, _ in items})  # one order for every process's locks
                rounds: dict[str, int | None] = {g: None for g in games}
                for g, number in s.execute(
                    select(GameRow.id, GameRow.duplicate_round)
                    .where(GameRow.id.in_(games))
                    .order_by(GameRow.id)
                    .with_for_update(read=True)
                ):
                    rounds[g] = number
                # the counts these seats have this round already, in one read; the rest are new
                counts = {
                    (g, seat): count
                    for g, number, seat, count in s.execute(
                        select(
                            SubmissionRow.game_id, SubmissionRow.round, SubmissionRow.seat, SubmissionRow.count
                        ).where(
                            SubmissionRow.game_id.in_(games),
                            SubmissionRow.round.in_({sub.round for _, sub in items}),
                            SubmissionRow.seat.in_({sub.seat for _, sub in items}),
                        )
                    )
                    if rounds.get(g) == number
                }
                # written as plain rows, in one statement each for the new and the replaced
                # (no object a row: a thousand players' moves are a few milliseconds)
                new: dict[tuple[str, int], dict[str, Any]] = {}
                replaced: dict[tuple[str, int], dict[str, Any]] = {}
                for game_id, sub in items:
                    current = rounds[game_id]
                    if current is None:
                        out.append(ConflictError(f"no game {game_id}"))
                        continue
                    if current != sub.round:
                        out.append(ConflictError(f"round {sub.round} is over"))
                        continue
                    key = (game_id, sub.seat)
                    count = counts[key] = counts.get(key, 0) + 1
                    row = {"game_id": game_id, "round": sub.round, "seat": sub.seat, "text": sub.text, "at": sub.at}
                    if count == 1 or key in new:
                        new[key] = {**row, "count": count}
                    else:
                        replaced[key] = {**row, "count": count}
                    out.append(count)
                if self.dialect == "postgresql":
                    # one statement each, the values as six arrays (a statement a row, as
                    # executemany sends them, cost a thousand players 20 ms more a round)
                    for rows, statement in ((new, _INSERT_SUBMISSIONS_PG), (replaced, _UPDATE_SUBMISSIONS_PG)):
                        if rows:
                            s.execute(statement, {c: [r[c] for r in rows.values()] for c in _SUBMISSION_COLUMNS})
                else:
                    if new:
                        s.execute(insert(SubmissionRow), list(new.values()))
                    if replaced:
                        s.execute(update(SubmissionRow), list(replaced.values()))
        except IntegrityError:  # a seat's first submission came in on another process too: one by one
            out = []
            for game_id, sub in items:
                try:
                    out.append(self.submit(game_id, sub))
                except ConflictError as e:
                    out.append(e)
        return out

    def submissions(self, game_id: str, since_round: int = 1) -> list[SubmissionData]:
        """The stored submissions of a duplicate game from round ``since_round`` on, by round then seat."""
        with self._sessions() as s:
            q = select(SubmissionRow).where(SubmissionRow.game_id == game_id, SubmissionRow.round >= since_round)
            return [
                SubmissionData(r.round, r.seat, r.text, float(r.at), r.count)
                for r in s.scalars(q.order_by(SubmissionRow.round, SubmissionRow.seat))
            ]

    def close_round(
        self,
        game_id: str,
        round: int,
        action: ActionData,
        applied: list[SubmissionData],
        *,
        status: str,
        scores_json: str | None = None,
    ) -> None:
        """Store the ``close`` action of a duplicate round, computed from the submissions
        ``applied``, and move the game to the next round, in one transaction. Raises
        ConflictError (and stores nothing) if the round is no longer open, if the action
        number is taken, or if the stored submissions are not exactly ``applied`` (one
        came in meanwhile: read them again and recompute)."""
        try:
            with self._sessions.begin() as s:
                current = s.scalar(select(GameRow.duplicate_round).where(GameRow.id == game_id).with_for_update())
                if current != round:
                    raise ConflictError(f"round {round} of game {game_id} is already closed")
                stored = [
                    SubmissionData(r.round, r.seat, r.text, float(r.at), r.count)
                    for r in s.scalars(
                        select(SubmissionRow)
                        .where(SubmissionRow.game_id == game_id, SubmissionRow.round == round)
                        .order_by(SubmissionRow.seat)
                    )
                ]
                if stored != sorted(applied, key=lambda x: x.seat):
                    raise ConflictError(f"a submission for round {round} of game {game_id} came in meanwhile")
                s.add(ActionRow(game_id=game_id, seq=action.seq, seat=action.seat, text=action.text, at=action.at))
                s.flush()
                s.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id)
                    .values(duplicate_round=round + 1, status=status, scores=scores_json, updated_at=_now())
                )
        except IntegrityError:
            raise ConflictError(f"action {action.seq} of game {game_id} is already stored") from None

    # -- accounts ------------------------------------------------------------------

    @staticmethod
    def _account(row: AccountRow) -> Account:
        return Account(row.id, row.name, row.rating, row.rd, row.vol, row.games)

    def create_account(self, name: str, key: str, password_hash: str) -> Account:
        """A new account; raises ConflictError if the name (casefolded) is taken, or
        looks like a name that is (`lexiko.web.identity.name_skeleton`)."""
        try:
            with self._sessions.begin() as s:
                row = AccountRow(
                    name=name,
                    key=key,
                    skeleton=name_skeleton(name),
                    password_hash=password_hash,
                    rating=1500.0,
                    rd=350.0,
                    vol=0.06,
                    games=0,
                )
                s.add(row)
                s.flush()
                return self._account(row)
        except IntegrityError:
            raise ConflictError("that name is taken") from None

    def account_login(self, key: str) -> tuple[Account, str] | None:
        """The account with that casefolded name and its password hash, or None."""
        with self._sessions() as s:
            row = s.scalars(select(AccountRow).where(AccountRow.key == key)).first()
            return (self._account(row), row.password_hash) if row is not None else None

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        """Store a new hash of the same password (when the hashing parameters changed)."""
        with self._sessions.begin() as s:
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))

    def accounts(self, ids: list[int]) -> dict[int, Account]:
        """Accounts by id."""
        if not ids:
            return {}
        with self._sessions() as s:
            return {r.id: self._account(r) for r in s.scalars(select(AccountRow).where(AccountRow.id.in_(ids)))}

    def top_accounts(self, limit: int = 50) -> list[Account]:
        """Accounts with at least one rated game, best rating first."""
        with self._sessions() as s:
            q = select(AccountRow).where(AccountRow.games > 0).order_by(AccountRow.rating.desc()).limit(limit)
            return [self._account(r) for r in s.scalars(q)]

    def create_session(self, token_hash: str, account_id: int, expires_at: float) -> None:
        """Remember a signed-in browser."""
        with self._sessions.begin() as s:
            s.add(SessionRow(token_hash=token_hash, account_id=account_id, expires_at=expires_at))

    def session_account(self, token_hash: str, now: float) -> Account | None:
        """The account of a session that has not expired, or None."""
        with self._sessions() as s:
            sess = s.get(SessionRow, token_hash)
            if sess is None or sess.expires_at < now:
                return None
            row = s.get(AccountRow, sess.account_id)
            return self._account(row) if row is not None else None

    def delete_session(self, token_hash: str) -> None:
        """Sign a browser out."""
        with self._sessions.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    def rate_game(self, game_id: str, ratings: dict[int, tuple[float, float, float]]) -> bool:
        """Store the players' new ratings for a game, once: returns False (and changes
        nothing) if the game was rated already. ``ratings``: account id -> (rating, rd, vol)."""
        with self._sessions.begin() as s:
            res = s.execute(update(GameRow).where(GameRow.id == game_id, GameRow.rated.is_(False)).values(rated=True))
            if getattr(res, "rowcount", 0) != 1:
                return False
            for account_id, (rating, rd, vol) in ratings.items():
                s.execute(
                    update(AccountRow)
                    .where(AccountRow.id == account_id)
                    .values(rating=rating, rd=rd, vol=vol, games=AccountRow.games + 1)
                )
            return True

    def note_unrated(self, game_id: str, note: str) -> None:
        """Store why a finished game was not rated (its state says so after a restart)."""
        with self._sessions.begin() as s:
            s.execute(update(GameRow).where(GameRow.id == game_id).values(rating_note=note))

    def address_key(self) -> str:
        """The key of the addresses' hashes (`address_digest`), the same for every
        process of the database.

        >>> s = Store("sqlite://"); s.upgrade(); len(s.address_key())
        64
        """
        with self._sessions() as s:
            row = s.get(ServerKeyRow, "address")
            if row is None:
                raise RuntimeError("the database has no address key: upgrade its schema")
            return row.value

    def note_address(self, game_id: str, seat: int, digest: str) -> None:
        """Keep an address (its digest) a seat's player connected from (at most
        `MAX_SEAT_ADDRESSES` per seat; one seen already is not kept twice)."""
        try:
            with self._sessions.begin() as s:
                known = s.scalars(
                    select(SeatAddressRow.digest).where(SeatAddressRow.game_id == game_id, SeatAddressRow.seat == seat)
                ).all()
                if digest in known or len(known) >= MAX_SEAT_ADDRESSES:
                    return
                s.add(SeatAddressRow(game_id=game_id, seat=seat, digest=digest))
        except IntegrityError:  # kept meanwhile by another process
            pass

    def shared_addresses(self, game_id: str, a: int, b: int) -> int:
        """How many addresses both seats ``a`` and ``b`` of a game connected from.

        >>> s = Store("sqlite://"); s.upgrade()
        >>> s.create_game("g", rules_json="{}", seed=1, seats=[SeatSpec(0, "human", "Ann", "h", None)])
        >>> for seat, digest in ((0, "x"), (0, "y"), (1, "y"), (1, "y")):
        ...     s.note_address("g", seat, digest)
        >>> s.shared_addresses("g", 0, 1), s.shared_addresses("g", 0, 2)
        (1, 0)
        """
        x, y = aliased(SeatAddressRow), aliased(SeatAddressRow)
        with self._sessions() as s:
            q = (
                select(func.count())
                .select_from(x)
                .join(y, (y.game_id == x.game_id) & (y.digest == x.digest))
                .where(x.game_id == game_id, x.seat == a, y.seat == b)
            )
            return int(s.scalar(q) or 0)

    def forget_addresses(self, game_id: str) -> None:
        """Drop what was kept of the addresses of a game's players (once it is rated,
        or not: nothing needs them any more)."""
        with self._sessions.begin() as s:
            s.execute(delete(SeatAddressRow).where(SeatAddressRow.game_id == game_id))

    def rated_between(self, a: int, b: int, since: datetime) -> int:
        """How many rated games accounts ``a`` and ``b`` played against each other that
        ended (last changed) at ``since`` or later.

        >>> s = Store("sqlite://"); s.upgrade(); s.rated_between(1, 2, _now())
        0
        """
        sa, sb = aliased(SeatRow), aliased(SeatRow)
        with self._sessions() as s:
            q = (
                select(func.count(GameRow.id))
                .join(sa, (sa.game_id == GameRow.id) & (sa.account_id == a))
                .join(sb, (sb.game_id == GameRow.id) & (sb.account_id == b))
                .where(GameRow.rated.is_(True), GameRow.updated_at >= since)
            )
            return int(s.scalar(q) or 0)

    def delete_waiting(self, before: datetime) -> list[str]:
        """Delete the games created before ``before`` that never started (nobody took
        their invitations); returns their ids."""
        with self._sessions.begin() as s:
            ids = list(
                s.scalars(select(GameRow.id).where(GameRow.status == "waiting", GameRow.created_at < before)).all()
            )
            if ids:
                s.execute(delete(SubmissionRow).where(SubmissionRow.game_id.in_(ids)))
                s.execute(delete(ActionRow).where(ActionRow.game_id.in_(ids)))
                s.execute(delete(SeatRow).where(SeatRow.game_id.in_(ids)))
                s.execute(delete(GameRow).where(GameRow.id.in_(ids)))
            return ids

    def versions(self, game_ids: Sequence[str]) -> dict[str, tuple[int, bool]]:
        """Per game of ``game_ids`` that exists: its version (the actions stored) and
        whether it has started; one read for them all, on the actions' primary key. A
        process compares them with the games it holds in memory to catch up on news it
        missed (Redis's publish is at most once).

        >>> s = Store("sqlite://"); s.upgrade(); s.versions(["none"])
        {}
        """
        ids = list(dict.fromkeys(game_ids))
        if not ids:
            return {}
        with self._sessions() as s:
            last = dict(
                s.execute(
                    select(ActionRow.game_id, func.max(ActionRow.seq))
                    .where(ActionRow.game_id.in_(ids))
                    .group_by(ActionRow.game_id)
                ).all()
            )
            started = s.execute(select(GameRow.id, GameRow.started_at).where(GameRow.id.in_(ids))).all()
            return {gid: (int(last[gid]) + 1 if gid in last else 0, at is not None) for gid, at in started}

    def actions_after(self, game_id: str, seq: int) -> list[ActionData]:
        """The actions of a game numbered ``seq`` and up, in order (what a process that
        holds the game up to ``seq`` lacks)."""
        with self._sessions() as s:
            q = select(ActionRow).where(ActionRow.game_id == game_id, ActionRow.seq >= seq).order_by(ActionRow.seq)
            return [ActionData(a.seq, a.seat, a.text, float(a.at)) for a in s.scalars(q)]

    def listed_games(self, status: str, limit: int = 50) -> list[str]:
        """Ids of the listed games with that status, most recently changed first."""
        with self._sessions() as s:
            q = (
                select(GameRow.id)
                .where(GameRow.listed.is_(True), GameRow.status == status)
                .order_by(GameRow.updated_at.desc())
                .limit(limit)
            )
            return list(s.scalars(q).all())

    def idle_since(self, status: str, before: datetime) -> list[str]:
        """Ids of the games with that status whose last change was before ``before``."""
        with self._sessions() as s:
            return list(
                s.scalars(select(GameRow.id).where(GameRow.status == status, GameRow.updated_at < before)).all()
            )

    def beat(self, now: float) -> None:
        """Record that the server is up at ``now`` (wall-clock seconds)."""
        with self._sessions.begin() as s:
            res = s.execute(update(MetaRow).where(MetaRow.key == "heartbeat").values(value=now))
            if getattr(res, "rowcount", 0) != 1:
                s.add(MetaRow(key="heartbeat", value=now))

    def last_beat(self) -> float | None:
        """The last time the server recorded it was up (None: never)."""
        with self._sessions() as s:
            row = s.get(MetaRow, "heartbeat")
            return float(row.value) if row is not None else None

    def save_review(self, key: str, result: str | None, source: str | None = None) -> None:
        """Keep a review (``result`` None: only the record to review, ``source``), or
        replace what is kept under ``key``. Two processes storing the same key at once
        store the same thing: the second insert is let go."""
        try:
            with self._sessions.begin() as s:
                row = s.get(ReviewRow, key)
                if row is None:
                    s.add(ReviewRow(key=key, source=source, result=result))
                else:
                    row.result = result if result is not None else row.result
                    row.source = source if source is not None else row.source
        except IntegrityError:
            if result is not None:
                with self._sessions.begin() as s:
                    s.execute(update(ReviewRow).where(ReviewRow.key == key).values(result=result))

    def load_review(self, key: str) -> tuple[str | None, str | None] | None:
        """The record and the review kept under ``key`` (each None when there is none),
        or None when nothing is kept there."""
        with self._sessions() as s:
            row = s.get(ReviewRow, key)
            return None if row is None else (row.source, row.result)

    # -- reading -----------------------------------------------------------------

    def load_game(self, game_id: str) -> StoredGame | None:
        """A game with its seats and actions, or None."""
        with self._sessions() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)).all()
            acts = s.scalars(select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)).all()
            subs = s.scalars(
                select(SubmissionRow)
                .where(SubmissionRow.game_id == game_id)
                .order_by(SubmissionRow.round, SubmissionRow.seat)
            ).all()
            return StoredGame(
                id=row.id,
                status=row.status,
                rules_json=row.rules,
                seed=int(row.seed),
                started_at=row.started_at,
                seats=[SeatSpec(x.seat, x.kind, x.name, x.token_hash, x.invite, x.account_id) for x in seats],
                actions=[ActionData(a.seq, a.seat, a.text, float(a.at)) for a in acts],
                created_at=row.created_at,
                seeded=bool(row.seeded),
                listed=bool(row.listed),
                submissions=[SubmissionData(x.round, x.seat, x.text, float(x.at), x.count) for x in subs],
                open_invite=row.open_invite,
                generator="python" if row.generator == "python" else "lexiko",
                rating_note=row.rating_note,
                event_id=row.event_id,
            )

    def list_games(self, status: str | None = None, limit: int = 50) -> list[tuple[str, str, str | None]]:
        """Recent games, newest first: id, status and scores JSON."""
        with self._sessions() as s:
            q = select(GameRow.id, GameRow.status, GameRow.scores).order_by(GameRow.updated_at.desc()).limit(limit)
            if status is not None:
                q = q.where(GameRow.status == status)
            return [(r[0], r[1], r[2]) for r in s.execute(q).all()]

    def game_ids(self, status: str, *, still_for: float | None = None) -> list[str]:
        """Ids of every game with that status (``still_for``: only those that have not
        changed for at least that many seconds)."""
        query = select(GameRow.id).where(GameRow.status == status)
        if still_for is not None:
            query = query.where(GameRow.updated_at <= _now() - timedelta(seconds=still_for))
        with self._sessions() as s:
            return list(s.scalars(query).all())


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL for concurrent readers, foreign keys on, and a commit survives a crash of
    the process (``synchronous=NORMAL`` in WAL mode)."""
    cur = dbapi_conn.cursor()
    try:
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=30000")
    finally:
        cur.close()
