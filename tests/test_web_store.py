"""The web app's database: Alembic migrations (SQLite and PostgreSQL), the schema they
make matches the models, and the store's reads and writes."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from lexiko.web.store import (
    ActionData,
    AppendData,
    Base,
    ConflictError,
    SeatSpec,
    Store,
    SubmissionData,
    hash_token,
    normalize_url,
)
from lexiko.web.store_async import LoopAppends


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'sub' / 'games.db'}"  # the folder is created
    elif pg_url is None:
        pytest.skip(
            "PostgreSQL is not installed here (apt-get install postgresql) and LEXIKO_TEST_POSTGRES_URL is unset"
        )
    else:
        url = pg_url
    s = Store(url)
    if s.dialect == "postgresql":  # start from an empty database
        s.upgrade()
        s.downgrade("base")
    yield s
    s.close()


def test_migrations_create_the_schema_of_the_models(store: Store) -> None:
    assert store.current_revision() is None
    store.upgrade()
    assert store.current_revision() == "0012"
    store.upgrade()  # running again changes nothing
    store.downgrade("0001")  # each revision goes back too (0011 to 0002)
    assert "server_meta" not in inspect(store.engine).get_table_names()
    store.upgrade()
    store.downgrade("base")
    assert "games" not in inspect(store.engine).get_table_names()
    store.upgrade()
    tables = set(inspect(store.engine).get_table_names())
    assert {"games", "seats", "actions", "server_meta", "alembic_version"} <= tables
    with store.engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diffs == []


def test_store_round_trip_and_conflicts(store: Store) -> None:
    store.upgrade()
    seats = [SeatSpec(0, "human", "Ann", hash_token("t"), None), SeatSpec(1, "human", None, None, "inv")]
    store.create_game("g1", rules_json='{"rack_size": 7}', seed=2**63 - 1, seats=seats)
    store.claim_seat("g1", 1, invite="inv", name="Bob", token_hash=hash_token("u"))
    with pytest.raises(ConflictError):
        store.claim_seat("g1", 1, invite="inv", name="Eve", token_hash=hash_token("v"))
    store.start_game("g1", 1_700_000_000.123456)
    store.append_action("g1", ActionData(0, 0, "8D WINDY", 1_700_000_010.5), status="active", scores_json="[32, 0]")
    store.append_action("g1", ActionData(1, 1, "challenge", 1_700_000_011.25), status="active")
    with pytest.raises(ConflictError):
        store.append_action("g1", ActionData(1, 0, "-", 1.0), status="active")
    g = store.load_game("g1")
    assert g is not None
    assert g.seed == 2**63 - 1 and g.status == "active" and g.started_at == 1_700_000_000.123456
    assert [(s.name, s.invite) for s in g.seats] == [("Ann", None), ("Bob", None)]
    assert g.seats[1].token_hash == hash_token("u")
    assert [(a.seq, a.seat, a.text, a.at) for a in g.actions] == [
        (0, 0, "8D WINDY", 1_700_000_010.5),
        (1, 1, "challenge", 1_700_000_011.25),
    ]
    assert store.load_review("g1") is None
    store.save_review("g1", '{"turns": []}')
    assert store.load_review("g1") == (None, '{"turns": []}')
    store.save_review("gcg-1", None, source="#player1 A A")  # a record sent, its review to come
    assert store.load_review("gcg-1") == ("#player1 A A", None)
    store.save_review("gcg-1", '{"turns": [1]}')
    assert store.load_review("gcg-1") == ("#player1 A A", '{"turns": [1]}')
    assert store.load_game("nope") is None
    assert store.game_ids("active") == ["g1"]
    assert store.game_ids("active", still_for=60) == []  # it moved within the minute
    assert store.game_ids("active", still_for=0) == ["g1"]
    assert store.list_games()[0][0] == "g1"


@pytest.mark.parametrize("where", ["thread", "loop"])
def test_actions_of_several_games_go_in_together_and_a_conflict_only_fails_its_own(store: Store, where: str) -> None:
    """The same from the database thread (`Store.append_actions`) and, on PostgreSQL,
    from the event loop (`LoopAppends`)."""
    if where == "loop" and not LoopAppends.usable(store):
        pytest.skip("SQLite's writes stay in the database thread")
    store.upgrade()
    for g in ("g1", "g2", "g3"):
        store.create_game(g, rules_json="{}", seed=1, seats=[SeatSpec(0, "human", "Ann", hash_token("t"), None)])
    appends = LoopAppends(store)

    def append(items: list[AppendData]) -> list[ConflictError | None]:
        if where == "thread":
            return store.append_actions(items)

        async def run() -> list[ConflictError | None]:
            try:
                return await appends.append_actions(items)
            finally:
                await appends.close()

        return asyncio.run(run())

    first = [AppendData(g, ActionData(0, 0, "-", 1.0), "active", "[0, 0]") for g in ("g1", "g2", "g3")]
    assert append(first) == [None, None, None]
    again = [
        AppendData("g1", ActionData(1, 0, "-", 2.0), "active", None),
        AppendData("g2", ActionData(0, 0, "-", 2.0), "over", None),  # number 0 is taken
        AppendData("g3", ActionData(1, 0, "-", 2.0), "over", "[1, 2]"),
    ]
    results = append(again)
    assert [type(r).__name__ for r in results] == ["NoneType", "ConflictError", "NoneType"]
    assert str(results[1]) == "action 0 of game g2 is already stored"
    loaded = {g: store.load_game(g) for g in ("g1", "g2", "g3")}
    assert {g: [a.at for a in x.actions] for g, x in loaded.items() if x} == {
        "g1": [1.0, 2.0],
        "g2": [1.0],
        "g3": [1.0, 2.0],
    }
    assert {g: x.status for g, x in loaded.items() if x} == {"g1": "active", "g2": "active", "g3": "over"}


def test_moves_stored_from_the_loop_go_on_when_the_database_drops_the_connection(store: Store) -> None:
    """`LoopAppends` keeps one connection; when the database ends it (a restart, an
    administrator), the next batch opens another and is stored, once."""
    if not LoopAppends.usable(store):
        pytest.skip("SQLite's writes stay in the database thread")
    store.upgrade()
    store.create_game("g1", rules_json="{}", seed=1, seats=[SeatSpec(0, "human", "Ann", hash_token("t"), None)])

    async def run() -> list[list[ConflictError | None]]:
        appends = LoopAppends(store)
        try:
            out = [await appends.append_actions([AppendData("g1", ActionData(0, 0, "-", 1.0), "active", "[0, 0]")])]
            pid = appends._idle[0].info.backend_pid
            with store.engine.connect() as conn:
                assert conn.execute(text(f"SELECT pg_terminate_backend({pid})")).scalar() is True
            out.append(
                await appends.append_actions([AppendData("g1", ActionData(1, 0, "8D WINDY", 2.0), "over", "[1, 2]")])
            )
            assert appends._idle[0].info.backend_pid != pid
            return out
        finally:
            await appends.close()

    assert asyncio.run(run()) == [[None], [None]]
    stored = store.load_game("g1")
    assert stored is not None and [a.text for a in stored.actions] == ["-", "8D WINDY"]
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT status, scores FROM games")).one() == ("over", "[1, 2]")


def test_database_urls() -> None:
    assert normalize_url("/tmp/x.db") == "sqlite:////tmp/x.db"
    assert normalize_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalize_url("sqlite:///a.db") == "sqlite:///a.db"
    assert "secret" not in Store("postgresql://u:secret@localhost/db").describe()


def test_the_open_link_gives_the_lowest_open_seats_and_a_start_leaves_the_rest_out(store: Store) -> None:
    store.upgrade()
    seats = [
        SeatSpec(0, "human", "Ann", "h0", None),
        SeatSpec(1, "human", None, None, "i1"),
        SeatSpec(2, "static", "Computer", None, None),
        SeatSpec(3, "human", None, None, "i3"),
        SeatSpec(4, "human", None, None, "i4"),
        SeatSpec(5, "human", None, None, "i5"),
        SeatSpec(6, "human", "Kim", None, "i6"),
    ]  # kept for Kim: not given by the open link
    store.create_game("e1", rules_json="{}", seed=1, seats=seats, open_invite="open-key")
    with pytest.raises(ConflictError, match="^this invitation has been used or does not exist$"):
        store.claim_open_seat("e1", open_invite="wrong", name="Eve", token_hash="he")
    assert store.claim_open_seat("e1", open_invite="open-key", name="Bob", token_hash="hb") == 1
    assert store.claim_open_seat("e1", open_invite="open-key", name="Cy", token_hash="hc") == 3  # the bot's is not open
    store.claim_seat("e1", 5, invite="i5", name="Di", token_hash="hd")  # by the seat's own link
    with pytest.raises(ConflictError, match="^game nope is not waiting for players$"):
        store.start_with_seats_taken("nope", 10.0)
    assert store.start_with_seats_taken("e1", 10.0) == [
        SeatSpec(0, "human", "Ann", "h0", None),
        SeatSpec(1, "human", "Bob", "hb", None),
        SeatSpec(2, "static", "Computer", None, None),
        SeatSpec(3, "human", "Cy", "hc", None),
        SeatSpec(4, "human", "Di", "hd", None),
    ]  # seats 4 and 6 (open) left out: Di's 5 is now 4
    g = store.load_game("e1")
    assert g is not None and g.status == "active" and g.started_at == 10.0 and g.open_invite is None
    assert [(x.seat, x.name) for x in g.seats] == [(0, "Ann"), (1, "Bob"), (2, "Computer"), (3, "Cy"), (4, "Di")]
    with pytest.raises(ConflictError, match="^this invitation has been used or does not exist$"):
        store.claim_open_seat("e1", open_invite="open-key", name="Eve", token_hash="he")  # closed by the start
    with pytest.raises(ConflictError, match="^game e1 is not waiting for players$"):
        store.start_with_seats_taken("e1", 11.0)
    store.create_game(
        "e2", rules_json="{}", seed=1, seats=[*seats[:2], dataclasses.replace(seats[6], seat=2)], open_invite="k2"
    )
    assert store.claim_open_seat("e2", open_invite="k2", name="Bob", token_hash="hb2") == 1
    with pytest.raises(ConflictError, match="^every open seat of this game is taken$"):  # Kim's is kept for Kim
        store.claim_open_seat("e2", open_invite="k2", name="Eve", token_hash="he")


def test_duplicate_submissions_are_kept_per_round_and_seat_until_the_round_closes(store: Store) -> None:
    store.upgrade()
    store.create_game(
        "d1", rules_json="{}", seed=1, seats=[SeatSpec(i, "human", f"P{i}", f"h{i}", None) for i in range(3)]
    )
    store.start_game("d1", 100.0)
    assert store.submit("d1", SubmissionData(1, 0, "8D WINDY", 101.5)) == 1
    assert store.submit("d1", SubmissionData(1, 2, "-", 102.0)) == 1
    assert store.submit("d1", SubmissionData(1, 0, "8H WIND", 103.25)) == 2  # replaces the first, counted
    first = [SubmissionData(1, 0, "8H WIND", 103.25, 2), SubmissionData(1, 2, "-", 102.0, 1)]
    assert store.submissions("d1") == first
    close = ActionData(0, -1, "close 8H WIND", 104.0)
    with pytest.raises(ConflictError, match="came in meanwhile"):  # computed without seat 2's pass
        store.close_round("d1", 1, close, first[:1], status="active")
    with pytest.raises(ConflictError, match="round 2 of game d1 is already closed"):
        store.close_round("d1", 2, close, first, status="active")
    store.close_round("d1", 1, close, list(reversed(first)), status="active", scores_json="[20, 0, 0]")
    with pytest.raises(ConflictError, match="round 1 is over"):  # too late: nothing is stored
        store.submit("d1", SubmissionData(1, 1, "-", 105.0))
    with pytest.raises(ConflictError, match="round 1 of game d1 is already closed"):
        store.close_round("d1", 1, ActionData(1, -1, "close 8H WIND", 106.0), first, status="active")
    assert store.submit("d1", SubmissionData(2, 1, "-", 107.0)) == 1
    g = store.load_game("d1")
    assert g is not None and [a.text for a in g.actions] == ["close 8H WIND"]
    assert g.submissions == [*first, SubmissionData(2, 1, "-", 107.0, 1)]
    assert store.submissions("d1", since_round=2) == [SubmissionData(2, 1, "-", 107.0, 1)]
    with pytest.raises(ConflictError, match="no game nope"):
        store.submit("nope", SubmissionData(1, 0, "-", 1.0))


def test_the_migration_puts_a_duplicate_game_stored_before_in_its_round(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.upgrade("0004")  # a game of an older server: submissions and closes were actions
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, created_at, updated_at, status, rules, seed, seeded, listed, rated)"
                " VALUES ('old', '2026-11-01', '2026-11-01', 'active', '{}', 1, 0, 0, 0)"
            )
        )
        for i, action in enumerate(["8D WINDY", "close 8D WINDY", "-", "close 9E AB"]):
            conn.execute(
                text("INSERT INTO actions (game_id, seq, seat, text, at) VALUES ('old', :i, 0, :t, 0)"),
                {"i": i, "t": action},
            )
    store.upgrade()
    with pytest.raises(ConflictError, match="round 1 is over"):
        store.submit("old", SubmissionData(1, 0, "-", 5.0))
    assert store.submit("old", SubmissionData(3, 0, "-", 5.0)) == 1
    store.close()


def test_games_stored_before_lexikos_generator_are_rebuilt_with_pythons(store: Store) -> None:
    """Migration 0007 marks every game stored before it as shuffled by Python's generator
    (so a server upgraded in the middle of a game deals the same racks); new games use
    lexiko's own."""
    store.upgrade("0006")
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, created_at, updated_at, status, rules, seed) "
                "VALUES ('old', :now, :now, 'waiting', '{}', 1)"
            ),
            {"now": datetime.now(UTC)},
        )
    store.upgrade()
    store.create_game("new", rules_json="{}", seed=1, seats=[])
    old, new = store.load_game("old"), store.load_game("new")
    assert old is not None and new is not None
    assert (old.generator, new.generator) == ("python", "lexiko")


