"""What one sees before playing: the game-creation form's options, and the lobby (listed
games with an open seat, and listed games in progress to watch)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from lexiko.rules import PRESETS
from lexiko.web.errors import ActionError
from lexiko.web.options import preset_names, rule_schema
from lexiko.web.services.bots import available_bots
from lexiko.web.services.core import Core
from lexiko.web.services.duplicate import MAX_DUPLICATE_SEATS
from lexiko.web.services.loading import Loader
from lexiko.web.views import lobby_info
from lexiko.wordlists import ENGLISH_TILE_SETS

__all__ = ["Lobby"]


class Lobby:
    """The options of the creation form, and the listed games."""

    def __init__(self, core: Core, loader: Loader) -> None:
        self.core = core
        self.loader = loader

    def options(self) -> dict[str, Any]:
        """What the game-creation form offers."""
        lexicons = self.core.lexicons
        presets = {}
        for name in preset_names():
            r = PRESETS[name]
            d = asdict(r)
            if d["lexicon"] not in lexicons:
                if r.tiles not in ENGLISH_TILE_SETS:
                    continue  # a language whose word list this server does not offer
                d["lexicon"] = lexicons[0]
            most = MAX_DUPLICATE_SEATS if r.variant == "duplicate" else 4
            presets[name] = {
                "rules": d,
                "summary": r.describe(),
                "min_players": r.min_players,
                "max_players": min(r.max_players, most),
            }
        return {
            "presets": presets,
            "default_preset": "casual",
            "schema": rule_schema(lexicons),
            "bots": available_bots(),
            "lexicons": lexicons,
        }

    async def listed(self) -> dict[str, Any]:
        """The lobby: listed games with an open seat (and the path that takes it), and
        listed games in progress to watch."""
        out: dict[str, list[dict[str, Any]]] = {"open": [], "live": []}
        for status, key in (("waiting", "open"), ("active", "live")):
            for gid in await self.core.db(self.core.store.listed_games, status):
                try:
                    live = await self.loader.get(gid)
                except ActionError:
                    continue
                info = lobby_info(live)
                if key == "open":
                    seat = next((s for s in live.seats if s.invite and not s.taken), None)
                    if seat is None:
                        continue
                    info["join"] = f"/join/{live.id}/{seat.invite}"
                else:
                    info["watchers"] = live.watchers
                    g = live.game
                    info["scores"] = g.scores if g is not None else None
                out[key].append(info)
        return out
