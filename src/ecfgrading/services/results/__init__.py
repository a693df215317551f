"""Results files: check, import (accepted whole or rejected whole, always kept), and the
identification queue where doubtful players wait for a person to decide.

Public surface (the CLI, the web upload and the back office call these):

- ``check_results(files)`` -> an ImportReport per file, writing nothing
- ``import_files(files, sender=, user=, progress=)`` / ``import_results(data, filename=)``
- ``open_cases()`` / ``open_case_list()`` and ``resolve(case_id, code= | create=True)``:
  the queue
"""

from ecfgrading.services.results.import_report import ImportReport
from ecfgrading.services.results.ingest import (
    ImportResult,
    ResultsImporter,
    check_results,
    import_files,
    import_results,
)
from ecfgrading.services.results.queue import OpenCase, open_case_list, open_cases, resolve

__all__ = [
    "ImportReport",
    "ImportResult",
    "OpenCase",
    "ResultsImporter",
    "check_results",
    "import_files",
    "import_results",
    "open_case_list",
    "open_cases",
    "resolve",
]