def _upgrade_in_a_process(url: str) -> str | None:
    s = Store(url)
    try:
        s.upgrade()
        return s.current_revision()
    finally:
        s.close()


@pytest.mark.slow
def test_processes_starting_together_on_an_empty_database_all_migrate(store: Store) -> None:
    """Eight processes upgrade one empty database at once (as a cluster's processes do at
    start): each ends at the head, none dies on another's half-made schema (PostgreSQL
    said "duplicate key value violates unique constraint pg_type_typname_nsp_index")."""
    import multiprocessing

    url = store.engine.url.render_as_string(hide_password=False)
    with multiprocessing.get_context("spawn").Pool(8) as pool:
        revisions = pool.map(_upgrade_in_a_process, [url] * 8)
    assert revisions == ["0012"] * 8
    assert store.current_revision() == "0012"


PROCESSES = 20
"""Server processes started at once on one empty database (a cluster's, at its start)."""


@pytest.mark.slow
def test_twenty_server_processes_started_at_once_on_an_empty_database_all_come_up(store: Store, tmp_path: Path) -> None:
    """`PROCESSES` whole servers (``python -m lexiko.web``) started at the same moment on
    one empty database: every one answers, none dies on another's half-made schema
    (PostgreSQL 8 of 21 died before the migration lock), and the schema is at the head.
    Slow: each process loads the web app (a few seconds of one core, on 2 cores)."""
    from concurrent.futures import ThreadPoolExecutor

    from webharness import ServerProcess, free_ports

    url = store.engine.url.render_as_string(hide_password=False)
    ports = free_ports(PROCESSES)
    servers = [ServerProcess(url, port=ports[i], log_path=tmp_path / f"server{i}.log") for i in range(PROCESSES)]

    def start(server: ServerProcess) -> str:
        try:
            server.start(timeout=300)
        except RuntimeError as e:
            return f"{e}: {(tmp_path / f'server{servers.index(server)}.log').read_text()[-2000:]}"
        return "up"

    try:
        with ThreadPoolExecutor(PROCESSES) as pool:
            started = list(pool.map(start, servers))
        assert started == ["up"] * PROCESSES
        dead = [i for i, s in enumerate(servers) if s.proc is None or s.proc.poll() is not None]
        assert dead == [], [(tmp_path / f"server{i}.log").read_text()[-2000:] for i in dead]  # and still up
        assert store.current_revision() == "0012"
    finally:
        with ThreadPoolExecutor(PROCESSES) as pool:
            list(pool.map(ServerProcess.stop, servers))


