# The action log, the Turn records and the snapshots lose their index on
# game alone: the unique (game, seq) / (game, number) index serves every
# lookup by game, and with both the planner, expecting one row for a game
# whose id is not yet in the statistics, took the single-column index and
# read the game's whole log for its last rows (see GameAction.game).
# Only the indexes are dropped (the foreign keys stay as they are: Django's
# own AlterField would drop and re-add them, re-checking every row).

import django.db.models.deletion
from django.db import migrations, models

# (table, Django's name for the index on game_id, related_name)
INDEXES = [
    ("gameaction", "games_gameaction_game_id_d5a22e32", "actions"),
    ("gameturn", "games_gameturn_game_id_a3baed38", "turn_records"),
    ("snapshot", "games_snapshot_game_id_9fa1b8a5", "snapshots"),
]


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0013_wt_submit_lz4_state'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name=model,
                    name='game',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name=related, to='games.game'),
                )
                for model, _index, related in INDEXES
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{index}"',
                    reverse_sql=f'CREATE INDEX IF NOT EXISTS "{index}" ON "games_{model}" ("game_id")',
                )
                for model, index, _related in INDEXES
            ],
        ),
    ]
