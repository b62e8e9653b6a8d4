# The SearchVector model moved from the rulesref app to this one. Its table keeps its name
# (rulesref_searchvector, set by Meta.db_table), so this migration only adds the model to the search
# app's state: on a database made before the move the table and its rows are already there (rulesref
# 0003 and 0004), and on a new one rulesref 0003 still creates it. rulesref 0005 then removes the model
# from rulesref's state, also without SQL.

from django.db import migrations, models


def move_content_type(apps, schema_editor):
    """Permissions and admin log entries follow the model: its content type changes app label."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="search", model="searchvector").exists():
        ContentType.objects.filter(app_label="rulesref", model="searchvector").update(app_label="search")


def restore_content_type(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="rulesref", model="searchvector").exists():
        ContentType.objects.filter(app_label="search", model="searchvector").update(app_label="rulesref")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("rulesref", "0004_searchvector_model_name_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="SearchVector",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("key", models.CharField(max_length=64, unique=True)),
                        ("model", models.CharField(max_length=200)),
                        ("vector", models.BinaryField()),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={"db_table": "rulesref_searchvector"},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type, restore_content_type),
    ]
