# The Job model now lives in the jobs app (jobs/migrations/0001_initial.py adds it there, on the same
# table). This removes it from judgeapp's state only: no SQL runs, the table and its rows stay.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("judgeapp", "0002_call_log"),
        ("jobs", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Job")],
            database_operations=[],
        ),
    ]
