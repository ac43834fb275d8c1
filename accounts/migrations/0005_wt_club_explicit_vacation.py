"""Issue 14: an explicit vacation that pauses every clock of the player
(games.services_vacation).  The old switch `on_vacation` only stood in for a
clock running out; it keeps that meaning as `auto_vacation`."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_club_ratings_language"),
    ]

    operations = [
        migrations.RenameField(model_name="user", old_name="on_vacation", new_name="auto_vacation"),
        migrations.AlterField(
            model_name="user",
            name="auto_vacation",
            field=models.BooleanField(default=False, verbose_name="automatic vacation days"),
        ),
        migrations.AddField(
            model_name="user",
            name="vacation_started",
            field=models.DateTimeField(blank=True, null=True, verbose_name="on vacation since"),
        ),
        migrations.AddField(
            model_name="user",
            name="vacation_until",
            field=models.DateTimeField(blank=True, null=True, verbose_name="vacation planned until"),
        ),
    ]
