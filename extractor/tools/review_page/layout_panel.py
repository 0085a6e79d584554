"""The learned layout's part of the record page (issue 51, docs/learning.md): which layout read the record (or
checked the model's reading), from what it was learned, what it read and did not; approving a review teaches it
(``pipeline.teach.learn_review``), a correction of a value it read demotes it, and the page can forget it.

Every action needs the register open (``extract review --register``, or a watcher's in OUT): its layouts live
there.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from extractor.tools.review_page.records import Entry, RecordStore


class ReviewRefused(Exception):
    """A review that cannot be saved where it teaches (a service refused it): the page's ``status`` and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class LayoutPanel:
    """The layout panel's view and actions over one register's layouts (its one owner's)."""

    def __init__(self, store: RecordStore, register: Any) -> None:
        """Args: store: the records; register: the open ``register.Register`` (None: the page only shows what
        records say, and teaches nothing)."""
        self.store, self.register = store, register
        self._layouts: Any = None

    def layouts(self):
        """The register's layouts (``layouts.store.LayoutStore``), None without a register."""
        if self.register is None:
            return None
        if self._layouts is None:
            from extractor.layouts.store import LayoutStore

            self._layouts = LayoutStore.of(self.register)
        return self._layouts

    def view(self, entry: Entry) -> dict | None:
        """What the page shows of the record's ``layout`` key (None: no layout was tried on it)."""
        said = entry.record.get("layout")
        if not isinstance(said, Mapping):
            return None
        layouts = self.layouts()
        kept = layouts.get(str(said.get("id"))) if layouts is not None else None
        reviewed = self.store.reviewed(entry) or {}
        return {
            "id": said.get("id"),
            "mode": said.get("mode"),
            "used": bool(said.get("used")),
            "supplier": said.get("supplier") or {},
            "learned_from": said.get("learned_from") or {},
            "read": list(said.get("read") or ()),
            "abstained": dict(said.get("abstained") or {}),
            "disagreements": list(said.get("disagreements") or ()),
            "demoted": sorted(kept.demoted) if kept is not None else list(said.get("demoted") or ()),
            "kept": kept is not None,
            "can_forget": kept is not None,
            "learned": reviewed.get("learned"),
        }

    def teach(self, entry: Entry, data: Any, *, approved: bool) -> dict | None:
        """What a review about to be saved teaches or demotes (``pipeline.teach.learn_review``), for the reviewed file's
        ``learned``; None without a register."""
        layouts = self.layouts()
        if layouts is None:
            return None
        from extractor.pipeline.teach import learn_review

        reviewed = {
            "data": data,
            "approved": approved,
            "reviewer": self.store.reviewer,
            "reviewed_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        }
        source: Path | None = self.store.source(entry)
        return learn_review(layouts, entry.record, reviewed, source).to_dict()

    def forget(self, entry: Entry) -> tuple[int, dict]:
        """Forget the layout that read the record: (200, what was done) or (409, why not)."""
        said = entry.record.get("layout")
        layouts = self.layouts()
        if layouts is None:
            return 409, {"error": "no register is open: extract review --register PATH_OR_URL"}
        if not isinstance(said, Mapping) or not said.get("id"):
            return 409, {"error": "no layout read this record"}
        if not layouts.forget(str(said["id"])):
            return 409, {"error": f"layout {said['id']} is no longer kept (forgotten before?)"}
        return 200, {"layout": said["id"], "done": f"layout {said['id']} forgotten"}


__all__ = ["LayoutPanel", "ReviewRefused"]
