"""The web app's routes, one module per resource, each an ``APIRouter`` that
`lexiko.web.server.create_app` includes: `pages` (the HTML pages and the health
check), `accounts` (accounts, sessions, ratings), `games` (creating, joining, the
lobby, a game's state and record), `duplicate` (starting a duplicate game and its
record), `review` (looking a word up, the review of a finished game) and `socket`
(the WebSocket of each game)."""
