"""The services of the web app, one module per concern, each made on the shared
`core.Core` (the store, the bus, the settings, the games in memory and their clients);
`lexiko.web.service.GameService` composes them.

- `accounts`: signing up, in and out; sessions (Argon2 hashing, in a thread).
- `ratings`: reading players' ratings, rating a finished game, the table of the best.
- `chat`: players' chat lines (and those from other processes).
- `lobby`: the creation form's options, the listed games.
- `loading`: games found in memory or rebuilt from the database; a token's seat.
- `games`: creating, joining, starting, and acting on a game.
- `duplicate`: the rounds of a duplicate game (submissions, the close).
- `events`: tournaments run in the app (registration, rounds paired by
  `lexiko.tournament`, results from the games, the director's decisions).
- `journal`: storing each action (and rating the game it ends).
- `bots`: computer players and the tasks that let them act.
- `clocks`: the heartbeat, flags falling, rounds timing out, expiry, idle games let go.
- `catchup`: shared mode, bringing a game in memory up to the database.
- `review`: word look-ups and the review of a finished game.
- `preview`: the score of tiles placed but not played.
- `names`: players' names, checked, and names alike refused.
"""
