"""The first schema of the ladder.

A ladder of this schema was made whole by ``tajmahal ladder init`` (its tables
from :data:`tajmahal.arena.ladder.schema.METADATA`, then stamped): there is
nothing older to upgrade from.  The next revision names this one as its
``down_revision``.

Revision ID: 0001
Revises:
"""

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing before the first schema."""


def downgrade() -> None:
    """Nothing before the first schema."""
