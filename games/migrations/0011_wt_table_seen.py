from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_wt_table_undo'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='seen',
            field=models.JSONField(blank=True, default=dict, verbose_name='board last shown'),
        ),
    ]
