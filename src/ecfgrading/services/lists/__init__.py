"""Published grading lists in: load a list CSV as the starting point. A published version
is exported by ``lookups.exports``.

Public surface:
- ``import_grade_list(data, list_id=, rates=, filename=)`` -> ListImportResult
"""

from ecfgrading.services.lists.imports import ListImportResult, import_grade_list

__all__ = ["ListImportResult", "import_grade_list"]
