"""games.taps: the client ids of the latest taps stored, so that a tap sent again is never applied
twice.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('taps', sa.Text(), nullable=False, server_default=''))


def downgrade():
    with op.batch_alter_table('games') as batch:
        batch.drop_column('taps')
