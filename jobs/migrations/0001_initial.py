# The Job model moved from the judgeapp app to this one. Its table keeps its name (judgeapp_job, set by
# Meta.db_table), so this migration only adds the model to the jobs app's state: on a database made
# before the move the table and its rows are already there (judgeapp 0001), and on a new one judgeapp
# 0001 still creates it. judgeapp 0003 then removes the model from judgeapp's state, also without SQL.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_content_type(apps, schema_editor):
    """Permissions and admin log entries follow the model: its content type changes app label."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="jobs", model="job").exists():
        ContentType.objects.filter(app_label="judgeapp", model="job").update(app_label="jobs")


def restore_content_type(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="judgeapp", model="job").exists():
        ContentType.objects.filter(app_label="jobs", model="job").update(app_label="judgeapp")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("judgeapp", "0002_call_log"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Job",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=[("loop-outcome", "Loop outcome"), ("game-outcome", "Game outcome"), ("shuffle-analysis", "Shuffle analysis"), ("rules-import", "Rules import")], max_length=20)),
                        ("input", models.JSONField(default=dict)),
                        ("status", models.CharField(choices=[("queued", "Queued"), ("running", "Running"), ("succeeded", "Succeeded"), ("failed", "Failed")], db_index=True, default="queued", max_length=10)),
                        ("result", models.JSONField(blank=True, null=True)),
                        ("error", models.TextField(blank=True)),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("worker", models.CharField(blank=True, max_length=200)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("owner", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"ordering": ["-created_at", "-id"], "db_table": "judgeapp_job"},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type, restore_content_type),
    ]
