"""Results files: check, import (accepted whole or rejected whole, always kept), and the
identification queue where doubtful players wait for a person to decide.

Public surface (the CLI, the web upload and the back office call these):

- ``check_results(files)`` -> an ImportReport per file, writing nothing
- ``import_files(files, sender=, user=, progress=)`` / ``import_results(data, filename=)``
- ``resolve(case_id, code= | create=True)``: the queue's decision (the queue as listed
  is ``lookups.identification``)
"""

from ecfgrading.services.results.import_report import ImportReport
from ecfgrading.services.results.ingest import (
    ImportResult,
    ResultsImporter,
    check_results,
    import_files,
    import_results,
)
from ecfgrading.services.results.queue import resolve

__all__ = [
    "ImportReport",
    "ImportResult",
    "ResultsImporter",
    "check_results",
    "import_files",
    "import_results",
    "resolve",
]
