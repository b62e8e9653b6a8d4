# Jobs get a random public id (the one clients see) and sent_at (null until the broker took the message).
# Rows made before get a fresh id each and count as sent: their messages went out the old way.

import uuid

from django.db import migrations, models


def fill_public_ids(apps, schema_editor):
    Job = apps.get_model("jobs", "Job")
    for job in Job.objects.only("pk", "created_at").iterator():
        Job.objects.filter(pk=job.pk).update(public_id=uuid.uuid4(), sent_at=job.created_at)


class Migration(migrations.Migration):

    dependencies = [
        ("jobs", "0001_initial"),
    ]

    operations = [
        migrations.AddField(model_name="job", name="public_id", field=models.UUIDField(null=True, editable=False)),
        migrations.AddField(model_name="job", name="sent_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.RunPython(fill_public_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="job", name="public_id", field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True)
        ),
    ]
