"""import_rules: real documents in, clear errors out, and the database untouched by a bad file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rulesref.models import GlossaryTerm, Rule, Version, VersionEvent
from tests.conftest import RULES_DIR, needs_history

pytestmark = pytest.mark.django_db
CR_2017 = RULES_DIR / "cr" / "MagicCompRules-20170825.txt"
ROOT_RULES = Path(__file__).resolve().parents[2] / "rules"  # the current documents it ships


def snapshot() -> tuple:
    return (
        Version.objects.count(),
        Rule.objects.count(),
        GlossaryTerm.objects.count(),
        VersionEvent.objects.count(),
        tuple(Version.objects.filter(is_current=True).values_list("pk", flat=True).order_by("pk")),
    )


def run_import(*args: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command("import_rules", *args, stdout=out)
    return out.getvalue()


class ImportCommandTests:
    @needs_history
    def test_prints_one_line_per_version_with_counts(self):
        output = run_import(str(CR_2017))
        line = next(line for line in output.splitlines() if "2017-08-25" in line)
        assert re.search(
            r"CR 2017-08-25: \d{4} rules, \d{3} glossary terms, \d{3} examples", line
        ), line
        version = Version.objects.get(document__slug="cr", effective_date="2017-08-25")
        assert version.status == "pending" and not version.is_current

    @needs_history
    def test_same_content_twice_is_a_no_op(self):
        run_import(str(CR_2017))
        before = snapshot()
        output = run_import(str(CR_2017))
        assert "already stored" in output
        assert snapshot() == before

    @needs_history
    def test_publishing_an_older_version_keeps_the_current_one(self):
        before = Version.objects.get(document__slug="cr", is_current=True)
        run_import(str(CR_2017), "--publish")
        old = Version.objects.get(document__slug="cr", effective_date="2017-08-25")
        assert old.status == "published" and not old.is_current  # in effect in its day (as_of)
        assert Version.objects.get(document__slug="cr", is_current=True) == before

    def test_importing_again_undoes_no_publish_or_roll_back_made_since(self, tmp_path):
        """Every start of a deployment runs `import_rules <folder> --publish` again (docker/,
        scripts/stack): a roll-back a head judge made since must stay."""
        from rulesref import services

        newer = _newer_cr(tmp_path)
        run_import(str(newer), str(ROOT_RULES), "--publish")
        stored = Version.objects.get(document__slug="cr", effective_date="2026-02-06")
        assert stored.is_current
        services.rollback_document(stored.document)
        rolled_back = Version.objects.get(document__slug="cr", is_current=True)
        assert rolled_back.effective_date < stored.effective_date
        before = snapshot()
        output = run_import(str(newer), str(ROOT_RULES), "--publish")
        assert "already stored" in output
        assert snapshot() == before
        assert Version.objects.get(document__slug="cr", is_current=True) == rolled_back
        # Ops audit 16: publishing it forward again printed "Rolled back"; only going back to an
        # older version is a roll-back.
        again = services.publish_version(stored)
        assert again.action == VersionEvent.Action.PUBLISH
        assert again.get_action_display() == "Published"
        assert Version.objects.filter(document__slug="cr", is_current=True).count() == 1


def _newer_cr(tmp_path: Path) -> Path:
    """The shipped CR as if published a year later (2026-02-06)."""
    shipped = next((ROOT_RULES / "cr").glob("*.txt")).read_bytes()
    assert b"effective as of February 7, 2025." in shipped
    newer = tmp_path / "MagicCompRules-20260206.txt"
    newer.write_bytes(shipped.replace(b"February 7, 2025.", b"February 6, 2026.", 1))
    return newer


def _bad_file(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


class BadInputTests:
    def _assert_refused(self, path: Path, *extra: Path, line: int | None = None) -> str:
        before = snapshot()
        with pytest.raises(CommandError) as raised:
            run_import(*(str(p) for p in (*extra, path)))
        message = str(raised.value)
        assert path.name in message
        if line is not None:
            assert f":{line}:" in message, message
        assert snapshot() == before, "a refused import must leave the database as it was"
        return message

    def test_binary_file(self, tmp_path):
        self._assert_refused(
            _bad_file(
                tmp_path, "rules.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
            )
        )

    def test_truncated_cr_names_a_line(self, tmp_path):
        raw = (RULES_DIR / "cr" / "MagicCompRules-20250207.txt").read_bytes()
        path = _bad_file(tmp_path, "MagicCompRules-cut.txt", raw[: len(raw) // 2])
        message = self._assert_refused(path)
        assert re.search(r":\d+:", message), message

    @pytest.mark.parametrize("broken", [b"729.3.. Sometimes", b"729.3., Sometimes"])
    def test_a_rule_whose_text_begins_with_punctuation_names_its_line(self, tmp_path, broken):
        raw = (RULES_DIR / "cr" / "MagicCompRules-20250207.txt").read_bytes()
        assert raw.count(b"729.3. Sometimes") == 1
        path = _bad_file(tmp_path, "cr-typo.txt", raw.replace(b"729.3. Sometimes", broken))
        line = raw[: raw.index(b"729.3. Sometimes")].count(b"\n") + 1
        message = self._assert_refused(path, line=line)
        assert "rule 729.3" in message, message

    def test_unknown_format(self, tmp_path):
        self._assert_refused(
            _bad_file(tmp_path, "notes.txt", b"Shopping list\n\n1. eggs\n2. milk\n"), line=1
        )

    @needs_history
    def test_undecodable_file_is_read_as_windows_1252_or_refused(self, tmp_path):
        raw = (RULES_DIR / "cr" / "MagicCompRules-20170825.txt").read_bytes().replace(b"'", b"\x92")
        path = _bad_file(tmp_path, "cp1252.txt", raw)
        output = run_import(str(path))
        assert "2017-08-25" in output  # Windows-1252 is a real encoding of older official files

    @needs_history
    def test_one_bad_file_in_a_batch_writes_nothing(self, tmp_path):
        bad = _bad_file(tmp_path, "zz-bad.txt", b"\x00\x01\x02garbage")
        self._assert_refused(bad, CR_2017)

    @needs_history
    def test_a_batch_refused_by_a_later_file_section_leaves_the_earlier_files_unwritten(
        self, tmp_path
    ):
        # A section given twice is found as the batch is checked, before the good CR is written.
        shipped = next((ROOT_RULES / "mtr").glob("*.html")).read_text(encoding="utf-8")
        start = shipped.index('<header class="entry-header" id="mtr4-2">')
        end = shipped.index("<header", start + 1)
        doubled = shipped[:end] + shipped[start:end] + shipped[end:]
        bad = _bad_file(tmp_path, "mtr-doubled.html", doubled.encode())
        message = self._assert_refused(bad, CR_2017)
        assert "section 4.2 appears twice" in message, message

    def test_a_heading_numbered_twice_is_named_at_its_own_line_not_the_contents(self, tmp_path):
        shipped = next((ROOT_RULES / "mtr").glob("*.html")).read_text(encoding="utf-8")
        heading = "MTR 4.3 Out-of-Order Sequencing</h1>"
        line = shipped[: shipped.index(heading)].count("\n") + 1
        typo = shipped.replace(heading, heading.replace("4.3", "4.2"))
        bad = _bad_file(tmp_path, "mtr-typo.html", typo.encode())
        message = self._assert_refused(bad, line=line)
        assert "section 4.2 appears twice" in message and f"and at line {line}" in message, message

    @needs_history
    def test_a_date_already_stored_refuses_the_whole_batch(self, tmp_path):
        run_import(str(CR_2017))
        raw = CR_2017.read_bytes()
        changed = _bad_file(
            tmp_path,
            "cr-2017-changed.txt",
            raw.replace(b"Taking Shortcuts", b"Taking Short Cuts"),
        )
        good = RULES_DIR / "cr" / "MagicCompRules-20170929.txt"  # not stored yet: written first
        message = self._assert_refused(changed, good)
        assert "already stored with different content" in message, message

    def test_missing_path(self, tmp_path):
        self._assert_refused(tmp_path / "nothing-here.txt")
