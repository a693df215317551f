"""The one progress callback type: how a long job says how far it has got.

``progress(done, total, what)``: ``done`` of ``total`` steps are finished, and ``what``
names the work under way: the file being imported, the address being mailed, the stage
of the demo being built ("" when there is nothing to name). The CLI draws it as a bar.

Standard library only, so that every floor that runs long work (services, the demo) can
take one.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int, str], None]  # done, total, what
