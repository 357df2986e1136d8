"""The shapes of what the web app sends and takes: a pydantic model for the body of every
JSON route (its ``response_model``, so that ``/api/openapi.json`` documents it) and for
every WebSocket message, both ways.

The server builds its answers as plain dicts (a state is serialized once per seat after
every move, with ``orjson``); the routes' answers are checked against these models on
the way out, the socket's are not (the tests check them). A model lets through a key
it does not name (``extra="allow"``): an answer never loses a key, nor fails, because a
model lags behind; the tests say which keys no model names (`unmodelled`).

>>> Joined.model_validate({"game_id": "g1", "seat": 1, "token": "t"}).seat
1
>>> server_message({"type": "pong", "id": 3}).type
'pong'
>>> client_message({"type": "pass"}).type
'pass'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = [
    "Model",
    "Health",
    "Options",
    "Me",
    "RatingRow",
    "NewGame",
    "Invite",
    "Joined",
    "Started",
    "SeatRow",
    "GameInfo",
    "Lobby",
    "LobbyGame",
    "Lookup",
    "Review",
    "ReviewProgress",
    "ReviewUpload",
    "State",
    "ServerMessage",
    "ClientMessage",
    "server_message",
    "client_message",
    "over_limit",
    "MAX_TILES",
    "MAX_MOVE",
    "MAX_EXCHANGE",
    "MAX_CHAT",
    "unmodelled",
]

Number = int | float
"""A number as the server computed it (a whole number stays one in the JSON)."""


class Model(BaseModel):
    """The base of every model here: keys it does not name are kept (see the module)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