def test_no_two_accounts_look_alike_and_older_ones_keep_working(store: Store) -> None:
    """Cyrillic "Аdmin" beside Latin "admin" was accepted across accounts. Accounts made
    before the rule get their skeleton at 0008; of two that already looked alike the
    later keeps none, and no new account can take the look."""
    store.upgrade("0007")
    with store.engine.begin() as conn:  # two look-alikes made before the rule
        for name in ("admin", "\u0410dmin"):
            conn.execute(
                text(
                    "INSERT INTO accounts (name, key, password_hash, created_at, rating, rd, vol, games) "
                    "VALUES (:n, :k, 'h', :t, 1500, 350, 0.06, 0)"
                ),
                {"n": name, "k": name.casefold(), "t": datetime.now(UTC)},
            )
    store.upgrade()
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT name, skeleton FROM accounts ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [("admin", "admin"), ("\u0410dmin", None)]
    assert store.account_login("\u0430dmin") is not None  # the older look-alike still signs in
    for name in ("ADMIN", "\u0430dm\u0456n", "Ádmin"):
        with pytest.raises(ConflictError):
            store.create_account(name, name.casefold(), "h")
    assert store.create_account("Ann", "ann", "h").name == "Ann"
    with pytest.raises(ConflictError):
        store.create_account("\u0410nn", "\u0430nn", "h")


