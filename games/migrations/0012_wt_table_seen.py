from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_wt_club_paused_clocks'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='seen',
            field=models.JSONField(blank=True, default=dict, verbose_name='board last shown'),
        ),
    ]
