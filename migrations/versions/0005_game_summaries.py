"""game_summaries: what a group shows of a finished game (its record), stored by the write that
made that version of the game.

A worker that holds nothing of a group reads its games' records instead of replaying each game; a
record is read only while it is of the game's current version, and goes with the game. Games
finished before this migration have none until their next change: they are replayed as before.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('game_summaries',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('data', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id')
    )


def downgrade():
    op.drop_table('game_summaries')