def test_versions_of_many_games_in_one_read(store: Store) -> None:
    """What a process compares with the games it holds, to catch up on news it missed
    (Redis's publish is at most once): per game, the actions stored and whether it began."""
    store.upgrade()
    for gid in ("a", "b", "c"):
        store.create_game(gid, rules_json="{}", seed=1, seats=[SeatSpec(0, "human", "Ann", hash_token(gid), None)])
    store.start_game("a", 1.0)
    store.start_game("b", 2.0)
    for seq, move in enumerate(["8D WINDY", "challenge", "-"]):
        store.append_action("a", ActionData(seq, seq % 2, move, 10.0 + seq), status="active")
    assert store.versions(["a", "b", "c", "gone"]) == {"a": (3, True), "b": (0, True), "c": (0, False)}
    assert store.versions([]) == {}


def test_submissions_of_many_seats_go_in_together_new_and_replaced(store: Store) -> None:
    """`Store.submit_many` on both databases (on PostgreSQL a statement over arrays for
    the new rows and one for the replaced): each gets its count, a seat sending twice in
    one batch counts twice, and a submission for a round that is over is refused alone."""
    store.upgrade()
    store.create_game("d", rules_json="{}", seed=1, seats=[SeatSpec(0, "human", "Ann", hash_token("t"), None)])
    store.start_game("d", 1.0)
    first = [("d", SubmissionData(1, seat, "8D WINDY", 2.0 + seat)) for seat in range(300)]
    assert store.submit_many(first) == [1] * 300
    again = [
        ("d", SubmissionData(1, 7, "-", 3.5)),  # replaces its first
        ("d", SubmissionData(1, 300, "8D WIND", 3.25)),  # new
        ("d", SubmissionData(1, 300, "8D WINDS", 3.75)),  # new, then replaced in the same batch
        ("d", SubmissionData(2, 8, "-", 4.0)),  # round 2 has not begun
        ("d", SubmissionData(1, 7, "H4 WINDY", 4.5)),  # its third
    ]
    out = store.submit_many(again)
    assert [r if isinstance(r, int) else str(r) for r in out] == [2, 1, 2, "round 2 is over", 3]
    stored = {s.seat: s for s in store.submissions("d")}
    assert len(stored) == 301
    assert stored[7] == SubmissionData(1, 7, "H4 WINDY", 4.5, 3)
    assert stored[300] == SubmissionData(1, 300, "8D WINDS", 3.75, 2)
    assert stored[299] == SubmissionData(1, 299, "8D WINDY", 301.0, 1)
