"""A chapter with text of its own (the IPG's General Philosophy and its categories' introductions)
is now compared and counted like any section: the versions that have one are counted again, and
the comparisons stored for their documents are dropped, to be made again with their chapters (by
the pairing task, or when first asked)."""

from django.db import migrations


def recount_and_forget(apps, schema_editor):
    Version = apps.get_model("rulesref", "Version")
    Rule = apps.get_model("rulesref", "Rule")
    VersionPairing = apps.get_model("rulesref", "VersionPairing")
    with_text = (
        Rule.objects.filter(kind="chapter").exclude(text="").values_list("version_id", flat=True)
    )
    versions = Version.objects.filter(pk__in=set(with_text))
    for version in versions:
        version.rule_count = (
            Rule.objects.filter(version=version).exclude(kind="chapter", text="").count()
        )
        version.save(update_fields=["rule_count"])
    documents = set(versions.values_list("document_id", flat=True))
    VersionPairing.objects.filter(old__document_id__in=documents).delete()


class Migration(migrations.Migration):
    dependencies = [("rulesref", "0005_searchvector_moved_to_search")]

    operations = [migrations.RunPython(recount_and_forget, migrations.RunPython.noop)]
