"""Unsporting Conduct recorded from a guide was stored by its short name ("Minor"); a direct call
stores the IPG's title ("Unsporting Conduct - Minor"), and so do guide calls now: the stored ones
are named the same way, so an event's history and exports spell one infraction one way."""

from django.db import migrations

PREFIX = "Unsporting Conduct - "


def name_as_the_ipg(apps, schema_editor):
    Call = apps.get_model("calllog", "Call")
    for call in Call.objects.filter(category="unsporting_conduct").exclude(infraction=""):
        if not call.infraction.startswith(PREFIX):
            call.infraction = PREFIX + call.infraction
            call.save(update_fields=["infraction"])


class Migration(migrations.Migration):
    dependencies = [("calllog", "0003_announced_and_computed_penalties")]

    operations = [migrations.RunPython(name_as_the_ipg, migrations.RunPython.noop)]
