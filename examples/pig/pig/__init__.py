"""Pig, the dice game, as a game of the tajmahal platform: the example of
docs/adding-a-game.md.  ``pip install -e examples/pig`` declares it in the
``tajmahal.games`` entry points: ``tajmahal match --game pig greedy random``."""
