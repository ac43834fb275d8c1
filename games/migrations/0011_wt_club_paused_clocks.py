"""Issue 14: a seat's clock paused by its player's vacation keeps its time left."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_wt_table_undo"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="paused_seconds",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="paused with time left (seconds)"),
        ),
    ]
