"""games.seats: what the players entered from their own phones that the game file doesn't hold yet
(sealed bids before the last one is in, trick counts before they are all in and add up), for the
deal being played (SEATS.md). Written with the game's version, by the same UPDATE.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('seats', sa.Text(), nullable=False, server_default=''))


def downgrade():
    with op.batch_alter_table('games') as batch:
        batch.drop_column('seats')
