"""Alembic environment for Flask-Migrate: the app's engine and the models' metadata."""

from alembic import context
from flask import current_app

config = context.config
db = current_app.extensions["migrate"].db
target_metadata = db.metadata


def run_migrations_offline() -> None:
    """Write the SQL for the migrations without a database connection."""
    url = db.engine.url.render_as_string(hide_password=False)
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the app's database."""
    with db.engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            **current_app.extensions["migrate"].configure_args,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
