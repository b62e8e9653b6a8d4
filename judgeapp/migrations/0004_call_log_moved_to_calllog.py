# Event, EventJudge and Call now live in the calllog app (calllog/migrations/0001_initial.py adds them
# there, on the same tables). This removes them from judgeapp's state only: no SQL runs, the tables
# and their rows stay.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("judgeapp", "0003_job_moved_to_jobs"),
        ("calllog", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Call"),
                migrations.RemoveField(model_name="event", name="judges"),
                migrations.DeleteModel(name="EventJudge"),
                migrations.DeleteModel(name="Event"),
            ],
            database_operations=[],
        ),
    ]
