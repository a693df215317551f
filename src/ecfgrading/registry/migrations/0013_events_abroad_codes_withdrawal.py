"""Events (issue 24, cases 5 and 7).

- An event can be withdrawn by the grading team, with its reason (``Event.withdrawn_reason``
  and the status ``withdrawn``).
- Events abroad reported by direct members were coded ``X``, the member's membership
  number and the first day (``XDM1001-130301``), which published a private number. They
  are coded ``XA`` and a number in sequence now (``ForeignResult.event_code``); this
  migration recodes those on record, oldest first: the event, its submissions (their
  ``event_code``, the EVENT CODE line of the file we built from the member's form, and its
  checksum) and the member's result. The old code is kept nowhere a page shows: its old
  address answers 404 like any code not on record. (The audit log's earlier entries, read
  by the grading team only, keep what they recorded.)

The code format is written out here, not imported, so that this migration means the
same thing whatever the code later becomes.
"""

import hashlib
from typing import Any

from django.db import migrations, models
from django.utils import timezone

SEQUENCE = "abroad-event"
CODE_LINE = b"#EVENT CODE="


def _code_in(raw: bytes) -> str:
    """The EVENT CODE the file we built gives (the writer puts it on a line of its own)."""
    for line in raw.splitlines():
        if line.startswith(CODE_LINE):
            return line[len(CODE_LINE) :].decode("utf-8", "replace").strip()
    return ""


def _recoded(raw: bytes, code: str) -> bytes:
    lines = raw.split(b"\n")
    new = [CODE_LINE + code.encode() if x.startswith(CODE_LINE) else x for x in lines]
    return b"\n".join(new)


def recode_events_abroad(apps: Any, schema_editor: Any) -> None:
    db = schema_editor.connection.alias
    result_model = apps.get_model("registry", "ForeignResult")
    event_model = apps.get_model("registry", "Event")
    submission_model = apps.get_model("registry", "Submission")
    counter, _ = (
        apps.get_model("registry", "Sequence").objects.using(db).get_or_create(name=SEQUENCE)
    )
    codes: dict[str, str] = {}  # old code -> new: one event, one new code
    for result in result_model.objects.using(db).filter(event_code="").order_by("id"):
        raw = bytes(result.raw)
        old = _code_in(raw) or f"X{result.member.number}-{result.start_date:%y%m%d}"[:20]
        if old not in codes:
            codes[old] = _issue(counter, event_model, db)
        result.event_code = codes[old]
        result.raw = _recoded(raw, codes[old])
        result.save(update_fields=["event_code", "raw"])
    counter.save(update_fields=["last_value"])
    for old, new in codes.items():
        _recode_event(event_model, submission_model, db, old, new)


def _issue(counter: Any, event_model: Any, db: str) -> str:
    while True:
        counter.last_value += 1
        code = f"XA{counter.last_value:06d}"
        if not event_model.objects.using(db).filter(code=code).exists():
            return code


def _recode_event(event_model: Any, submission_model: Any, db: str, old: str, new: str) -> None:
    # updated_at moves on: the public pages' data token changes, so no cached page keeps
    # the old code.
    event_model.objects.using(db).filter(code=old).update(code=new, updated_at=timezone.now())
    for submission in submission_model.objects.using(db).filter(event_code=old):
        raw = _recoded(bytes(submission.raw), new)
        submission.raw, submission.event_code = raw, new
        submission.sha256 = hashlib.sha256(raw).hexdigest()
        if isinstance(submission.report, dict) and submission.report.get("event_code") == old:
            submission.report = {**submission.report, "event_code": new}
        submission.save(update_fields=["raw", "event_code", "sha256", "report"])


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0012_county_association_code"),
    ]

    operations = [
        migrations.AddField(
            model_name="foreignresult",
            name="event_code",
            field=models.CharField(blank=True, db_index=True, max_length=20),
        ),
        migrations.AddField(
            model_name="event",
            name="withdrawn_reason",
            field=models.TextField(blank=True, help_text="Why the team withdrew it."),
        ),
        migrations.AlterField(
            model_name="event",
            name="status",
            field=models.CharField(
                choices=[
                    ("registered", "Registered"),
                    ("received", "Results received"),
                    ("graded", "Graded"),
                    ("withdrawn", "Withdrawn"),
                ],
                default="registered",
                max_length=20,
            ),
        ),
        migrations.RunPython(recode_events_abroad, migrations.RunPython.noop),
    ]
