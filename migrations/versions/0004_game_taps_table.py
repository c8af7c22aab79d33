"""game_taps: the client id of every tap a game stored, kept for the life of the game.

A tap sent again (its answer was lost, or both copies arrive at once) is recognised however many
taps came since; games.taps kept only the latest 32. The ids it held move to the new table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    taps = op.create_table('game_taps',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('tap', sa.String(length=40), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'tap')
    )
    games = sa.table('games', sa.column('id', sa.Integer), sa.column('version', sa.Integer),
                     sa.column('taps', sa.Text))
    rows = op.get_bind().execute(sa.select(games.c.id, games.c.version, games.c.taps)
                                 .where(games.c.taps != ''))
    kept = [{"game_id": game, "tap": tap, "version": version}
            for game, version, ids in rows for tap in dict.fromkeys(ids.split())]
    if kept:
        op.bulk_insert(taps, kept)
    with op.batch_alter_table('games') as batch:
        batch.drop_column('taps')


def downgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('taps', sa.Text(), nullable=False, server_default=''))
    op.drop_table('game_taps')
