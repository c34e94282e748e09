"""The head-to-head sums of each pair of bots, kept as games finish.

Adds the table ``meetings`` (see :mod:`tajmahal.arena.ladder.meetings`), filled
from the games already finished, and the index ``games_by_deal`` that counting a
game's deal looks with.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("games_by_deal", "games", ["deal"])
    op.create_table(
        "meetings",
        sa.Column("bot_id", sa.Integer, sa.ForeignKey("bots.id"), primary_key=True),
        sa.Column("other_id", sa.Integer, sa.ForeignKey("bots.id"), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("ahead", sa.Double, nullable=False),
        sa.Column("ahead_squares", sa.Double, nullable=False),
        sa.Column("ahead_by_games", sa.Double, nullable=False),
        sa.Column("games_squares", sa.Integer, nullable=False),
        sa.Column("ahead_games", sa.Integer, nullable=False),
        sa.Column("behind_games", sa.Integer, nullable=False),
        sa.Column("last_game", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
    )
    from tajmahal.arena.ladder.meetings import recount

    recount(op.get_bind())


def downgrade() -> None:
    op.drop_table("meetings")
    op.drop_index("games_by_deal", "games")
