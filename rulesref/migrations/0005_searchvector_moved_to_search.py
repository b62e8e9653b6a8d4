# The SearchVector model now lives in the search app (search/migrations/0001_initial.py adds it there,
# on the same table). This removes it from rulesref's state only: no SQL runs, the table and its rows stay.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("rulesref", "0004_searchvector_model_name_length"),
        ("search", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="SearchVector")],
            database_operations=[],
        ),
    ]
