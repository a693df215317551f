"""Published grading lists in and out: load a list CSV as the starting point, export a
published version as CSV, JSON or XLSX.

Public surface:

- ``import_grade_list(data, list_id=, rates=, filename=)`` -> ListImportResult
- ``export_list(list_id, rates=, version=, fmt=)`` -> bytes
"""

from ecfgrading.lookups.exports import export_list
from ecfgrading.services.lists.imports import ListImportResult, import_grade_list

__all__ = ["ListImportResult", "export_list", "import_grade_list"]