def unmodelled(value: Any, where: str = "") -> list[str]:
    """The keys, anywhere inside a validated model, that no model names (as paths).

    >>> unmodelled(Joined.model_validate({"game_id": "g", "seat": 0, "token": "t", "x": 1}))
    ['.x']
    """
    found: list[str] = []
    if isinstance(value, BaseModel):
        found += [f"{where}.{k}" for k in (value.model_extra or {})]
        for name in type(value).model_fields:
            found += unmodelled(getattr(value, name), f"{where}.{name}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            found += unmodelled(item, f"{where}[{i}]")
    elif isinstance(value, dict):
        for k, item in value.items():
            found += unmodelled(item, f"{where}[{k!r}]")
    return found


# -- plain routes ---------------------------------------------------------------------


class ErrorBody(Model):
    """Every refusal: 4xx or 5xx with the reason for the person."""

    error: str


class Health(Model):
    """``/healthz``: up, and on which kind of database."""

    ok: bool
    database: str


class PresetInfo(Model):
    """A rules preset the creation form offers."""

    rules: dict[str, Any]
    summary: str
    min_players: int
    max_players: int


class RuleOption(Model):
    """A rule the creation form lets one change: its kind, default, choices or maximum,
    and the variants it is ``for`` (``all``, ``classic``, ``duplicate``)."""

    name: str
    kind: Literal["str", "int", "float", "bool"]
    optional: bool
    choices: list[str] | None
    default: Any
    help: str
    max: Number | None
    for_: str = Field(alias="for")


class Options(Model):
    """``/api/options``: what the game-creation form offers."""

    presets: dict[str, PresetInfo]
    default_preset: str
    schema_: list[RuleOption] = Field(alias="schema")
    bots: dict[str, str]
    lexicons: list[str]


# -- accounts ----------------------------------------------------------------------------


class Me(Model):
    """The signed-in account, and the CSRF token its page sends with every request."""

    name: str
    rating: int
    rd: int
    games: int
    csrf: str


class RatingRow(Model):
    """A rated player of ``/api/ratings``."""

    name: str
    rating: int
    rd: int
    games: int


# -- games ---------------------------------------------------------------------------------


class Invite(Model):
    """An open seat and the path that invites a player to it."""

    seat: int
    name: str | None
    path: str


class NewGame(Model):
    """A game just created: its id, the creator's seat and secret token, the invitations."""

    game_id: str
    seat: int
    token: str
    invites: list[Invite]
    open_path: str | None


class Joined(Model):
    """A seat taken: the player's seat and secret token."""

    game_id: str
    seat: int
    token: str


class Started(Model):
    """A duplicate game started with the players who had joined."""

    game_id: str
    players: int


class SeatRow(Model):
    """A seat as anyone sees it."""

    seat: int
    name: str | None
    kind: str
    taken: bool


class GameInfo(Model):
    """What anyone with a game's address may know; its players also get their seat and
    the invitations (``you``, ``invites``, ``open_path``, ``can_start``)."""

    id: str
    status: str
    rules: str
    public: bool
    seed: int | None = None
    #: The event whose pairing the game is (its page: ``/event/ID``).
    event_id: str | None = None
    seats: list[SeatRow]
    seat_count: int
    seats_taken: int
    you: int | None = None
    invites: list[Invite] | None = None
    open_path: str | None = None
    can_start: bool | None = None


class LobbyGame(GameInfo):
    """A listed game: an open one has the path that takes its seat (``join``), one in
    progress its watchers and scores."""

    join: str | None = None
    watchers: int | None = None
    scores: list[int] | None = None


class Lobby(Model):
    """``/api/lobby``: listed games with a seat to take, and games in progress to watch."""

    open: list[LobbyGame]
    live: list[LobbyGame]


class Lookup(Model):
    """Whether a word is valid in a game (and its anagrams once the game is over)."""

    word: str
    valid: bool
    lexicon: str
    anagrams: list[str] | None = None


class ReviewMove(Model):
    """A move of the review: played, or one of the best found. ``value``: simulated
    (mean spread change plus the value of the tiles kept) or, in a solved endgame, the
    exact spread it gains to the end; ``win``: the mover's chance to win after it, in
    percent; ``iterations``: its play-outs (0: solved)."""

    move: str
    score: int
    equity: Number | None = None
    value: Number | None = None
    win: Number | None = None
    iterations: int | None = None
    leave: str | None = None
    words: list[str] | None = None
    valid: bool | None = None
    rank: int | None = None
    squares: list[tuple[int, int, str]]


class ReviewTurn(Model):
    """One turn of a game weighed (`lexiko.review.ReviewTurn`): the position, the
    move played and the best, what it lost, its verdict. ``scores``, ``spread`` (first
    player minus second) and ``win`` (the first player's chance in percent) are those
    after the turn."""

    turn: int
    player: int
    name: str
    rack: str
    board: list[list[str]]
    bag_count: int
    played: ReviewMove
    best: list[ReviewMove]
    scores: list[int]
    spread: int | None = None
    win: Number | None = None
    value_lost: Number
    win_lost: Number
    verdict: Literal["best", "good", "inaccuracy", "mistake", "blunder"]
    accuracy: Number
    method: Literal["simulation", "endgame"]
    exact: bool
    after: list[str]


class ReviewPlayer(Model):
    """A player's moves in a review (`lexiko.review.PlayerSummary`)."""

    name: str
    moves: int
    best: int
    good: int
    inaccuracies: int
    mistakes: int
    blunders: int
    value_lost: Number
    accuracy: Number | None


class ReviewDepth(Model):
    """How hard the review looked (`lexiko.review.ReviewDepth`)."""

    candidates: int
    iterations: int
    plies: int
    finish: int
    endgame_time: Number | None
    seed: int


class Review(Model):
    """``/api/games/{id}/review``, ``/api/reviews/{id}``: every turn of a game weighed
    by simulation, the endgame solved, each player's accuracy."""

    status: Literal["done"]
    players: list[str]
    scores: list[int]
    turns: list[ReviewTurn]
    summaries: list[ReviewPlayer]
    depth: ReviewDepth
    leaves: bool
    lexicon: str


class ReviewProgress(Model):
    """A review still being computed: ``queued`` behind others (``ahead`` of it), or
    ``running`` with ``done`` of ``total`` turns weighed. Ask again for the rest."""

    status: Literal["queued", "running"]
    done: int
    total: int | None = None
    ahead: int = 0


class ReviewUpload(Model):
    """``POST /api/reviews``: the record's review id, the page that shows it, and the
    review or how far it has got."""

    id: str
    path: str
    review: Review | ReviewProgress


# -- the state of a game (the socket's ``state`` message, and ``/api/games/{id}/state``) --


class StateRules(Model):
    """The rules as the page needs them."""

    name: str
    summary: str
    challenge_rule: str
    rack_size: int
    exchange_min_bag: int
    clock: bool
    lexicon: str
    variant: str | None = None
    duplicate_seconds: Number | None = None


class TileInfo(Model):
    """The tile set: letters in order with their values, and the number of blanks."""

    name: str
    letters: list[str]
    values: dict[str, int]
    blanks: int


class Layout(Model):
    """The board's premium squares, one text a row, and the start square."""

    size: int
    rows: list[str]
    start: list[int]


class PlayerLine(Model):
    """A player as the state shows them (a duplicate game adds its own facts)."""

    seat: int
    name: str
    kind: str
    score: int
    rack_count: int
    time_left: Number | None
    on_turn: bool
    rating: int | None = None
    rack: str | None = None
    percentage: Number | None = None
    played: bool | None = None


class HistoryItem(Model):
    """A line of the move list (a duplicate game: a round's top)."""

    n: int
    player: int
    kind: str
    score: int
    total: int
    text: str
    turn: int | None = None
    elapsed: Number | None = None
    move: str | None = None
    words: list[str] | None = None
    squares: list[tuple[int, int, str]] | None = None
    count: int | None = None
    tiles: str | None = None
    invalid: list[str] | None = None
    rack: str | None = None
    who: str | None = None


class Banner(Model):
    """What the last challenge decided."""

    verdict: Literal["phony", "good"]
    words: list[str]
    text: str


class Can(Model):
    """The actions the seat may take now."""

    play: bool
    exchange: bool
    pass_: bool = Field(alias="pass")
    challenge: bool
    accept: bool
    resign: bool
    abort: bool
    rematch: bool


class Result(Model):
    """How a finished game ended."""

    reason: str | None
    winners: list[int]
    winner_names: list[str]
    scores: list[int] | None
    team_scores: list[int] | None
    phonies: list[str]


class Submitted(Model):
    """A duplicate move: the notation, its score and the words it forms."""

    move: str
    score: int
    words: list[str]


class RoundLine(Model):
    """A player's move in a closed duplicate round."""

    name: str
    move: str | None
    score: int
    bonus: int


class RoundResult(Model):
    """A closed duplicate round: the rack, the top and the players' moves."""

    number: int
    rack: str
    top: Submitted | None
    results: list[RoundLine]


class Standing(Model):
    """A duplicate player's total and percentage of the top."""

    name: str
    total: int
    percentage: Number


class DuplicateInfo(Model):
    """The round of a duplicate game as the seat sees it."""

    round: int
    time_left: Number | None
    played: list[str] | None
    waiting_for: list[str] | None
    played_count: int
    player_count: int
    mine: Submitted | None
    last_round: RoundResult | None
    top_total: int
    standings: list[Standing]
    master_sheet: str | None


class State(Model):
    """A game as one seat sees it (a spectator: ``you`` is null). Before the game starts
    only the board, seats and rules are there; a duplicate game adds ``duplicate``."""

    type: Literal["state"]
    game_id: str
    version: int
    status: str
    you: int | None
    rematch: str | None
    watchers: int
    rated: bool
    #: Why a game between two signed-in people is not rated (too little play, a repeat
    #: pairing, one address); absent when it counts.
    rating_note: str | None = None
    seed: int | None = None
    #: The event whose pairing the game is (its page: ``/event/ID``).
    event_id: str | None = None
    rules: StateRules
    tiles: TileInfo
    layout: Layout
    seats: list[SeatRow]
    seat_count: int
    seats_taken: int
    board: list[list[str]]
    rack: list[str]
    players: list[PlayerLine]
    history: list[HistoryItem]
    bag_count: int
    status_text: str
    last_play: list[tuple[int, int]] | None = None
    unseen: dict[str, int] | None = None
    unseen_count: int | None = None
    turn: int | None = None
    banner: Banner | None = None
    scoreless_turns: int | None = None
    pending_player: int | None = None
    final_challenge: bool | None = None
    can: Can | None = None
    result: Result | None = None
    duplicate: DuplicateInfo | None = None


# -- the other messages the server sends on the socket ---------------------------------


class Welcome(Model):
    """The answer to ``hello``: the seat the token holds (null: watching) and its name."""

    type: Literal["welcome"]
    seat: int | None
    name: str | None


class ErrorMessage(Model):
    """A refusal; ``fatal``: the server closes the connection after it."""

    type: Literal["error"]
    message: str
    action: str | None = None
    id: int | str | None = None
    fatal: bool | None = None


class ChatLine(Model):
    """A player's chat line, to everyone watching the game."""

    type: Literal["chat"]
    seat: int
    from_: str = Field(alias="from")
    text: str
    at: Number


class ChatHistory(Model):
    """The chat so far, sent to a client that connects."""

    type: Literal["chat-history"]
    messages: list[ChatLine]


class Preview(Model):
    """The score of tiles placed but not played, or why they cannot be played."""

    type: Literal["preview"]
    id: int | str | None
    ok: bool
    error: str | None = None
    move: str | None = None
    score: int | None = None
    words: list[str] | None = None
    invalid: list[str] | None = None


class Pong(Model):
    """The answer to ``ping``."""

    type: Literal["pong"]
    id: int | str | None


class Progress(Model):
    """How many players of a crowded duplicate round have played."""

    type: Literal["progress"]
    round: int
    played: int
    players: int


ServerMessage = Annotated[
    State | Welcome | ErrorMessage | ChatLine | ChatHistory | Preview | Pong | Progress,
    Field(discriminator="type"),
]
"""Any message the server sends on a game's socket."""

_SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def server_message(message: dict[str, Any]) -> Model:
    """A message the server sent, validated (raises pydantic's ValidationError)."""
    value: Model = _SERVER.validate_python(message)
    return value


# -- what a client sends -------------------------------------------------------------


MAX_TILES = 21
"""Tiles a play or a preview may place: a line of the largest board (21 by 21)."""

MAX_FACE = 8
"""Characters of one tile's letter (multi-letter tiles such as ``CH`` or ``L·L``)."""

MAX_SQUARE = 64
"""The largest row or column number taken (boards are at most 21 squares wide)."""

MAX_MOVE = 64
"""Characters of a move in notation (``8D WORD``): a position and a board line's word,
with played-through letters in brackets."""

MAX_EXCHANGE = 40
"""Characters of an exchange's tiles: a rack's letters (multi-letter tiles included)."""

MAX_CHAT = 300
"""Characters of a chat line (the chat service refuses longer ones too)."""

MAX_TOKEN = 128
"""Characters of a seat's secret token (the server's are 32)."""

MAX_ID = 64
"""Characters of a message's ``id`` (echoed in the answer)."""


class TileIn(Model):
    """A tile placed on the board: where, which letter, and whether it is a blank."""

    row: int = Field(ge=0, le=MAX_SQUARE)
    col: int = Field(ge=0, le=MAX_SQUARE)
    letter: str = Field(max_length=MAX_FACE)
    blank: bool = False


class Hello(Model):
    """The first message: the seat's secret token (none: watch)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=MAX_TOKEN)


class _Client(Model):
    """A message after ``hello``: an ``id`` comes back in the answer or refusal."""

    id: int | Annotated[str, Field(max_length=MAX_ID)] | None = None


class PlayIn(_Client):
    """Play tiles (or a move in notation, ``"8D WORD"``)."""

    type: Literal["play"]
    tiles: list[TileIn] | None = Field(default=None, max_length=MAX_TILES)
    move: str | None = Field(default=None, max_length=MAX_MOVE)


class ExchangeIn(_Client):
    """Exchange these tiles (as letters, ``?`` a blank)."""

    type: Literal["exchange"]
    tiles: str = Field(max_length=MAX_EXCHANGE)


class PreviewIn(_Client):
    """Ask for the score of tiles placed but not played."""

    type: Literal["preview"]
    tiles: list[TileIn] = Field(default_factory=list, max_length=MAX_TILES)


class ChatIn(_Client):
    """A chat line (players only)."""

    type: Literal["chat"]
    text: str = Field(max_length=MAX_CHAT)


class SimpleIn(_Client):
    """An action with nothing more to say."""

    type: Literal["pass", "challenge", "accept", "resign", "abort", "rematch", "state", "ping"]


ClientMessage = Annotated[
    Hello | PlayIn | ExchangeIn | PreviewIn | ChatIn | SimpleIn,
    Field(discriminator="type"),
]
"""Any message a client sends on a game's socket."""

_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def client_message(message: dict[str, Any]) -> Model:
    """A message a client sent, validated (raises pydantic's ValidationError)."""
    value: Model = _CLIENT.validate_python(message)
    return value


_BRANCHES = frozenset({"str", "int", "list", "none"})


def over_limit(message: dict[str, Any]) -> str | None:
    """Why a client's message is refused before any work: one of its fields is longer
    (or larger) than it can be, named with its limit; None when every field is within
    its limit. Other faults (a wrong type, an unknown kind) are left to the handlers,
    which say what they expect.

    >>> over_limit({"type": "chat", "text": "x" * 301})
    'text is at most 300 characters'
    >>> over_limit({"type": "play", "tiles": [{"row": 7, "col": 7, "letter": "A" * 9}]})
    'tiles.0.letter is at most 8 characters'
    >>> over_limit({"type": "exchange", "tiles": 7}) is None
    True
    """
    from pydantic import ValidationError

    try:
        _CLIENT.validate_python(message)
    except ValidationError as e:
        for err in e.errors():
            kind = err["type"]
            if kind in ("string_too_long", "too_long", "less_than_equal", "greater_than_equal"):
                where = ".".join(  # the field's path, without the names of a union's branches
                    str(x) for x in err["loc"][1:] if isinstance(x, int) or (x.isidentifier() and x not in _BRANCHES)
                )
                ctx = err.get("ctx", {})
                if kind == "string_too_long":
                    return f"{where} is at most {ctx['max_length']} characters"
                if kind == "too_long":
                    return f"{where} has at most {ctx['max_length']} items"
                if kind == "less_than_equal":
                    return f"{where} is at most {ctx['le']}"
                return f"{where} is at least {ctx['ge']}"
    return None
