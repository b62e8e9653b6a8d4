# Event, EventJudge and Call moved from the judgeapp app to this one. Their tables keep their names
# (judgeapp_event, judgeapp_eventjudge, judgeapp_call, set by Meta.db_table), so this migration only adds
# the models to the calllog app's state: on a database made before the move the tables and their rows
# are already there (judgeapp 0002), and on a new one judgeapp 0002 still creates them. judgeapp 0004
# then removes them from judgeapp's state, also without SQL. Content types follow the models.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("event", "eventjudge", "call")


def move_content_types(apps, schema_editor, old="judgeapp", new="calllog"):
    """Permissions and admin log entries follow the models: their content types change app label."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not ContentType.objects.filter(app_label=new, model=model).exists():
            ContentType.objects.filter(app_label=old, model=model).update(app_label=new)


def restore_content_types(apps, schema_editor):
    move_content_types(apps, schema_editor, old="calllog", new="judgeapp")


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
                    name='Event',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200)),
                        ('date', models.DateField()),
                        ('rel', models.CharField(choices=[('regular', 'Regular'), ('competitive', 'Competitive'), ('professional', 'Professional')], default='competitive', max_length=12, verbose_name='REL')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('head_judge', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='headed_events', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'judgeapp_event',
                        'ordering': ['-date', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='EventJudge',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('head', 'Head judge'), ('floor', 'Floor judge')], default='floor', max_length=5)),
                        ('added_at', models.DateTimeField(auto_now_add=True)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='calllog.event')),
                        ('judge', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='event_memberships', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={'db_table': 'judgeapp_eventjudge'},
                ),
                migrations.AddField(
                    model_name='event',
                    name='judges',
                    field=models.ManyToManyField(related_name='judged_events', through='calllog.EventJudge', to=settings.AUTH_USER_MODEL),
                ),
                migrations.CreateModel(
                    name='Call',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('client_id', models.UUIDField()),
                        ('guide', models.CharField(max_length=100)),
                        ('guide_title', models.CharField(blank=True, max_length=200)),
                        ('answers', models.JSONField(default=list)),
                        ('conclusion', models.CharField(max_length=100)),
                        ('table', models.CharField(blank=True, max_length=20)),
                        ('round', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('day', models.PositiveSmallIntegerField(default=1)),
                        ('players', models.JSONField(default=list)),
                        ('offender', models.CharField(blank=True, max_length=200)),
                        ('offender_key', models.CharField(blank=True, db_index=True, max_length=200)),
                        ('ruling', models.TextField(blank=True)),
                        ('fix', models.TextField(blank=True)),
                        ('infraction', models.CharField(blank=True, max_length=100)),
                        ('category', models.CharField(blank=True, max_length=40)),
                        ('base_penalty', models.CharField(blank=True, max_length=100)),
                        ('penalty', models.CharField(blank=True, max_length=100)),
                        ('upgraded', models.BooleanField(default=False)),
                        ('upgrade_reason', models.TextField(blank=True)),
                        ('citations', models.JSONField(default=list)),
                        ('investigation_notes', models.TextField(blank=True)),
                        ('created_at', models.DateTimeField()),
                        ('received_at', models.DateTimeField(auto_now_add=True)),
                        ('judge', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='calls', to=settings.AUTH_USER_MODEL)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='calls', to='calllog.event')),
                    ],
                    options={
                        'db_table': 'judgeapp_call',
                        'ordering': ['-created_at', '-id'],
                        'constraints': [models.UniqueConstraint(fields=('event', 'client_id'), name='one_call_per_client_id')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='eventjudge',
                    constraint=models.UniqueConstraint(fields=('event', 'judge'), name='one_membership_per_judge'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
