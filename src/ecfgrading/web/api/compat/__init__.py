"""The federation's rating-API shapes, served from the same data (issue 10): the v2 API
routed by its query string (``v2``), the newer REST shapes (``rest``), and the seeds'
name for a rapid list's file (``downloads``). docs/api.md describes them for users."""
